#!/usr/bin/env bash
# Berth's image from the Dockerfile on the local base images (scripts/base-image.sh), for
# the image test, CI and bench/image.ts on machines that cannot pull the official ones:
#
#   bash scripts/build-image.sh REPO:TAG            build it; says how long base and image took
#   bash scripts/build-image.sh --remove REPO:TAG   remove it and its build stage
#
# The build stage is tagged too (REPO-build:TAG), so that removing both leaves no untagged
# layers behind; the base images stay, as the cache of the next build.
# The build runs on the host's network: the engine's default bridge may not reach the
# registries where the host does.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
remove=0
if [ "${1:-}" = --remove ]; then remove=1 && shift; fi
tag=${1:?usage: build-image.sh [--remove] REPO:TAG}
[[ "$tag" == *:* ]] || { echo "build-image: $tag: give REPO:TAG" >&2; exit 2; }
stage_tag="${tag%:*}-build:${tag##*:}"

if [ "$remove" = 1 ]; then
  docker rmi "$tag" "$stage_tag" >/dev/null
  exit 0
fi

started=$SECONDS
base_args=$(bash "$here/base-image.sh")
base_s=$((SECONDS - started))
log=$(mktemp)
trap 'rm -f "$log"' EXIT
build() {
  # shellcheck disable=SC2086 # base_args is a list of words on purpose
  DOCKER_BUILDKIT=0 docker build --force-rm --network host $base_args "$@" "$(dirname "$here")" >>"$log" 2>&1 || {
    tail -n 40 "$log" >&2
    echo "build-image: docker build $* failed" >&2
    exit 1
  }
}
build --target build -t "$stage_tag"
build -t "$tag"
echo "build-image: $tag (base ${base_s}s, image $((SECONDS - started - base_s))s)" >&2
