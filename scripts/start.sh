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
exec node packages/server/dist/main.js
