#!/usr/bin/env bash
# The one test command (README, CI): type check, Biome, unit + integration tests against real
# PostgreSQL, then the Playwright end-to-end suite in Chromium with axe checks.
set -euo pipefail
cd "$(dirname "$0")/.."
# The pinned Node (package.json's "node" dependency) even when this script is run directly.
export PATH="$PWD/node_modules/.bin:$PATH"
# Each phase's time is printed at the end (issue 54 item 7); .ci/run adds its own phases to the same
# list when it runs this script.
source scripts/phase-times.sh
owns_report=${PHASE_REPORT_OWNER:-1}

phase "type check"
npx tsc --noEmit -p tsconfig.json
phase "biome"
npx biome check .
phase "unit and integration tests (vitest)"
npx vitest run
phase "build the web app (the e2e server compiles the server: tests/e2e/start-server.sh)"
npx vite build --logLevel warn
phase "end-to-end tests (Playwright, Chromium)"
npx playwright test
phase_end
if [ "$owns_report" = "1" ]; then phase_report; fi
