#!/usr/bin/env bash
# The whole test suite, from a clean clone on a fresh Debian machine (as root):
# Node 24, packages, Chromium, three Docker engines and Berth's image are provisioned here,
# then lint, type checks, unit and real-engine tests (vitest) and browser tests (Playwright).
# The engines are torn down at the end unless BERTH_KEEP_RIG=1; the image always goes.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/node-env.sh"
cd "$berth_root"
results="$berth_root/test-results"
rm -rf "$results" && mkdir -p "$results"

started=$SECONDS
# Each step with the minutes since the start, to see where CI's time goes.
step() { printf '\n== %s (at %dm%02ds) ==\n' "$*" $(((SECONDS - started) / 60)) $(((SECONDS - started) % 60)); }

step "Debian packages: Chromium (never a downloaded browser), docker-compose and mmdebstrap"
# docker-compose runs compose.yaml in the image test, mmdebstrap makes the image's base.
debian_packages=()
[ -x /usr/bin/chromium ] || debian_packages+=(chromium)
command -v docker-compose >/dev/null || debian_packages+=(docker-compose)
command -v mmdebstrap >/dev/null || debian_packages+=(mmdebstrap)
if [ ${#debian_packages[@]} -gt 0 ]; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${debian_packages[@]}"
fi

# The engines start while packages install, build and lint: a fresh machine spends minutes
# installing Docker and starting three daemons, mostly waiting, which the steps below need not.
step "Docker engines (started in the background)"
engines_log="$results/engines.log"
bash "$here/engines.sh" up >"$engines_log" 2>&1 &
engines_pid=$!

# Berth's image builds meanwhile too, once the main engine answers: its base from Debian
# packages (kept by the engine between runs, scripts/base-image.sh), then the Dockerfile
# (minutes: npm ci, compiling re2, the builds). The image test runs what it built, with
# Debian's docker-compose on compose.yaml. The agent's image comes from the same build stage
# (seconds; BERTH_TEST_IMAGE's REPO-agent:TAG, for the agent image test); --remove takes both.
step "Berth's and the agent's images (built in the background)"
image_log="$results/image.log"
export BERTH_TEST_IMAGE="berth-test/berth:ci-$$"
image_job() {
  local here=$1 tag=$2 engines_pid=$3
  until timeout 5 docker version >/dev/null 2>&1; do
    kill -0 "$engines_pid" 2>/dev/null || { echo "no Docker engine answers" && return 1; }
    sleep 1
  done
  bash "$here/build-image.sh" "$tag"
}
export -f image_job
# In a process group of its own, so that a run ending early can stop the build with it.
setsid bash -c 'image_job "$@"' _ "$here" "$BERTH_TEST_IMAGE" "$engines_pid" >"$image_log" 2>&1 &
image_pid=$!

image_done=0
cleanup() {
  if [ "$image_done" = 0 ]; then kill -- "-$image_pid" 2>/dev/null || true; fi
  wait "$image_pid" 2>/dev/null || true
  bash "$here/build-image.sh" --remove "$BERTH_TEST_IMAGE" >/dev/null 2>&1 || true
  if [ "${BERTH_KEEP_RIG:-0}" != "1" ]; then
    wait "$engines_pid" 2>/dev/null || true
    bash "$here/engines.sh" down >/dev/null 2>&1 || true
  fi
}
trap cleanup EXIT

step "Packages"
bash "$here/install.sh"

step "Build"
npm run build

step "Lint and type checks"
# Side by side: each is mostly one core's work, and the machine has two.
lint_log="$results/lint.log"
npm run lint >"$lint_log" 2>&1 &
lint_pid=$!
typecheck_status=0
npm run typecheck || typecheck_status=$?
lint_status=0
wait "$lint_pid" || lint_status=$?
cat "$lint_log"
if [ "$lint_status" -ne 0 ] || [ "$typecheck_status" -ne 0 ]; then
  echo "lint exited $lint_status, typecheck $typecheck_status" >&2
  exit 1
fi

step "Docker engines (ready?)"
engines_status=0
wait "$engines_pid" || engines_status=$?
cat "$engines_log"
if [ "$engines_status" -ne 0 ]; then
  echo "engines.sh up exited $engines_status" >&2
  exit 1
fi

status=0
step "Berth's image (ready?)"
image_status=0
wait "$image_pid" || image_status=$?
image_done=1
cat "$image_log"
if [ "$image_status" -ne 0 ]; then
  # The rest still runs; the image test then fails on the missing image.
  echo "the image build exited $image_status" >&2
  status=1
fi

step "Unit and integration tests (vitest)"
npx vitest run --reporter=default --reporter=json --outputFile.json="$results/vitest.json" || status=1

step "Browser tests (Playwright, Chromium)"
PLAYWRIGHT_JSON_OUTPUT_NAME="$results/playwright.json" \
  npx playwright test -c e2e/playwright.config.ts --reporter=list,json || status=1

step "Summary"
node "$here/test-summary.ts" "$results/vitest.json" "$results/playwright.json" || status=1
exit $status
