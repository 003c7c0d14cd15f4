#!/usr/bin/env bash
# user.list (Manage Users; its first page of 100 since issue 30) with 5,000 more users in
# the demo school (Northbridge Academy, part of the demo trust) at 50 concurrent connections
# for 15 s, as its admin, on SQLite and PostgreSQL. Prints the answer's size, requests per
# second and p50 / p90 / p99 latency from bench/load.mjs (Node, keep-alive). Client and
# server share the machine's cores.
#
# Needs: psql, python3, node, target/release/voicemark.
# Usage: bash bench/user-list.sh [postgres admin URL]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin="$root/target/release/voicemark"
admin_url="${1:-postgres://postgres@127.0.0.1:5432/postgres}"
work="$(mktemp -d)"
pids=()
pg_name="vm_users_$(date +%s)_$$"
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  psql "$admin_url" -qtAc "DROP DATABASE IF EXISTS $pg_name WITH (FORCE)" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

# 5,000 staff in the admin's school, a third invited, a tenth disabled; the same SQL on both backends.
read -r -d '' FILL <<'SQL' || true
WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < 5000)
INSERT INTO users (id, created_at, updated_at, forename, surname, email, pro, activated, send_all_cohorts,
                   has_completed_tutorial, leader, disabled, last_active, school_id, role)
SELECT 'bench-u-' || n, '2026-11-01 10:00:00', '2026-11-01 10:00:00', 'Bench', 'User ' || n,
       'bench-' || n || '@northbridge.test', FALSE, n % 3 <> 0, FALSE, FALSE, n % 7 = 0, n % 10 = 0,
       CASE WHEN n % 3 <> 0 THEN (SELECT created_at FROM users WHERE email = 'admin@northbridge.test') END,
       (SELECT school_id FROM users WHERE email = 'admin@northbridge.test'),
       CASE WHEN n % 5 = 0 THEN 'ADMIN' ELSE 'TEACHER' END
FROM seq;
SQL

# shellcheck source=bench/server.sh
source "$root/bench/server.sh"

input=$(python3 -c 'import urllib.parse; print(urllib.parse.quote("{\"0\":{\"json\":null,\"meta\":{\"values\":[\"undefined\"],\"v\":1}}}", safe=""))')
path="/api/trpc/user.list?batch=1&input=$input"

measure() { # label port cookie
  local url="http://127.0.0.1:$2$path"
  local rows
  rows=$(curl -sf -H "Cookie: next-auth.session-token=$3" "$url" | python3 -c 'import json, sys; d = json.load(sys.stdin); page = d[0]["result"]["data"]["json"]; print(len(page["users"]), "of", page["total"])')
  printf '%-10s %s users on the first page, one answer %s bytes in %s s\n' "$1" "$rows" \
    "$(curl -s -o /dev/null -w '%{size_download}' -H "Cookie: next-auth.session-token=$3" "$url")" \
    "$(curl -s -o /dev/null -w '%{time_total}' -H "Cookie: next-auth.session-token=$3" "$url")"
  printf '%-10s ' "$1"
  node "$root/bench/load.mjs" "$url" "next-auth.session-token=$3" 50 15
}

start "sqlite://$work/users.db" 3921
python3 - "$work/users.db" "$FILL" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1], timeout=30)
db.executescript(sys.argv[2]); db.commit()
PY
sqlite_cookie=$(sign_in 3921 admin@northbridge.test)

psql "$admin_url" -qtAc "CREATE DATABASE $pg_name"
pg_url="${admin_url%/*}/$pg_name"
start "$pg_url" 3922
psql "$pg_url" -qtA -v ON_ERROR_STOP=1 -c "$FILL" >/dev/null
psql "$pg_url" -qtAc "ANALYZE" >/dev/null
pg_cookie=$(sign_in 3922 admin@northbridge.test)

echo "user.list, 5,000 extra users, 50 connections, 15 s"
measure sqlite 3921 "$sqlite_cookie"
measure postgres 3922 "$pg_cookie"
