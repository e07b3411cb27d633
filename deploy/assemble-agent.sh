#!/bin/sh
# Run by the Dockerfile's agent-app stage in the built workspace: lays out in $1 what the agent
# runs and nothing else: its build, the contracts' build and their production dependencies.
set -eu
dest=$1

# Only the agent and the contracts stay workspaces: prune then keeps their production
# dependencies (ws, zod) and removes the server's and the web app's packages.
npm pkg delete workspaces
npm pkg set 'workspaces[]=packages/contracts' 'workspaces[]=packages/agent'
npm prune --omit=dev --loglevel=error

mkdir -p "$dest/packages/contracts" "$dest/packages/agent"
cp -a node_modules "$dest/"
for p in contracts agent; do cp -a "packages/$p/package.json" "packages/$p/dist" "$dest/packages/$p/"; done
cd "$dest"
# Source maps, type declarations and docs, as for Berth (deploy/assemble-app.sh).
find packages node_modules -type f \
  \( -name '*.map' -o -name '*.ts' -o -name '*.mts' -o -name '*.cts' -o -name '*.md' \) -delete
# Prune leaves the scope folders of the packages it removed behind, empty.
find node_modules -mindepth 1 -type d -empty -delete
