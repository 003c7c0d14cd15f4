#!/usr/bin/env bash
# Load figure for the RPC transport: a batched GET of three queries
# (user.feedbackHubCount, school.listStudents, user.settings) as a signed-in teacher of the
# demo school, at 200 concurrent connections for 15 s with wrk, on SQLite and PostgreSQL,
# next to a bare axum handler in the same run (the ceiling). Client and server share the
# machine's cores, so read the figures as relative.
#
# Needs: wrk (apt-get install wrk), psql, the release binary and the bare_axum example:
#   cargo build --release --bin voicemark && cargo build --release -p voicemark-server --example bare_axum
# Usage: bash bench/rpc-load.sh [postgres admin URL]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin="$root/target/release/voicemark"
bare="$root/target/release/examples/bare_axum"
admin_url="${1:-postgres://postgres@127.0.0.1:5432/postgres}"
connections=200
duration=15s
work="$(mktemp -d)"
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT

undefined='{"json":null,"meta":{"values":["undefined"],"v":1}}'
input=$(python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1], safe=""))' \
  "{\"0\":$undefined,\"1\":$undefined,\"2\":$undefined}")
path="/api/trpc/user.feedbackHubCount,school.listStudents,user.settings?batch=1&input=$input"

wait_healthy() {
  for _ in $(seq 1 200); do curl -sf "$1/api/health" >/dev/null && return 0; sleep 0.05; done
  echo "server at $1 never became healthy" >&2; return 1
}

# Seeds and starts voicemark on port $2 with DATABASE_URL $1 (logs to a file, so that no
# command substitution waits on its output).
start() {
  local url="$1" port="$2" data="$work/data-$2"
  mkdir -p "$data"
  DATABASE_URL="$url" VOICEMARK_DATA_DIR="$data" RUST_LOG=warn "$bin" seed --demo >/dev/null
  DATABASE_URL="$url" VOICEMARK_DATA_DIR="$data" RUST_LOG=error "$bin" serve --bind "127.0.0.1:$port" \
    >"$work/serve-$port.log" 2>&1 &
  pids+=($!)
  wait_healthy "http://127.0.0.1:$port"
}

# Signs the demo teacher in on port $1 and prints the session cookie's value.
sign_in() {
  local base="http://127.0.0.1:$1" jar="$work/jar-$1" csrf
  csrf=$(curl -sf -c "$jar" -b "$jar" "$base/api/auth/csrf" | python3 -c 'import json, sys; print(json.load(sys.stdin)["csrfToken"])')
  curl -sf -c "$jar" -b "$jar" "$base/api/auth/callback/credentials" \
    --data-urlencode email=teacher@northbridge.test --data-urlencode password=Voicemark1 \
    --data-urlencode "csrfToken=$csrf" --data-urlencode callbackUrl=/ --data-urlencode json=true >/dev/null
  awk '$6 == "next-auth.session-token" { print $7 }' "$jar"
}

# Runs wrk against $1 with cookie $2 and prints "label  req/s  p50  p99".
measure() {
  local label="$1" url="$2" cookie="$3" out="$work/wrk-$RANDOM"
  # The first request proves the call works (and warms caches) before timing.
  local status
  status=$(curl -s -o "$out.check" -w '%{http_code}' -H "Cookie: next-auth.session-token=$cookie" "$url")
  [[ "$status" == 200 ]] || { echo "$label: status $status: $(head -c 300 "$out.check")" >&2; return 1; }
  wrk -t2 -c"$connections" -d"$duration" --latency -H "Cookie: next-auth.session-token=$cookie" "$url" >"$out"
  local rps p50 p99 errors
  rps=$(awk '/^Requests\/sec:/ { print $2 }' "$out")
  p50=$(awk '$1 == "50%" { print $2 }' "$out")
  p99=$(awk '$1 == "99%" { print $2 }' "$out")
  errors=$(awk '/Non-2xx|Socket errors/ { $1 = $1; print }' "$out" | paste -sd ' ' -)
  printf '%-28s %10s req/s   p50 %8s   p99 %8s   %s\n' "$label" "$rps" "$p50" "$p99" "$errors"
  echo "$rps" >"$work/rps-$label"
}

"$bare" 127.0.0.1:3901 >/dev/null 2>&1 & pids+=($!)
wait_healthy_bare() { for _ in $(seq 1 100); do curl -sf "http://127.0.0.1:3901$path" >/dev/null && return 0; sleep 0.05; done; return 1; }
wait_healthy_bare

start "sqlite://$work/voicemark.db" 3902
sqlite_cookie=$(sign_in 3902)
pg_name="vm_bench_$(date +%s)_$$"
psql "$admin_url" -qtAc "CREATE DATABASE $pg_name"
trap 'cleanup; psql "$admin_url" -qtAc "DROP DATABASE IF EXISTS $pg_name WITH (FORCE)"' EXIT
start "${admin_url%/*}/$pg_name" 3903
pg_cookie=$(sign_in 3903)

echo "batched GET of three queries, $connections connections, $duration, wrk -t2"
measure "bare-axum" "http://127.0.0.1:3901$path" none
measure "voicemark-sqlite" "http://127.0.0.1:3902$path" "$sqlite_cookie"
measure "voicemark-postgres" "http://127.0.0.1:3903$path" "$pg_cookie"
ceiling=$(cat "$work/rps-bare-axum")
for label in voicemark-sqlite voicemark-postgres; do
  python3 -c "import sys; print(f'{sys.argv[1]:<28} {float(sys.argv[2]) / float(sys.argv[3]):.1%} of the bare handler')" \
    "$label" "$(cat "$work/rps-$label")" "$ceiling"
done
