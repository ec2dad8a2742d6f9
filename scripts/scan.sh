#!/usr/bin/env bash
# Security scan (issue 7): starts the product with demo data on 127.0.0.1 and runs sqlmap and
# wapiti (Debian packages) against it, signed in as a demo provider. Not part of CI (takes minutes).
# Reports land in .data-test/scan/. Usage: npm run scan
set -euo pipefail
cd "$(dirname "$0")/.."
for tool in sqlmap wapiti; do
  command -v "$tool" >/dev/null || { echo "Install $tool first: apt-get install -y sqlmap wapiti"; exit 1; }
done
PORT="${SCAN_PORT:-3300}"
BASE="http://127.0.0.1:$PORT"
OUT="$PWD/.data-test/scan"
export DATA_DIR="$OUT/data" PORT APP_URL="$BASE" LOG_LEVEL=warn AUTH_IP_RATE_LIMIT=false
rm -rf "$OUT" && mkdir -p "$OUT"
[ -f dist/web/index.html ] || npx vite build --logLevel warn
if curl -sf "$BASE/api/ready" >/dev/null 2>&1; then
  echo "Port $PORT already serves something: stop it or set SCAN_PORT"; exit 1
fi
# The compiled server, as npm start runs it; node itself (not npx, whose child would outlive the kill
# below) so the trap stops the server.
node scripts/build-server.ts
node dist/server/main.js > "$OUT/server.log" 2>&1 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true; wait $SERVER 2>/dev/null || true' EXIT
for _ in $(seq 1 120); do curl -sf "$BASE/api/ready" >/dev/null && break; sleep 0.5; done

eval "$(npx tsx scripts/demo-data.ts "$BASE" "$DATA_DIR" | grep -E '^(COOKIE|APPLICATION_ID)=' | sed 's/^\([A-Z_]*\)=\(.*\)$/\1="\2"/')"
echo "== demo application $APPLICATION_ID"

echo "== sqlmap"
SQLMAP_COMMON=(--batch --level=3 --risk=2 --cookie="$COOKIE" --headers="Origin: $BASE" --output-dir="$OUT/sqlmap" --disable-coloring)
sqlmap "${SQLMAP_COMMON[@]}" -u "$BASE/api/applications/$APPLICATION_ID*" > "$OUT/sqlmap-application.txt" 2>&1 || true
sqlmap "${SQLMAP_COMMON[@]}" -u "$BASE/api/applications/$APPLICATION_ID/sections/payors" --method=POST \
  --data='{"payorName":"Cigna*","notes":"x"}' --headers="Origin: $BASE
Content-Type: application/json" > "$OUT/sqlmap-payors.txt" 2>&1 || true
# Wrong credentials answer 401 and repeated ones 429 (per-account limit): normal answers to compare,
# not a reason for sqlmap to skip the target.
sqlmap "${SQLMAP_COMMON[@]}" --ignore-code=401,429 -u "$BASE/api/auth/sign-in/email" --method=POST \
  --data='{"email":"a@example.test*","password":"x*"}' --headers="Origin: $BASE
Content-Type: application/json" > "$OUT/sqlmap-sign-in.txt" 2>&1 || true
grep -hE "is vulnerable|injectable|all tested parameters do not appear" "$OUT"/sqlmap-*.txt | sort | uniq -c || true

echo "== wapiti"
COOKIE_JSON="$OUT/cookies.json"
python3 - "$COOKIE" "$COOKIE_JSON" <<'PY'
import json, sys
cookie, path = sys.argv[1], sys.argv[2]
jar = {"127.0.0.1": {"/": {}}}
for part in cookie.split("; "):
    name, _, value = part.partition("=")
    jar["127.0.0.1"]["/"][name] = {"name": name, "value": value, "version": 0, "expires": None, "secure": False, "port": None}
json.dump(jar, open(path, "w"))
PY
wapiti -u "$BASE/" --scope folder -m "sql,xss,exec,file,crlf,redirect,ssrf,csp,http_headers,cookieflags,methods" \
  --max-scan-time 240 -f txt -o "$OUT/wapiti.txt" -c "$COOKIE_JSON" --flush-session > "$OUT/wapiti.log" 2>&1 || true
sed -n '/Summary of vulnerabilities/,/^\*\*\*\*/p' "$OUT/wapiti.txt" 2>/dev/null || tail -40 "$OUT/wapiti.log"
echo "Reports: $OUT"
