#!/usr/bin/env bash
# From a clean clone to a running dashboard at http://localhost:8080:
# Node 24, packages, build, then the server (SQLite in ./data; the local Docker socket is
# registered as a host when it answers). Configuration comes from BERTH_* variables.
set -euo pipefail
here="$(dirname "${BASH_SOURCE[0]}")"
bash "$here/install.sh"
source "$here/node-env.sh"
cd "$berth_root"
npm run build
# A small young generation keeps the idle server near 105 MB resident (bench/startup).
exec node --max-semi-space-size=2 packages/server/dist/main.js
