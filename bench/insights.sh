#!/usr/bin/env bash
# Insights' speed target (issue 29): `insights.overview` over a school of 2,000 pupils and
# 100,000 submissions answers in at most 300 ms at p95, on SQLite and PostgreSQL.
# The data is hot-paths.sh's (bench/fill.sql: 2,000 pupils, 50 teachers, 500 assignments,
# 100,000 submissions) plus due dates over 80 days, hand-in and mark times, sentiments and
# one parent delivery per submission (bench/insights-fill-{sqlite,postgres}.sql), then classes
# (five per pupil) and a message to every pupil and parent (bench/insights-fill-common.sql).
# The caller is the demo admin (the whole school); the range covers all 80 days (12 weeks
# from 07/09/2026). REQUESTS (default 50) sequential requests per backend after 3 warm-ups;
# prints p50, p95 and max, and the same for insights.pupils and for the Reach tab of a
# message to 2,000 pupils and their parents (target 100 ms).
#
# Needs psql, python3, curl and target/release/voicemark (cargo build --release --bin voicemark;
# VOICEMARK_BIN names another binary).
# Usage: bash bench/insights.sh [postgres admin URL]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin="${VOICEMARK_BIN:-$root/target/release/voicemark}"
admin_url="${1:-postgres://postgres@127.0.0.1:5432/postgres}"
requests="${REQUESTS:-50}"
work="$(mktemp -d)"
pids=()
pg_name="vm_insights_$(date +%s)_$$"
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  psql "$admin_url" -qtAc "DROP DATABASE IF EXISTS $pg_name WITH (FORCE)" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
[[ -x "$bin" ]] || { echo "build the release binary first (see the header)" >&2; exit 1; }
FILL="$(cat "$root/bench/fill.sql")"

# shellcheck source=bench/server.sh
source "$root/bench/server.sh"

input='{"from":"2026-09-07","to":"2026-11-29","schoolId":null,"yearGroupId":null,"formGroupId":null,"classId":null,"teacherId":null}'
path_of() { # procedure json-input
  python3 -c 'import sys, urllib.parse; print(f"/api/trpc/{sys.argv[1]}?input=" + urllib.parse.quote("{\"json\":" + sys.argv[2] + "}", safe=""))' "$1" "$2"
}
overview_path=$(path_of insights.overview "$input")
pupils_path=$(path_of insights.pupils "{\"filters\":$input,\"last\":3}")
# The Reach tab of a message to 2,000 pupils and their parents (the fill's `bench-reach`).
reach_path=$(path_of notification.reach '{"id":"bench-reach","days":null,"show":null,"page":null}')

time_it() { # label port cookie path
  local label="$1" url="http://127.0.0.1:$2$4" cookie="$3" status
  status=$(curl -s -o "$work/check" -w '%{http_code}' -H "Cookie: next-auth.session-token=$cookie" "$url")
  [[ "$status" == 200 ]] || { echo "$label: status $status: $(head -c 300 "$work/check")" >&2; return 1; }
  for _ in 1 2 3; do curl -sf -o /dev/null -H "Cookie: next-auth.session-token=$cookie" "$url"; done
  for _ in $(seq 1 "$requests"); do
    curl -sf -o /dev/null -w '%{time_total}\n' -H "Cookie: next-auth.session-token=$cookie" "$url"
  done | python3 -c '
import sys
label, size = sys.argv[1], sys.argv[2]
t = sorted(float(x) * 1000 for x in sys.stdin)
pick = lambda p: t[max(0, -(-len(t) * p // 100) - 1)]
print(f"{label:<30} n={len(t)}  p50 {pick(50):7.1f} ms  p95 {pick(95):7.1f} ms  max {t[-1]:7.1f} ms  ({size} bytes)")' \
    "$label" "$(wc -c <"$work/check")"
}

start "sqlite://$work/insights.db" 4712
python3 - "$work/insights.db" "$FILL" "$root/bench/insights-fill-sqlite.sql" "$root/bench/insights-fill-common.sql" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1], timeout=30)
db.executescript(sys.argv[2])
for fill in sys.argv[3:]:
    db.executescript(open(fill).read())
db.execute("ANALYZE"); db.commit()
print("sqlite: pupils", db.execute("SELECT COUNT(*) FROM students").fetchone()[0],
      "submissions", db.execute("SELECT COUNT(*) FROM submissions").fetchone()[0],
      "deliveries", db.execute("SELECT COUNT(*) FROM deliveries").fetchone()[0])
PY
sqlite_cookie=$(sign_in 4712 admin@northbridge.test)

psql "$admin_url" -qtAc "CREATE DATABASE $pg_name"
pg_url="${admin_url%/*}/$pg_name"
start "$pg_url" 4713
# PostgreSQL types a CASE of text literals as text: the same timestamps, typed.
psql "$pg_url" -qtA -v ON_ERROR_STOP=1 -c "${FILL//THEN \'/THEN TIMESTAMP \'}" >/dev/null
psql "$pg_url" -qtA -v ON_ERROR_STOP=1 -f "$root/bench/insights-fill-postgres.sql" >/dev/null
psql "$pg_url" -qtA -v ON_ERROR_STOP=1 -f "$root/bench/insights-fill-common.sql" >/dev/null
psql "$pg_url" -qtAc "ANALYZE"
echo "postgres: submissions $(psql "$pg_url" -qtAc 'SELECT COUNT(*) FROM submissions'), deliveries $(psql "$pg_url" -qtAc 'SELECT COUNT(*) FROM deliveries')"
pg_cookie=$(sign_in 4713 admin@northbridge.test)

echo "$requests sequential requests each, after 3 warm-ups (release build, one client)"
time_it "sqlite insights.overview" 4712 "$sqlite_cookie" "$overview_path"
time_it "postgres insights.overview" 4713 "$pg_cookie" "$overview_path"
time_it "sqlite insights.pupils" 4712 "$sqlite_cookie" "$pupils_path"
time_it "postgres insights.pupils" 4713 "$pg_cookie" "$pupils_path"
time_it "sqlite notification.reach" 4712 "$sqlite_cookie" "$reach_path"
time_it "postgres notification.reach" 4713 "$pg_cookie" "$reach_path"
