#!/usr/bin/env bash
# The comment bank's typeahead answer time (issue 28): the demo teacher's bank holds 2,000
# comments (imported through commentBank.importCsv), then bench/comment-bank-search.mjs asks
# commentBank.search the way the Feedback box does — one typist, one request at a time,
# fragments of 3 to 12 letters — and prints p50, p95 and p99. On SQLite, and on PostgreSQL
# too when a postgres admin URL is given. Target: p95 under 50 ms.
#
# Needs: curl, python3, node, a built server (default target/release/voicemark; set
# VOICEMARK_BIN for another). Usage: bash bench/comment-bank-search.sh [postgres admin URL]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin="${VOICEMARK_BIN:-$root/target/release/voicemark}"
admin_url="${1:-}"
port_base="${BENCH_PORT:-3950}"
requests="${REQUESTS:-1000}"
work="$(mktemp -d)"
pids=()
pg_name="vm_bank_$(date +%s)_$$"
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  if [[ -n "$admin_url" ]]; then
    psql "$admin_url" -qtAc "DROP DATABASE IF EXISTS $pg_name WITH (FORCE)" >/dev/null 2>&1 || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

wait_healthy() {
  for _ in $(seq 1 200); do curl -sf "$1/api/health" >/dev/null && return 0; sleep 0.05; done
  echo "server at $1 never became healthy" >&2; return 1
}

start() {
  local url="$1" port="$2" data="$work/data-$2"
  mkdir -p "$data"
  DATABASE_URL="$url" VOICEMARK_DATA_DIR="$data" RUST_LOG=warn "$bin" seed --demo >/dev/null
  DATABASE_URL="$url" VOICEMARK_DATA_DIR="$data" RUST_LOG=error "$bin" serve --bind "127.0.0.1:$port" \
    >"$work/serve-$port.log" 2>&1 &
  pids+=($!)
  wait_healthy "http://127.0.0.1:$port"
}

sign_in() {
  local base="http://127.0.0.1:$1" jar="$work/jar-$1" csrf
  csrf=$(curl -sf -c "$jar" -b "$jar" "$base/api/auth/csrf" | python3 -c 'import json, sys; print(json.load(sys.stdin)["csrfToken"])')
  curl -sf -c "$jar" -b "$jar" "$base/api/auth/callback/credentials" \
    --data-urlencode email=teacher@northbridge.test --data-urlencode password=Voicemark1 \
    --data-urlencode "csrfToken=$csrf" --data-urlencode callbackUrl=/ --data-urlencode json=true >/dev/null
  awk '$6 == "next-auth.session-token" { print $7 }' "$jar"
}

# 2,000 different comments built from feedback phrases, as the commentBank.importCsv input.
python3 - >"$work/import.json" <<'PY'
import itertools, json
openers = ["Great use of", "Good attempt at", "Check your", "Well done on", "Think again about",
           "Clear explanation of", "Remember to review", "Strong work on", "Try to improve",
           "Excellent detail in"]
topics = ["evidence", "spelling", "paragraphs", "punctuation", "the conclusion", "key vocabulary",
          "your method", "the diagram", "units", "the introduction", "quotations", "presentation",
          "the calculation", "your argument", "handwriting", "the timeline", "sources",
          "the hypothesis", "capital letters", "the final answer"]
tails = ["{name}.", "this time.", "next time.", "throughout.", "in every answer.", "as we discussed.",
         "from the lesson.", "and keep going!", "with more care.", "before you hand in."]
rows = ["text,sentiment,tags"]
sentiments = ["POSITIVE", "NEUTRAL", "NEGATIVE"]
for i, (o, t, e) in enumerate(itertools.product(openers, topics, tails)):
    rows.append(f"{o} {t} {e},{sentiments[i % 3]},")
print(json.dumps({"json": {"csv": "\n".join(rows[:2001])}}))
PY

run() {
  local label="$1" url="$2" port="$3"
  start "$url" "$port"
  local cookie base="http://127.0.0.1:$port"
  cookie=$(sign_in "$port")
  local answer
  answer=$(curl -sf -H "Cookie: next-auth.session-token=$cookie" -H 'content-type: application/json' \
    --data-binary "@$work/import.json" "$base/api/trpc/commentBank.importCsv")
  echo "$label: imported $(python3 -c 'import json, sys; print(json.loads(sys.argv[1])["result"]["data"]["json"]["imported"])' "$answer") comments"
  node "$root/bench/comment-bank-search.mjs" "$base" "next-auth.session-token=$cookie" "$requests" "$label"
}

run sqlite "sqlite://$work/voicemark.db" "$port_base"
if [[ -n "$admin_url" ]]; then
  psql "$admin_url" -qtAc "CREATE DATABASE $pg_name"
  run postgres "${admin_url%/*}/$pg_name" "$((port_base + 1))"
fi
