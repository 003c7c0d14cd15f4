#!/usr/bin/env bash
# Stop 47: what a shared answer's first read costs now that it is compressed for that read
# (deflate level 1, server/src/rpc/wire.rs) instead of sent as it is until its best form is
# made in the background. On the database bench/thousand.sh filled and bench/thousand-load.sh
# signed in (token `bench-<user id>`), one release `voicemark serve` that keeps no roster and
# no audience pickers (VOICEMARK_READ_CACHES=sessions,hub-count: every read is a first read,
# as the first after a change is) answers N requests (200) of each school admin in turn for
# the roster (school.listStudents, 2,000 pupils) and the audience pickers
# (notification.filterOptions), once without and once with Accept-Encoding: gzip. Prints the
# bytes sent, curl's p50 time and the server's CPU time per request (user + system from
# /proc/<pid>/stat over the N requests): the difference between the two lines is the cost of
# compressing a first read.
# Needs psql, curl, python3 and the release binary (VOICEMARK_BIN).
# Usage: bash bench/first-read.sh [DATABASE_URL]   (default …/vm_thousand)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin="${VOICEMARK_BIN:-$root/target/release/voicemark}"
db_url="${1:-postgres://postgres@127.0.0.1:5432/vm_thousand}"
port="${PORT:-4793}"
n="${N:-200}"
work="$(mktemp -d)"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  [[ -n "${KEEP:-}" ]] || rm -rf "$work"
}
trap cleanup EXIT
[[ -x "$bin" ]] || { echo "build the release binary first: cargo build --release --bin voicemark" >&2; exit 1; }
# shellcheck source=bench/server.sh
source "$root/bench/server.sh"

psql "$db_url" -qtAc "SELECT u.id FROM users u JOIN sessions s ON s.user_id = u.id \
  WHERE u.role = 'ADMIN' AND s.token_hash = encode(sha256(convert_to('bench-' || u.id, 'UTF8')), 'hex') \
  ORDER BY u.id LIMIT $n" >"$work/admins"
[[ -s "$work/admins" ]] || { echo "no signed-in admins: run bench/thousand-load.sh once first" >&2; exit 1; }
serve "$db_url" "$port" VOICEMARK_READ_CACHES=sessions,hub-count
server="${pids[-1]}"

cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$server/stat"; }
hz=$(getconf CLK_TCK)

echo "| procedure | Accept-Encoding | requests | bytes sent (mean) | p50 ms | server CPU ms a request |"
echo "|---|---|---|---|---|---|"
for procedure in school.listStudents notification.filterOptions; do
  for encoding in identity gzip; do
    # One warm-up round, not counted.
    while read -r admin; do
      curl -s -o /dev/null -H "Accept-Encoding: $encoding" -b "next-auth.session-token=bench-$admin" \
        "http://127.0.0.1:$port/api/trpc/$procedure"
    done < <(head -5 "$work/admins")
    before=$(cpu_ticks)
    while read -r admin; do
      curl -s -o /dev/null -w '%{http_code} %{size_download} %{time_total}\n' \
        -H "Accept-Encoding: $encoding" -b "next-auth.session-token=bench-$admin" \
        "http://127.0.0.1:$port/api/trpc/$procedure"
    done <"$work/admins" >"$work/times"
    after=$(cpu_ticks)
    python3 - "$procedure" "$encoding" "$work/times" "$((after - before))" "$hz" <<'PY'
import statistics, sys
procedure, encoding, path, ticks, hz = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
rows = [line.split() for line in open(path) if line.strip()]
bad = [r for r in rows if r[0] != "200"]
if bad:
    sys.exit(f"{len(bad)} requests failed: {bad[:3]}")
sizes = [int(r[1]) for r in rows]
times = [float(r[2]) * 1000 for r in rows]
cpu = ticks / hz * 1000 / len(rows)
print(f"| `{procedure}` | {encoding} | {len(rows)} | {statistics.mean(sizes):,.0f} | {statistics.median(times):.1f} | {cpu:.2f} |")
PY
  done
done
