#!/usr/bin/env bash
# The one test command (README, CI): type check, Biome, unit + integration tests against real
# PostgreSQL, then the Playwright end-to-end suite in Chromium with axe checks.
set -euo pipefail
cd "$(dirname "$0")/.."
# The pinned Node (package.json's "node" dependency) even when this script is run directly.
export PATH="$PWD/node_modules/.bin:$PATH"

echo "== type check"
npx tsc --noEmit -p tsconfig.json
echo "== biome"
npx biome check .
echo "== unit and integration tests"
npx vitest run
echo "== build the web app (the e2e server compiles the server itself: tests/e2e/start-server.sh)"
npx vite build --logLevel warn
echo "== end-to-end tests (Chromium)"
npx playwright test
