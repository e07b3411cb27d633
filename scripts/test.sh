#!/usr/bin/env bash
# The whole test suite, from a clean clone on a fresh Debian machine (as root):
# Node 24, packages, Chromium and three Docker engines are provisioned here, then
# lint, type checks, unit and real-engine tests (vitest) and browser tests (Playwright).
# The engines are torn down at the end unless BERTH_KEEP_RIG=1.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/node-env.sh"
cd "$berth_root"
results="$berth_root/test-results"
rm -rf "$results" && mkdir -p "$results"

step() { printf '\n== %s ==\n' "$*"; }

step "Chromium (Debian's, never a downloaded browser)"
if [ ! -x /usr/bin/chromium ]; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium
fi

step "Packages"
bash "$here/install.sh"

step "Build"
npm run build

step "Lint and type checks"
npm run lint
npm run typecheck

step "Docker engines"
bash "$here/engines.sh" up
if [ "${BERTH_KEEP_RIG:-0}" != "1" ]; then
  trap 'bash "$here/engines.sh" down >/dev/null 2>&1 || true' EXIT
fi

status=0
step "Unit and integration tests (vitest)"
npx vitest run --reporter=default --reporter=json --outputFile.json="$results/vitest.json" || status=1

step "Browser tests (Playwright, Chromium)"
PLAYWRIGHT_JSON_OUTPUT_NAME="$results/playwright.json" \
  npx playwright test -c e2e/playwright.config.ts --reporter=list,json || status=1

step "Summary"
node "$here/test-summary.ts" "$results/vitest.json" "$results/playwright.json" || status=1
exit $status
