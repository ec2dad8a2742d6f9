#!/usr/bin/env bash
# `npm run n8n:install` (issue 53 item 1): installs the n8n that server/notifications/real-n8n.test.ts
# runs, pinned in integrations/n8n/harness/package.json with its own lock, apart from the root
# install (n8n is 2.1-2.4 GB in about 2,000 packages; 9.5 min here for the first install, 6.8 min for
# `npm ci` from the lock with npm's cache warm, 2 cores, sqlite3 compiled from source). Nothing to do when the pinned version is already installed. Run it through npm, so the
# project's pinned Node (node_modules/.bin) installs it.
set -euo pipefail
cd "$(dirname "$0")/../integrations/n8n/harness"
wanted=$(node -p "require('./package.json').dependencies.n8n")
if [ -f node_modules/n8n/package.json ] &&
  [ "$(node -p "require('./node_modules/n8n/package.json').version")" = "$wanted" ]; then
  echo "== n8n $wanted already installed in integrations/n8n/harness"
  exit 0
fi
echo "== installing n8n $wanted into integrations/n8n/harness (several minutes)"
exec npm ci --no-audit --no-fund --loglevel=error
