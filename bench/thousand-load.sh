#!/usr/bin/env bash
# Issue 30, item 3: the thousand schools under load. On a database bench/thousand.sh built,
# signs in users of every school by writing their session rows directly (the server keeps
# only each token's SHA-256, server/src/auth/session.rs; token `bench-<user id>`):
#   - every school's admin and two of its teachers;
#   - a leader in every fourth school, and each trust's MAT user;
# then starts one `voicemark serve` on it (release build, job workers off, the default pool
# of 8 connections) and runs bench/thousand-load.mjs: CONNECTIONS (100) loops, each opening
# the pages of a random user's role one after another for DURATION seconds (60) after
# WARMUP (10), one request per procedure. Prints p50/p95/p99 and errors per procedure (target
# p95 < 50 ms, p99 < 200 ms) and the server's peak and current RSS (VmHWM, VmRSS from
# /proc/<pid>/status; target < 300 MB). RESULT=<file> keeps the table as JSON too.
# Before the run, each MAT user opens Insights once (their own lines, "first view in the process"),
# and the driver waits until every trust's figures are fresh (`refreshing` false).
# RATE=<pages a second> drives the same pages open loop at that rate instead of closed loops
# (bench/thousand-load.mjs says how). Server settings pass through (VOICEMARK_DB_POOL_SIZE…);
# with VOICEMARK_METRICS_ADDR=127.0.0.1:<port> the run ends with the reads counters (at once
# or in turn) and the waits for a connection, from /metrics.
#
# SLOW_MS=<ms> (PostgreSQL) logs every statement slower than that to PostgreSQL's log for the
# run (ALTER DATABASE … SET log_min_duration_statement), and prints the slowest of them.
#
# Needs node (20+), psql or sqlite3 with python3, and target/release/voicemark
# (VOICEMARK_BIN names another binary).
# Usage: bash bench/thousand-load.sh [DATABASE_URL]
#   default postgres://postgres@127.0.0.1:5432/vm_thousand; sqlite:///tmp/vm_thousand.db works too.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin="${VOICEMARK_BIN:-$root/target/release/voicemark}"
db_url="${1:-postgres://postgres@127.0.0.1:5432/vm_thousand}"
port="${PORT:-4781}"
work="$(mktemp -d)"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  if [[ -n "${SLOW_MS:-}" && "$db_url" == postgres* ]]; then
    psql "$db_url" -qtAc "ALTER DATABASE ${db_url##*/} RESET log_min_duration_statement" >/dev/null 2>&1 || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT
[[ -x "$bin" ]] || { echo "build the release binary first: cargo build --release --bin voicemark" >&2; exit 1; }

# The users signed in: school s's admin (user 0), teachers 5 + s % 95 and 5 + (7s + 3) % 95,
# leader 1 + s % 4 in every fourth school, and each trust's MAT user (user 99 of its first school).
case "$db_url" in
postgres*)
  psql "$db_url" -qtA -F $'\t' -v ON_ERROR_STOP=1 >"$work/users.tsv" <<'SQL'
CREATE TEMP TABLE chosen AS
SELECT id, role, leader, substr(id, 4, 4)::int AS s, substr(id, 9)::int AS u FROM users
WHERE id LIKE 'bu-%' AND (
  substr(id, 9)::int IN (0, 5 + substr(id, 4, 4)::int % 95, 5 + (7 * substr(id, 4, 4)::int + 3) % 95)
  OR (substr(id, 4, 4)::int % 4 = 0 AND substr(id, 9)::int = 1 + substr(id, 4, 4)::int % 4)
  OR role = 'MAT_USER');
INSERT INTO sessions (token_hash, user_id, created_at, expires_at, last_seen_at)
SELECT encode(sha256(convert_to('bench-' || id, 'UTF8')), 'hex'), id, now()::timestamp,
       now()::timestamp + INTERVAL '30 days', now()::timestamp
FROM chosen ON CONFLICT (token_hash) DO NOTHING;
SELECT 'bench-' || id, role, leader, s, u FROM chosen ORDER BY id;
SQL
  ;;
sqlite*)
  python3 - "${db_url#sqlite://}" >"$work/users.tsv" <<'PY'
import hashlib, sqlite3, sys
db = sqlite3.connect(sys.argv[1], timeout=30)
rows = [r for r in db.execute("SELECT id, role, leader FROM users WHERE id LIKE 'bu-%'")
        if (lambda s, u, role: u in (0, 5 + s % 95, 5 + (7 * s + 3) % 95) or (s % 4 == 0 and u == 1 + s % 4)
            or role == 'MAT_USER')(int(r[0][3:7]), int(r[0][8:]), r[1])]
for id, role, leader in rows:
    db.execute("INSERT OR IGNORE INTO sessions (token_hash, user_id, created_at, expires_at, last_seen_at) "
               "VALUES (?, ?, datetime('now'), datetime('now', '+30 days'), datetime('now'))",
               (hashlib.sha256(f"bench-{id}".encode()).hexdigest(), id))
    print(f"bench-{id}\t{role}\t{leader}\t{int(id[3:7])}\t{int(id[8:])}")
db.commit()
PY
  ;;
*) echo "DATABASE_URL must be postgres://… or sqlite://…" >&2; exit 1 ;;
esac
echo "signed in: $(wc -l <"$work/users.tsv") users ($(cut -f2 "$work/users.tsv" | sort | uniq -c | awk '{printf "%s %s ", $1, $2}')$(awk -F'\t' '$3 == "t" || $3 == "1"' "$work/users.tsv" | wc -l) leaders)"

# PostgreSQL's counters of this database start again, to show the sequential scans of the run.
[[ "$db_url" != postgres* ]] || psql "$db_url" -qtAc "SELECT pg_stat_reset()" >/dev/null
if [[ -n "${SLOW_MS:-}" && "$db_url" == postgres* ]]; then
  psql "$db_url" -qtAc "ALTER DATABASE ${db_url##*/} SET log_min_duration_statement = $SLOW_MS" >/dev/null
  log_start=$(wc -c </var/log/postgresql/postgresql-15-main.log)
fi

mkdir -p "$work/data"
DATABASE_URL="$db_url" VOICEMARK_DATA_DIR="$work/data" VOICEMARK_JOB_WORKERS=0 VOICEMARK_DRAIN_SECONDS=0 RUST_LOG=error \
  "$bin" serve --bind "127.0.0.1:$port" >"$work/serve.log" 2>&1 &
server_pid=$!
pids+=($server_pid)
for _ in $(seq 1 600); do curl -sf "http://127.0.0.1:$port/api/health" >/dev/null && break; sleep 0.1; done
curl -sf "http://127.0.0.1:$port/api/health" >/dev/null || { echo "the server never became healthy:"; tail "$work/serve.log"; exit 1; } >&2
echo "server $server_pid on port $port; RSS at start $(awk '/VmRSS/ { print $2 / 1024 " MB" }' "/proc/$server_pid/status")"

# A server still draining on this port from an earlier run would answer the health check.
kill -0 "$server_pid" 2>/dev/null || { echo "the server exited at start:"; tail "$work/serve.log"; exit 1; } >&2
node "$root/bench/thousand-load.mjs" "http://127.0.0.1:$port" "$work/users.tsv"
kill -0 "$server_pid" 2>/dev/null || { echo "the server exited during the run:"; tail "$work/serve.log"; exit 1; } >&2
awk '/VmHWM|VmRSS/ { printf "server %s %.0f MB\n", $1, $2 / 1024 }' "/proc/$server_pid/status"
if [[ -n "${VOICEMARK_METRICS_ADDR:-}" ]]; then
  # Which requests read at once on free connections or in turn, and the waits for one.
  echo "from /metrics (warm-up and first views included):"
  curl -sf "http://$VOICEMARK_METRICS_ADDR/metrics" \
    | grep -E '^voicemark_(reads_total|db_pool_wait_seconds_(sum|count)|db_pool_wait_seconds_bucket.*le="0\.0(01|05|1|25|5)")' || true
fi
# The server stops first: its connections then report their counters to PostgreSQL.
kill "$server_pid"
wait "$server_pid" 2>/dev/null || true
sleep 1
if [[ "$db_url" == postgres* ]]; then
  echo "sequential scans of tables over 10,000 rows during the run (pg_stat_user_tables):"
  psql "$db_url" -qtA -F ' ' -c "SELECT relname, seq_scan, seq_tup_read FROM pg_stat_user_tables
      WHERE seq_scan > 0 AND n_live_tup > 10000 ORDER BY seq_tup_read DESC" |
    awk '{ printf "  %-24s %6d scans, %12d rows read\n", $1, $2, $3 } END { if (NR == 0) print "  none" }'
fi
if [[ -n "${SLOW_MS:-}" && "$db_url" == postgres* ]]; then
  echo "slowest statements over ${SLOW_MS} ms (PostgreSQL's log):"
  tail -c +"$((log_start + 1))" /var/log/postgresql/postgresql-15-main.log | grep "@${db_url##*/} LOG:  duration" |
    awk '{ match($0, /duration: [0-9.]+/); print substr($0, RSTART + 10, RLENGTH - 10) "\t" $0 }' |
    sort -rn | head -"${SLOW_TOP:-15}" | cut -f2- | cut -c1-600 || true
fi
