#!/usr/bin/env bash
# Berth's image from the Dockerfile on the local base images (scripts/base-image.sh), for
# the image test, CI and bench/image.ts on machines that cannot pull the official ones:
#
#   bash scripts/build-image.sh REPO:TAG            build it and the agent's image (REPO-agent:TAG);
#                                                   says how long base and images took
#   bash scripts/build-image.sh --remove REPO:TAG   remove both and their build stages
#
# The build stages are tagged too (REPO-build:TAG, REPO-agent-build:TAG), so that removing them
# leaves no untagged layers behind; the base images stay, as the cache of the next build. The agent's image comes
# from the same build stage (the Dockerfile's `agent` target): seconds once Berth's is built.
# The build runs on the host's network: the engine's default bridge may not reach the
# registries where the host does.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
remove=0
if [ "${1:-}" = --remove ]; then remove=1 && shift; fi
tag=${1:?usage: build-image.sh [--remove] REPO:TAG}
[[ "$tag" == *:* ]] || { echo "build-image: $tag: give REPO:TAG" >&2; exit 2; }
stage_tag="${tag%:*}-build:${tag##*:}"
agent_tag="${tag%:*}-agent:${tag##*:}"
agent_stage_tag="${tag%:*}-agent-build:${tag##*:}"

if [ "$remove" = 1 ]; then
  # The agent's go even when Berth's is missing (a build that failed half-way); children first.
  docker rmi "$agent_tag" "$agent_stage_tag" >/dev/null 2>&1 || true
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
build --target agent-app -t "$agent_stage_tag"
build -t "$tag"
image_s=$((SECONDS - started - base_s))
build --target agent -t "$agent_tag"
echo "build-image: $tag (base ${base_s}s, image ${image_s}s), $agent_tag ($((SECONDS - started - base_s - image_s))s)" >&2
