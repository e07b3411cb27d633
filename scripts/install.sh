#!/usr/bin/env bash
# Installs the workspace's packages (npm ci) when package-lock.json changed since the last
# install, so a second run is instant. Native addons build against Node 24's headers.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/node-env.sh"
cd "$berth_root"
stamp=node_modules/.berth-installed
if [ ! -f "$stamp" ] || [ package-lock.json -nt "$stamp" ] || [ "$(cat "$stamp")" != "$(node --version)" ]; then
  npm_config_nodedir="${berth_nodedir:-}" npm ci --no-audit --no-fund
  node --version > "$stamp"
fi
