#!/usr/bin/env bash
# The one test command (README, CI): type check, Biome, unit + integration tests against real
# PostgreSQL, then the Playwright end-to-end suite in Chromium with axe checks.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== type check"
npx tsc --noEmit -p tsconfig.json
echo "== biome"
npx biome check .
echo "== unit and integration tests"
npx vitest run
echo "== build web app"
npx vite build --logLevel warn
echo "== end-to-end tests (Chromium)"
npx playwright test
