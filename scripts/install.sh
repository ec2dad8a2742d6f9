#!/usr/bin/env bash
# `npm run setup` (README, .ci/run; issue 35, decision 032): `npm ci` run by the Node the project
# pins (package.json's "node" dependency, Node 24 LTS), not by the machine's own. npm checks every
# package's "engines" against the Node that runs npm itself, so on a machine whose Node is 20 a
# plain `npm ci` warns EBADENGINE for the packages that need 22+, although everything the project
# runs (npm scripts, npx) then runs on the pinned Node from node_modules/.bin. Here npx fetches the
# pinned Node from the registry into npm's cache first and puts it first on PATH for npm.
# Arguments are passed to npm ci.
set -euo pipefail
cd "$(dirname "$0")/.."
version=$(node -p "require('./package.json').dependencies.node")
if [ "$(node -v)" != "v$version" ]; then
  scratch=$(mktemp -d)
  pinned=$(cd "$scratch" && npx --yes --package "node@$version" -- node -p process.execPath)
  rmdir "$scratch"
  echo "== npm ci on Node v$version ($pinned)"
  PATH="$(dirname "$pinned"):$PATH"
  export PATH
fi
exec npm ci --no-audit --no-fund "$@"
