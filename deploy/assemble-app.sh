#!/bin/sh
# Run by the Dockerfile's build stage in the built workspace: lays out in $1 what Berth runs
# and nothing else, for the runtime stage to copy whole. Each removal says why it is safe.
set -eu
dest=$1

# The server's production dependencies only: dropping web (served from its build) from the
# workspaces lets prune remove its packages along with every devDependency.
npm pkg delete workspaces
npm pkg set 'workspaces[]=packages/contracts' 'workspaces[]=packages/agent' 'workspaces[]=packages/server'
npm prune --omit=dev --loglevel=error

mkdir -p "$dest/packages/contracts" "$dest/packages/agent" "$dest/packages/server" "$dest/packages/web"
cp -a package.json node_modules "$dest/"
for p in contracts agent server; do cp -a "packages/$p/package.json" "packages/$p/dist" "$dest/packages/$p/"; done
cp -a packages/web/dist "$dest/packages/web/"
cd "$dest"

# Source maps (Node runs without --enable-source-maps), type declarations and TypeScript
# sources (the runtime resolves every package through its JavaScript), docs.
find packages/contracts/dist packages/agent/dist packages/server/dist node_modules -type f \
  \( -name '*.map' -o -name '*.ts' -o -name '*.mts' -o -name '*.cts' -o -name '*.md' \) -delete
# Packages' own tests, docs and examples: the folders at the top of each package.
for pkg in node_modules/*/ node_modules/@*/*/; do
  rm -rf "${pkg}test" "${pkg}tests" "${pkg}__tests__" "${pkg}docs" "${pkg}example" "${pkg}examples" "${pkg}.github"
done

# Native addons: the compiled module stays, its C/C++ sources and build intermediates go, and
# debug symbols are stripped (re2's addon is 24 MB with them, 2 MB without).
cd node_modules
rm -rf re2/vendor better-sqlite3/deps better-sqlite3/src cpu-features/deps
find re2/build cpu-features/build -mindepth 1 -maxdepth 2 ! -name '*.node' ! -name Release -exec rm -rf {} +
find re2/build cpu-features/build -name '*.node' -exec strip --strip-unneeded {} +
# better-sqlite3 ships a prebuilt addon per platform: this machine's glibc one is loaded.
find better-sqlite3/prebuilds -name '*.node' ! -name "linux-$(node -p process.arch).node" -delete
