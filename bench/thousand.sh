#!/usr/bin/env bash
# Issue 30, item 3: a thousand schools on one database. Builds, on a database the migrations
# made (`voicemark migrate`, nothing of the schema dropped or recreated):
#   - PostgreSQL: SCHOOLS schools (default 1,000) in trusts of 50 (20 trusts), each with
#     2,000 pupils, 100 staff, 200 assignments and 20,000 submissions: 2,000,000 pupils,
#     100,000 staff, 200,000 assignments and 20,000,000 submissions at the default size
#     (bench/thousand-postgres.sql says what is in a school);
#   - SQLite: one trust of SCHOOLS schools (default 50) with the same schools
#     (bench/thousand-sqlite.sql, the same data in SQLite's dialect).
# The bulk tables' secondary indexes (those that back no constraint: submissions,
# notification_receipts, class_students, deliveries, students) are dropped before the load
# and created again after it, from their own definitions as the migrations made them: one
# build over 20 M rows instead of 20 M updates of each. On PostgreSQL the fill also runs
# with its session's foreign-key triggers off (session_replication_role = replica; the
# constraints stay), and every single-column foreign key is checked by one query each
# afterwards; SQLite's fill connection leaves foreign keys off (SQLite's default) and runs
# PRAGMA foreign_key_check after. Then VACUUM (ANALYZE) (PostgreSQL) or ANALYZE (SQLite),
# so that index-only scans work from the start.
# Prints the time of each step, the total and the row counts. Leaves the database in place
# for bench/thousand-load.sh and prints its URL; drop it when done (the command is printed).
#
# Needs psql (and python3 for SQLite) and a voicemark binary for the migrations
# (VOICEMARK_BIN; default target/release/voicemark, else target/debug/voicemark).
# Usage:
#   bash bench/thousand.sh postgres [admin URL]   # DB_NAME (default vm_thousand), SCHOOLS (1000)
#   bash bench/thousand.sh sqlite [file]          # default /tmp/vm_thousand.db, SCHOOLS (50)
# A quick check: SCHOOLS=10 bash bench/thousand.sh postgres
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin="${VOICEMARK_BIN:-}"
if [[ -z "$bin" ]]; then
  bin="$root/target/release/voicemark"
  [[ -x "$bin" ]] || bin="$root/target/debug/voicemark"
fi
[[ -x "$bin" ]] || { echo "no voicemark binary: cargo build --bin voicemark (or set VOICEMARK_BIN)" >&2; exit 1; }
backend="${1:-postgres}"
start=$(date +%s.%N)
last=$start
step() { # label: prints the time since the last step
  local now
  now=$(date +%s.%N)
  printf '%-44s %7.1f s\n' "$1" "$(echo "$now - $last" | bc)"
  last=$now
}

case "$backend" in
postgres)
  admin_url="${2:-postgres://postgres@127.0.0.1:5432/postgres}"
  schools="${SCHOOLS:-1000}"
  name="${DB_NAME:-vm_thousand}"
  url="${admin_url%/*}/$name"
  psql "$admin_url" -qtAc "CREATE DATABASE $name" >/dev/null
  DATABASE_URL="$url" RUST_LOG=warn "$bin" migrate >/dev/null
  step "migrations ($name)"
  tables="'submissions','notification_receipts','class_students','deliveries','students'"
  indexes=$(psql "$url" -qtAc "SELECT indexdef || ';' FROM pg_indexes i
      WHERE schemaname = 'public' AND tablename IN ($tables)
        AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = (quote_ident(i.indexname))::regclass)
      ORDER BY tablename, indexname")
  drops=$(psql "$url" -qtAc "SELECT 'DROP INDEX ' || quote_ident(indexname) || ';' FROM pg_indexes i
      WHERE schemaname = 'public' AND tablename IN ($tables)
        AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = (quote_ident(i.indexname))::regclass)")
  psql "$url" -qtA -v ON_ERROR_STOP=1 -c "$drops" >/dev/null
  step "secondary indexes dropped ($(echo "$indexes" | grep -c CREATE))"
  # Each step of the fill \echoes its name as it starts: time the one before.
  psql "$url" -qtA -v ON_ERROR_STOP=1 -v schools="$schools" -f "$root/bench/thousand-postgres.sql" | {
    prev=""
    while read -r line; do [[ -z "$prev" ]] || step "  $prev"; prev="$line"; done
    step "  $prev"
  }
  step "data ($schools schools)"
  psql "$url" -qtA -v ON_ERROR_STOP=1 <<SQL >/dev/null
SET maintenance_work_mem = '1GB';
SET max_parallel_maintenance_workers = 2;
$indexes
SQL
  step "secondary indexes created again"
  psql "$url" -qtAc "VACUUM (ANALYZE)" >/dev/null
  step "VACUUM (ANALYZE)"
  # The fill ran without foreign-key triggers: check every single-column foreign key now.
  checks=$(psql "$url" -qtAc "SELECT format('SELECT %L, count(*) FROM %I c WHERE c.%I IS NOT NULL AND NOT EXISTS (SELECT 1 FROM %I p WHERE p.%I = c.%I);',
        conname, cl.relname, a.attname, pl.relname, pa.attname, a.attname)
      FROM pg_constraint k JOIN pg_class cl ON cl.oid = k.conrelid JOIN pg_class pl ON pl.oid = k.confrelid
      JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = k.conkey[1]
      JOIN pg_attribute pa ON pa.attrelid = k.confrelid AND pa.attnum = k.confkey[1]
      WHERE k.contype = 'f' AND cardinality(k.conkey) = 1 AND cl.relnamespace = 'public'::regnamespace")
  broken=$(psql "$url" -qtA -F ' ' -c "SET work_mem = '256MB'; $checks" | awk '$2 != 0')
  [[ -z "$broken" ]] || { echo "rows whose foreign key points nowhere: $broken" >&2; exit 1; }
  step "foreign keys checked ($(echo "$checks" | grep -c SELECT))"
  count() { psql "$url" -qtAc "SELECT count(*) FROM $1"; }
  ;;
sqlite)
  file="${2:-/tmp/vm_thousand.db}"
  schools="${SCHOOLS:-50}"
  [[ ! -e "$file" ]] || { echo "$file exists: remove it first" >&2; exit 1; }
  url="sqlite://$file"
  DATABASE_URL="$url" RUST_LOG=warn "$bin" migrate >/dev/null
  step "migrations ($file)"
  python3 - "$file" "$schools" "$root/bench/thousand-sqlite.sql" <<'PY'
import sqlite3, sys, time
path, schools, fill = sys.argv[1], int(sys.argv[2]), sys.argv[3]
db = sqlite3.connect(path, isolation_level=None)
db.execute("PRAGMA journal_mode = WAL")
db.execute("PRAGMA synchronous = OFF")
db.execute("PRAGMA cache_size = -1000000")
big = ("submissions", "notification_receipts", "class_students", "deliveries", "students")
# Secondary indexes of the bulk tables (sqlite_autoindex_* back constraints and have no sql).
indexes = db.execute(
    f"SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL "
    f"AND tbl_name IN ({','.join('?' * len(big))}) ORDER BY tbl_name, name", big).fetchall()
last = time.time()
def step(label):
    global last
    now = time.time()
    print(f"{label:<44} {now - last:7.1f} s", flush=True)
    last = now
db.execute("BEGIN")
for name, _ in indexes:
    db.execute(f'DROP INDEX "{name}"')
step(f"secondary indexes dropped ({len(indexes)})")
prev, fill_start = "", time.time()
for statement in open(fill).read().replace(":schools", str(schools)).split(";\n"):
    lines = [l for l in statement.splitlines() if not l.startswith("--")]
    if lines and lines[0].startswith("\\echo"):
        # Each step of the fill is named as it starts: time the one before.
        if prev:
            step("  " + prev)
        prev = lines[0][6:]
        lines = lines[1:]
    if "".join(lines).strip():
        db.execute("\n".join(lines))
step("  " + prev)
print(f"{'data (' + str(schools) + ' schools)':<44} {time.time() - fill_start:7.1f} s", flush=True)
for _, sql in indexes:
    db.execute(sql)
db.execute("COMMIT")
step("secondary indexes created again")
db.execute("ANALYZE")
step("ANALYZE")
# This connection never turned foreign keys on (SQLite's default): check them all now.
broken = db.execute("PRAGMA foreign_key_check").fetchall()
if broken:
    sys.exit(f"rows whose foreign key points nowhere: {broken[:10]}")
step("foreign keys checked")
PY
  last=$(date +%s.%N)
  count() { sqlite3 "$file" "SELECT count(*) FROM $1"; }
  ;;
*) echo "usage: bash bench/thousand.sh postgres|sqlite [admin URL|file]" >&2; exit 1 ;;
esac

printf '%-44s %7.1f s\n' "total" "$(echo "$(date +%s.%N) - $start" | bc)"
for t in trusts schools users students year_groups form_groups classes class_students class_staff \
  notifications submissions notification_receipts deliveries tasks task_submissions reports stored_files; do
  printf '  %-24s %12s\n' "$t" "$(count "$t")"
done
echo "database: $url"
[[ "$backend" == postgres ]] && echo "drop it with: psql $admin_url -c 'DROP DATABASE $name WITH (FORCE)'"
[[ "$backend" == sqlite ]] && echo "remove it with: rm $file*"
exit 0
