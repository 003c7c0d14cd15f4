#!/usr/bin/env bash
# user.feedbackHubCount (the sidebar badge's query) under 200 concurrent connections with
# 100,000 submissions in the database (2,000 assignments by the demo teacher x 50 pupils,
# every tenth one still unmarked), on SQLite and PostgreSQL. Prints wrk's throughput and
# latency percentiles (p50, p90, p99) and the count itself. Client and server share the
# machine's cores.
#
# Needs: wrk, psql, python3, target/release/voicemark. Usage: bash bench/hub-count.sh [postgres admin URL]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin="$root/target/release/voicemark"
admin_url="${1:-postgres://postgres@127.0.0.1:5432/postgres}"
work="$(mktemp -d)"
pids=()
pg_name="vm_hub_$(date +%s)_$$"
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  psql "$admin_url" -qtAc "DROP DATABASE IF EXISTS $pg_name WITH (FORCE)" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

# 2,000 notifications x 50 pupils = 100,000 submissions; the same SQL on both backends.
read -r -d '' FILL <<'SQL' || true
WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < 2000)
INSERT INTO notifications (id, created_at, updated_at, type, title, body, send_to_parent, send_to_pupil, filters, sender_id, school_id)
SELECT 'bench-n-' || n, '2026-11-01 10:00:00', '2026-11-01 10:00:00', 'ASSIGNMENT', 'Bench ' || n, '', FALSE, TRUE, '{}',
       (SELECT id FROM users WHERE email = 'teacher@northbridge.test'),
       (SELECT school_id FROM users WHERE email = 'teacher@northbridge.test')
FROM seq;
INSERT INTO submissions (id, created_at, updated_at, received_at, marked_at, token, notification_id, student_id)
SELECT 'bench-s-' || n.id || '-' || s.id, '2026-11-02 10:00:00', '2026-11-02 10:00:00', '2026-11-02 10:00:00',
       '2026-11-03 10:00:00', 'bench-t-' || n.id || '-' || s.id, n.id, s.id
FROM notifications n, (SELECT id, ROW_NUMBER() OVER (ORDER BY id) AS r FROM students ORDER BY id LIMIT 50) s
WHERE n.id LIKE 'bench-n-%' AND s.r % 10 <> 0;
INSERT INTO submissions (id, created_at, updated_at, received_at, token, notification_id, student_id)
SELECT 'bench-s-' || n.id || '-' || s.id, '2026-11-02 10:00:00', '2026-11-02 10:00:00', '2026-11-02 10:00:00',
       'bench-t-' || n.id || '-' || s.id, n.id, s.id
FROM notifications n, (SELECT id, ROW_NUMBER() OVER (ORDER BY id) AS r FROM students ORDER BY id LIMIT 50) s
WHERE n.id LIKE 'bench-n-%' AND s.r % 10 = 0;
SQL

# shellcheck source=bench/server.sh
source "$root/bench/server.sh"

input=$(python3 -c 'import urllib.parse; print(urllib.parse.quote("{\"0\":{\"json\":null,\"meta\":{\"values\":[\"undefined\"],\"v\":1}}}", safe=""))')
path="/api/trpc/user.feedbackHubCount?batch=1&input=$input"

measure() { # label port cookie
  local url="http://127.0.0.1:$2$path" out="$work/wrk-$2"
  echo "$1: count answered $(curl -sf -H "Cookie: next-auth.session-token=$3" "$url")"
  wrk -t2 -c200 -d15s --latency -H "Cookie: next-auth.session-token=$3" "$url" >"$out"
  printf '%-10s %10s req/s   p50 %8s   p90 %8s   p99 %8s\n' "$1" \
    "$(awk '/^Requests\/sec:/ { print $2 }' "$out")" "$(awk '$1 == "50%" { print $2 }' "$out")" \
    "$(awk '$1 == "90%" { print $2 }' "$out")" "$(awk '$1 == "99%" { print $2 }' "$out")"
}

start "sqlite://$work/hub.db" 3911
python3 - "$work/hub.db" "$FILL" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1], timeout=30)
db.executescript(sys.argv[2]); db.commit()
print("sqlite: submissions =", db.execute("SELECT COUNT(*) FROM submissions").fetchone()[0])
PY
sqlite_cookie=$(sign_in 3911 teacher@northbridge.test)

psql "$admin_url" -qtAc "CREATE DATABASE $pg_name"
pg_url="${admin_url%/*}/$pg_name"
start "$pg_url" 3912
psql "$pg_url" -qtA -v ON_ERROR_STOP=1 -c "$FILL" >/dev/null
psql "$pg_url" -qtAc "ANALYZE; SELECT 'postgres: submissions = ' || COUNT(*) FROM submissions"
pg_cookie=$(sign_in 3912 teacher@northbridge.test)

echo "user.feedbackHubCount, 200 connections, 15 s, wrk -t2"
measure sqlite 3911 "$sqlite_cookie"
measure postgres 3912 "$pg_cookie"
