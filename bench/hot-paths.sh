#!/usr/bin/env bash
# Issue 15's hot paths at 200 connections (wrk -t2, 15 s each), on SQLite and PostgreSQL,
# next to a bare axum handler in the same run:
#   1. user.feedbackHubCount (the sidebar badge);
#   2. school.listStudents (the roster: 2,000 pupils), as wrk asks (no compression), as a
#      browser asks (Accept-Encoding: gzip), as a browser that has it asks (If-None-Match),
#      the first read after a change (a second server that keeps no roster,
#      VOICEMARK_READ_CACHES=sessions,hub-count: every request reads and encodes it, as the
#      first one after a change to pupils or groups does) and the same with nothing kept (a
#      third server with VOICEMARK_READ_CACHES=off: the session is read every time too);
#   3. both in one batch;
#   4. notification.filterOptions (the audience pickers: the school's 2,000 pupils, its
#      classes, year and form groups with their pupils' counts), kept (gzip, as a browser
#      asks) and its first read after a change (the server that keeps no roster, which
#      keeps no audience pickers either: as every request did before stop 46).
# Prints req/s, p50, p99, the share of the bare handler's rate and the server's CPU time
# per request (user + system, from /proc, over the whole run).
#
# The data is the issue's, added to the demo school (Northbridge Academy) on both backends
# by the same SQL:
#   - 2,000 more pupils in 7 year groups and 70 form groups;
#   - 49 more teachers (50 with the demo teacher);
#   - 500 assignments, 10 per teacher;
#   - 100,000 submissions, 200 per assignment: 30 % received and unmarked, 50 % marked,
#     20 % not received.
# The signed-in caller is the demo teacher. Client and server share the machine's cores,
# so read the figures as relative to the bare handler of the same run.
#
# Needs wrk (installed here with apt-get when missing), psql, python3, curl,
# target/release/voicemark and target/release/examples/bare_axum:
#   cargo build --release --bin voicemark && cargo build --release -p voicemark-server --example bare_axum
# Usage: bash bench/hot-paths.sh [postgres admin URL]
# Environment: DURATION (default 15s), CONNECTIONS (default 200), RUNS (default 1: how many
# times the whole set of cases runs, one set after the other, as the issue measured with 2),
# CASES (default "count roster both audiences": which of the four to run).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin="$root/target/release/voicemark"
bare="$root/target/release/examples/bare_axum"
admin_url="${1:-postgres://postgres@127.0.0.1:5432/postgres}"
connections="${CONNECTIONS:-200}"
duration="${DURATION:-15s}"
runs="${RUNS:-1}"
cases="${CASES:-count roster both audiences}"
work="$(mktemp -d)"
pids=()
pg_name="vm_hot_$(date +%s)_$$"
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  psql "$admin_url" -qtAc "DROP DATABASE IF EXISTS $pg_name WITH (FORCE)" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

command -v wrk >/dev/null || { apt-get update -qq >/dev/null && apt-get install -y -qq wrk >/dev/null; }
[[ -x "$bin" && -x "$bare" ]] || { echo "build the release binary and the bare_axum example first (see the header)" >&2; exit 1; }

FILL="$(cat "$root/bench/fill.sql")"

# shellcheck source=bench/server.sh
source "$root/bench/server.sh"

rpc_path() { # procedure[,procedure…]: a batched GET with no inputs
  python3 - "$1" <<'PY'
import sys, urllib.parse
procs = sys.argv[1].split(",")
undefined = '{"json":null,"meta":{"values":["undefined"],"v":1}}'
batch = "{" + ",".join(f'"{i}":{undefined}' for i in range(len(procs))) + "}"
print(f"/api/trpc/{sys.argv[1]}?batch=1&input=" + urllib.parse.quote(batch, safe=""))
PY
}
count_path=$(rpc_path user.feedbackHubCount)
roster_path=$(rpc_path school.listStudents)
both_path=$(rpc_path user.feedbackHubCount,school.listStudents)
audiences_path=$(rpc_path notification.filterOptions)

cpu_ticks() { # pid -> utime + stime, in clock ticks
  awk '{ print $14 + $15 }' "/proc/$1/stat"
}

measure() { # label url cookie pid [header…] -> prints the line, keeps req/s in $work/rps-<label>
  local label="$1" url="$2" cookie="$3" pid="$4" out="$work/wrk-$RANDOM" status
  shift 4
  local headers=(-H "Cookie: next-auth.session-token=$cookie")
  for h in "$@"; do headers+=(-H "$h"); done
  status=$(curl -s -o "$out.check" -w '%{http_code}' "${headers[@]}" "$url")
  [[ "$status" == 200 || "$status" == 304 ]] || { echo "$label: status $status: $(head -c 300 "$out.check")" >&2; return 1; }
  local before
  before=$(cpu_ticks "$pid")
  wrk -t2 -c"$connections" -d"$duration" --latency "${headers[@]}" "$url" >"$out"
  local cpu_ticks_used=$(( $(cpu_ticks "$pid") - before ))
  local rps p50 p99 errors requests
  rps=$(awk '/^Requests\/sec:/ { print $2 }' "$out")
  requests=$(awk '/requests in/ { print $1 }' "$out")
  p50=$(awk '$1 == "50%" { print $2 }' "$out")
  p99=$(awk '$1 == "99%" { print $2 }' "$out")
  errors=$(awk '/Socket errors/ { $1 = $1; print }' "$out" | paste -sd ' ' -)
  [[ "$status" == 304 ]] || errors="$errors $(awk '/Non-2xx/ { $1 = $1; print }' "$out")"
  echo "$rps" >"$work/rps-$label"
  python3 -c '
import os, sys
l, r, p50, p99, bare, err, ticks, n = sys.argv[1:]
ratio = f"{float(r) / float(bare):6.1%} of bare" if bare else " " * 14
cpu = int(ticks) / os.sysconf("SC_CLK_TCK") / max(int(n), 1) * 1e6
print(f"{l:<34} {float(r):10.1f} req/s   p50 {p50:>8}   p99 {p99:>8}   {ratio}   {cpu:8.1f} us CPU/req {err.strip()}")' \
    "$label" "$rps" "$p50" "$p99" "${bare_rps:-}" "$errors" "$cpu_ticks_used" "$requests"
}

"$bare" 127.0.0.1:3921 >/dev/null 2>&1 & pids+=($!)
for _ in $(seq 1 100); do curl -sf "http://127.0.0.1:3921/api/health" >/dev/null && break; sleep 0.05; done

start "sqlite://$work/hot.db" 3922
sqlite_pid=${pids[-1]}
python3 - "$work/hot.db" "$FILL" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1], timeout=30)
db.executescript(sys.argv[2]); db.execute("ANALYZE"); db.commit()
print("sqlite: pupils", db.execute("SELECT COUNT(*) FROM students").fetchone()[0],
      "submissions", db.execute("SELECT COUNT(*) FROM submissions").fetchone()[0])
PY
sqlite_cookie=$(sign_in 3922 teacher@northbridge.test)

psql "$admin_url" -qtAc "CREATE DATABASE $pg_name"
pg_url="${admin_url%/*}/$pg_name"
start "$pg_url" 3923
pg_pid=${pids[-1]}
# PostgreSQL types a CASE of text literals as text: the same timestamps, typed.
psql "$pg_url" -qtA -v ON_ERROR_STOP=1 -c "${FILL//THEN \'/THEN TIMESTAMP \'}" >/dev/null
psql "$pg_url" -qtAc "ANALYZE"
pg_cookie=$(sign_in 3923 teacher@northbridge.test)
# The same databases through servers that keep no roster (every read is a first read), and
# through servers that keep nothing.
serve "sqlite://$work/hot.db" 3924 VOICEMARK_READ_CACHES=sessions,hub-count
sqlite_cold_pid=${pids[-1]}
serve "$pg_url" 3925 VOICEMARK_READ_CACHES=sessions,hub-count
pg_cold_pid=${pids[-1]}
serve "sqlite://$work/hot.db" 3926 VOICEMARK_READ_CACHES=off
sqlite_bare_pid=${pids[-1]}
serve "$pg_url" 3927 VOICEMARK_READ_CACHES=off
pg_bare_pid=${pids[-1]}

echo "badge count answered: $(curl -sf -H "Cookie: next-auth.session-token=$sqlite_cookie" "http://127.0.0.1:3922$count_path") (sqlite)," \
  "$(curl -sf -H "Cookie: next-auth.session-token=$pg_cookie" "http://127.0.0.1:3923$count_path") (postgres)"
echo "roster answer: $(curl -sf -H "Cookie: next-auth.session-token=$pg_cookie" "http://127.0.0.1:3923$roster_path" | wc -c) bytes"
etag_of() { # port cookie -> the roster's ETag
  curl -sf -D - -o /dev/null -H "Cookie: next-auth.session-token=$2" "http://127.0.0.1:$1$roster_path" |
    awk 'tolower($1) == "etag:" { sub(/\r$/, "", $2); print $2 }'
}
# The compressed roster is made in the background after the first gzip request.
curl -sf -o /dev/null -H "Accept-Encoding: gzip" -H "Cookie: next-auth.session-token=$sqlite_cookie" "http://127.0.0.1:3922$roster_path"
curl -sf -o /dev/null -H "Accept-Encoding: gzip" -H "Cookie: next-auth.session-token=$pg_cookie" "http://127.0.0.1:3923$roster_path"
sleep 0.5
echo "roster gzip: $(curl -sf -H "Accept-Encoding: gzip" -H "Cookie: next-auth.session-token=$pg_cookie" "http://127.0.0.1:3923$roster_path" | wc -c) bytes; ETag $(etag_of 3923 "$pg_cookie")"
gzip_header="Accept-Encoding: gzip, deflate, br, zstd"
echo "$connections connections, $duration each, wrk -t2"
bare_rps=""
for run in $(seq 1 "$runs"); do
  [[ "$runs" == 1 ]] || echo "run $run of $runs"
  for name in $cases; do
    path_var="${name}_path"
    measure "bare-axum ($name)" "http://127.0.0.1:3921${!path_var}" none "${pids[0]}"
    bare_rps=$(cat "$work/rps-bare-axum ($name)")
    measure "sqlite $name" "http://127.0.0.1:3922${!path_var}" "$sqlite_cookie" "$sqlite_pid"
    measure "postgres $name" "http://127.0.0.1:3923${!path_var}" "$pg_cookie" "$pg_pid"
    if [[ $name == roster ]]; then
      measure "sqlite roster, gzip" "http://127.0.0.1:3922$roster_path" "$sqlite_cookie" "$sqlite_pid" "$gzip_header"
      measure "postgres roster, gzip" "http://127.0.0.1:3923$roster_path" "$pg_cookie" "$pg_pid" "$gzip_header"
      measure "sqlite roster, 304" "http://127.0.0.1:3922$roster_path" "$sqlite_cookie" "$sqlite_pid" "$gzip_header" "If-None-Match: $(etag_of 3922 "$sqlite_cookie")"
      measure "postgres roster, 304" "http://127.0.0.1:3923$roster_path" "$pg_cookie" "$pg_pid" "$gzip_header" "If-None-Match: $(etag_of 3923 "$pg_cookie")"
      measure "sqlite roster, first read" "http://127.0.0.1:3924$roster_path" "$sqlite_cookie" "$sqlite_cold_pid" "$gzip_header"
      measure "postgres roster, first read" "http://127.0.0.1:3925$roster_path" "$pg_cookie" "$pg_cold_pid" "$gzip_header"
      measure "sqlite roster, nothing kept" "http://127.0.0.1:3926$roster_path" "$sqlite_cookie" "$sqlite_bare_pid" "$gzip_header"
      measure "postgres roster, nothing kept" "http://127.0.0.1:3927$roster_path" "$pg_cookie" "$pg_bare_pid" "$gzip_header"
    fi
    if [[ $name == audiences ]]; then
      measure "sqlite audiences, gzip" "http://127.0.0.1:3922$audiences_path" "$sqlite_cookie" "$sqlite_pid" "$gzip_header"
      measure "postgres audiences, gzip" "http://127.0.0.1:3923$audiences_path" "$pg_cookie" "$pg_pid" "$gzip_header"
      measure "sqlite audiences, first read" "http://127.0.0.1:3924$audiences_path" "$sqlite_cookie" "$sqlite_cold_pid" "$gzip_header"
      measure "postgres audiences, first read" "http://127.0.0.1:3925$audiences_path" "$pg_cookie" "$pg_cold_pid" "$gzip_header"
    fi
    bare_rps=""
  done
done
