#!/usr/bin/env bash
# Issue 30: the night's preparation of the trusts' Insights (docs/insights.md "Prepared
# before the day starts") at a thousand schools, on the database bench/thousand.sh filled
# and bench/thousand-load.sh signed in (each trust's MAT user holds a session used then):
#   1. a release `voicemark serve` with one job worker; its queued `insights.prepare` run is
#      brought forward to now and waited for: prints how long it took (the job's run_at to
#      finished_at) and how many answers it kept;
#   2. after AGE_SECONDS (65: the answers past their minute, as they are hours later in the
#      morning), a second server, which holds nothing (as any process then): each trust's
#      MAT user asks for the page's first overview and pupils, one after another; prints
#      each answer's time (curl's time_total) and whether it was the prepared one
#      (`refreshing` is true: given at once while newer figures are worked out);
#   3. the kept answers deleted, a third server, the same questions: the first view of the
#      morning as it was before stop 46 (each waits for its reading).
# Needs psql, curl, python3 and the release binary (VOICEMARK_BIN, default
# target/release/voicemark). Deletes what the run kept in insight_answers when it ends.
# Usage: bash bench/insights-prepare.sh [DATABASE_URL]   (default …/vm_thousand)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin="${VOICEMARK_BIN:-$root/target/release/voicemark}"
db_url="${1:-postgres://postgres@127.0.0.1:5432/vm_thousand}"
port="${PORT:-4791}"
work="$(mktemp -d)"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  psql "$db_url" -qtAc "DELETE FROM insight_answers" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
[[ -x "$bin" ]] || { echo "build the release binary first: cargo build --release --bin voicemark" >&2; exit 1; }

serve() { # port workers
  mkdir -p "$work/data"
  DATABASE_URL="$db_url" VOICEMARK_DATA_DIR="$work/data" VOICEMARK_JOB_WORKERS="$2" VOICEMARK_DRAIN_SECONDS=0 \
    RUST_LOG=info "$bin" serve --bind "127.0.0.1:$1" >"$work/serve-$1.log" 2>&1 &
  pids+=($!)
  for _ in $(seq 1 600); do curl -sf "http://127.0.0.1:$1/api/health" >/dev/null && return 0; sleep 0.1; done
  echo "the server on port $1 never became healthy" >&2; tail "$work/serve-$1.log" >&2; return 1
}

mat_users=$(psql "$db_url" -qtAc "SELECT u.id FROM users u WHERE u.role = 'MAT_USER' AND EXISTS (
  SELECT 1 FROM sessions s WHERE s.user_id = u.id AND s.token_hash = encode(sha256(convert_to('bench-' || u.id, 'UTF8')), 'hex'))
  ORDER BY u.id")
[[ -n "$mat_users" ]] || { echo "no MAT user is signed in: run bench/thousand-load.sh first" >&2; exit 1; }
psql "$db_url" -qtAc "DELETE FROM insight_answers" >/dev/null
# A run brought forward uses the key of the day it was queued for, so an earlier run of this
# script leaves that day's run done: start the chain again (this database only).
psql "$db_url" -qtAc "DELETE FROM jobs WHERE kind = 'insights.prepare'" >/dev/null
started=$(psql "$db_url" -qtAc "SELECT now()::timestamp")

# 1. The night's run.
serve "$port" 1
psql "$db_url" -qtAc "UPDATE jobs SET run_at = now()::timestamp WHERE kind = 'insights.prepare' AND status = 'QUEUED'" >/dev/null
for _ in $(seq 1 1200); do
  done_at=$(psql "$db_url" -qtAc "SELECT count(*) FROM jobs WHERE kind = 'insights.prepare' AND status = 'DONE'
    AND finished_at > '$started'")
  [[ "$done_at" -gt 0 ]] && break
  sleep 0.5
done
psql "$db_url" -qtA -F ' ' -c "SELECT 'prepared in', round(extract(epoch FROM finished_at - run_at)::numeric, 1),
  's from due to done (the worker looks for due jobs every second or so);',
  (SELECT count(*) FROM insight_answers), 'answers kept' FROM jobs
  WHERE kind = 'insights.prepare' AND status = 'DONE' ORDER BY finished_at DESC LIMIT 1"
grep -h "Insights prepared" "$work/serve-$port.log" | tail -1 || true
kill "${pids[-1]}"

ask() { # port label: each MAT user's first overview and pupils, one after another
  local no_filters='{"from":null,"to":null,"schoolId":null,"yearGroupId":null,"formGroupId":null,"classId":null,"teacherId":null}'
  local overview pupils
  overview=$(python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1], safe=""))' "{\"json\":$no_filters}")
  pupils=$(python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1], safe=""))' "{\"json\":{\"filters\":$no_filters,\"last\":3}}")
  : >"$work/times-$1"; : >"$work/refreshing-$1"
  for user in $mat_users; do
    for call in "insights.overview?input=$overview" "insights.pupils?input=$pupils"; do
      curl -s -o "$work/answer" -w '%{time_total}\n' -H "Cookie: next-auth.session-token=bench-$user" \
        "http://127.0.0.1:$1/api/trpc/$call" >>"$work/times-$1"
      [[ "$call" != insights.overview* ]] || grep -o '"refreshing":[a-z]*' "$work/answer" >>"$work/refreshing-$1" || true
    done
  done
  python3 - "$2" "$work/times-$1" "$work/refreshing-$1" <<'PY'
import statistics, sys
label, times, refreshing = sys.argv[1], [float(t) * 1000 for t in open(sys.argv[2])], open(sys.argv[3]).read().split()
overview, pupils = times[0::2], times[1::2]
def line(name, xs):
    xs = sorted(xs)
    return f"{name} p50 {statistics.median(xs):7.1f} ms, max {xs[-1]:7.1f} ms"
print(f"{label} ({len(overview)} trusts): {line('overview', overview)}; {line('pupils', pupils)};"
      f" given while newer figures are worked out: {refreshing.count(chr(34) + 'refreshing' + chr(34) + ':true')} of {len(refreshing)}")
PY
}

# 2. The morning: a process that holds nothing, the answers past their minute (as hours
# later: given at once while newer figures are worked out in the background).
sleep "${AGE_SECONDS:-65}"
serve $((port + 1)) 0
ask $((port + 1)) "first views, prepared"
kill "${pids[-1]}"

# 3. Before: nothing kept.
psql "$db_url" -qtAc "DELETE FROM insight_answers" >/dev/null
serve $((port + 2)) 0
ask $((port + 2)) "first views, nothing kept"
