#!/usr/bin/env bash
# Server for the end-to-end suite: the built web app (npm test builds it first), a fresh DATA_DIR,
# and a fresh database on DATABASE_URL's server when one is given.
set -euo pipefail
cd "$(dirname "$0")/../.."
# playwright.config.ts gives the ports (free ones the system handed out, tests/e2e/ports.ts): no
# fixed default here, which another program may hold.
: "${PORT:?PORT is set by playwright.config.ts: run npx playwright test}"
: "${NOTIFY_WEBHOOK_URL:?NOTIFY_WEBHOOK_URL is set by playwright.config.ts}"
: "${NPPES_API_URL:?NPPES_API_URL is set by playwright.config.ts}"
export DATA_DIR="$PWD/.data-test/e2e-$PORT"
rm -rf "$DATA_DIR"
mkdir -p "$DATA_DIR"
if [ -n "${DATABASE_URL:-}" ]; then
  DB="e2e_$(date +%s)_$$"
  psql "$DATABASE_URL" -v ON_ERROR_STOP=1 -qc "create database $DB"
  export DATABASE_URL="${DATABASE_URL%/*}/$DB"
  # Lets the tests run CLIs (npm run admin) against the same database.
  echo "$DATABASE_URL" > "$DATA_DIR/e2e-database-url"
fi
if [ -n "${E2E_WEB_DIR:-}" ]; then
  # A private build, so parallel runs do not replace each other's files.
  npx vite build --logLevel warn --outDir "$E2E_WEB_DIR" --emptyOutDir
  export WEB_DIST_DIR="$E2E_WEB_DIR"
else
  [ -f dist/web/index.html ] || npx vite build --logLevel warn
fi
# The compiled server, as `npm start` runs it, compiled now so it is never older than the sources;
# the admin CLI the specs run (helpers.ts adminCli: npm run admin) is compiled with it.
node scripts/build-server.ts
export NODE_ENV=test
export LOG_LEVEL=warn
# Every browser in the suite comes from 127.0.0.1.
export AUTH_IP_RATE_LIMIT=false
# Completion notifications go to NOTIFY_WEBHOOK_URL, the receiver the specs start (helpers.ts),
# signed with this test-only secret (helpers.ts holds the same one). 'Check NPPES' (issue 15) asks
# NPPES_API_URL, the fake registry tests/e2e/review-workflow.spec.ts starts: no test ever reaches the
# public CMS registry.
export NOTIFY_WEBHOOK_SECRET="whsec_pBPvcKLMACQL4VARJRDbv+AcGGhWm0/Z+vRh9SuUCrQ="
exec node dist/server/main.js
