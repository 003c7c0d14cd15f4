#!/usr/bin/env bash
# Issue 30, item 4: proven behind a real load balancer. Starts HAProxy (the distribution's
# package, installed when absent) in front of three `voicemark serve` processes on one
# PostgreSQL database, with moto as the S3 store and a recording SMTP sink (bench/lb-smtp.mjs),
# drives a school day at the rate of SCHOOLS schools through it for DURATION seconds
# (bench/lb-day.mjs says what that rate is), SIGKILLs one process at KILL_AT seconds and
# starts it again RESTART_AFTER seconds later. Then checks, from the database, the store and
# the sink's record, that nothing was lost:
#   - every hand-in, mark and upload the servers accepted (2xx) is in the database (and each
#     upload's bytes in the store); every accepted send wrote its pupils' submissions;
#   - every job queued during the run finished (none FAILED, none left), and every e-mail
#     job reached the sink: at least once, and more than once only for a job the killed
#     process was running when it died (docs/jobs-and-mail.md, "Exactly once": at most one
#     copy per worker busy at the crash);
# and prints the table per request, the kill and restart times, what HAProxy did (its
# health-check log) and the errors inside the kill window. Exits 1 when anything was lost.
#
# The data: bench/thousand.sh's schools (SCHOOLS, default 200) in their own database
# (DB_NAME, default vm_lb), made first unless REUSE_DB=1 and it exists; dropped at the end
# unless KEEP_DB=1. For the run the script adds: a session for staff 0-19 of every school
# (token bench-<user id>, as bench/thousand-load.sh does), and the password BENCH_PASSWORD for
# staff 20-99 (one argon2 hash made by `voicemark user add`, copied), who sign in for real.
#
# The servers: each with 2 job workers (VOICEMARK_JOB_WORKERS), the default pool of 8, one
# shared VOICEMARK_SECRET (a CSRF cookie or link signed by one is checked by another), and a
# job lease of LEASE seconds (default 30 instead of 300, so that the killed process's jobs are
# taken up again inside the run; the checks wait for the queue to drain).
#
# Needs psql, node 20, python3 with moto (scripts/setup.sh --test), curl, and a voicemark
# binary (VOICEMARK_BIN; default target/release/voicemark, else target/debug/voicemark).
# Usage: bash bench/lb.sh                 # DURATION=300 KILL_AT=120 RESTART_AFTER=15 SCHOOLS=200
#        REUSE_DB=1 KEEP_DB=1 bash bench/lb.sh    # again on the data of the last run (no 8-minute fill)
#        RATE=0.5 bash bench/lb.sh        # half the work on the same data (lb-day.mjs)
#        DURATION=60 KILL_AT=25 SCHOOLS=20 bash bench/lb.sh    # a quick look
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin="${VOICEMARK_BIN:-}"
if [[ -z "$bin" ]]; then
  bin="$root/target/release/voicemark"
  [[ -x "$bin" ]] || bin="$root/target/debug/voicemark"
fi
[[ -x "$bin" ]] || { echo "no voicemark binary: cargo build --release --bin voicemark (or set VOICEMARK_BIN)" >&2; exit 1; }
schools="${SCHOOLS:-200}"
duration="${DURATION:-300}"
kill_at="${KILL_AT:-120}"
restart_after="${RESTART_AFTER:-15}"
lease="${LEASE:-30}"
workers="${JOB_WORKERS:-2}"
# How long HAProxy waits for /api/ready. Unset, HAProxy waits `inter` (1 s), and at saturation
# every server missed that in turn: docs/load-balancer.md, run 1.
check_timeout="${CHECK_TIMEOUT:-5s}"
name="${DB_NAME:-vm_lb}"
admin_url="${ADMIN_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
db_url="${admin_url%/*}/$name"
password="${BENCH_PASSWORD:-Lb-bench-password-1}"
lb_port="${LB_PORT:-4890}"
ports=(4891 4892 4893)
smtp_port="${SMTP_PORT:-4894}"
moto_port="${MOTO_PORT:-4895}"
public_url="http://127.0.0.1:$lb_port"
work="$(mktemp -d /tmp/lb.XXXXXX)"
now_ms() { date +%s%3N; }
say() { echo "[$(date +%H:%M:%S)] $*"; }

declare -A server_pids=()
other_pids=()
cleanup() {
  for p in "${server_pids[@]}" "${other_pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  if [[ "${KEEP_DB:-0}" != 1 ]]; then
    psql "$admin_url" -qtAc "DROP DATABASE IF EXISTS $name WITH (FORCE)" >/dev/null 2>&1 || true
  else
    echo "database kept: $db_url"
  fi
  [[ "${KEEP_WORK:-0}" == 1 ]] && echo "work folder kept: $work" || rm -rf "$work"
}
trap cleanup EXIT

# ---- the parts: HAProxy (installed once), moto, the SMTP sink ----
if ! command -v haproxy >/dev/null; then
  say "installing haproxy (apt-get)"
  sudo_=""; [[ $(id -u) == 0 ]] || sudo_="sudo"
  $sudo_ apt-get install -y haproxy >/dev/null 2>&1 || { $sudo_ apt-get update >/dev/null && $sudo_ apt-get install -y haproxy >/dev/null; }
fi
python3 -c "import moto.server" 2>/dev/null || { echo "moto is not installed: bash scripts/setup.sh --test" >&2; exit 1; }
say "$(haproxy -v | head -1 | cut -d' ' -f1-3), node $(node --version), $(nproc) cores; work folder $work"

# ---- the data ----
if [[ "${REUSE_DB:-0}" == 1 ]] && psql "$db_url" -qtAc "SELECT 1" >/dev/null 2>&1; then
  say "reusing $db_url"
else
  psql "$admin_url" -qtAc "DROP DATABASE IF EXISTS $name WITH (FORCE)" >/dev/null
  say "making $schools schools in $name (bench/thousand.sh)"
  SCHOOLS="$schools" DB_NAME="$name" VOICEMARK_BIN="$bin" nice -n 10 bash "$root/bench/thousand.sh" postgres "$admin_url" |
    grep -E "^(total|data|  submissions|  users|  students)" || true
fi
# One argon2 hash of the password, made by the server's own code, copied to staff 20-99.
DATABASE_URL="$db_url" RUST_LOG=error "$bin" user add --email lb-hash@lb.bench.test --password "$password" \
  --role TEACHER --school "LB password source" >"$work/user-add.log" 2>&1 || true
psql "$db_url" -qtA -v ON_ERROR_STOP=1 >/dev/null <<SQL
UPDATE users SET password = (SELECT password FROM users WHERE email = 'lb-hash@lb.bench.test')
WHERE id LIKE 'bu-%' AND substr(id, 9)::int >= 20;
INSERT INTO sessions (token_hash, user_id, created_at, expires_at, last_seen_at)
SELECT encode(sha256(convert_to('bench-' || id, 'UTF8')), 'hex'), id, now()::timestamp,
       now()::timestamp + INTERVAL '30 days', now()::timestamp
FROM users WHERE id LIKE 'bu-%' AND substr(id, 9)::int < 20 ON CONFLICT (token_hash) DO NOTHING;
SQL
[[ $(psql "$db_url" -qtAc "SELECT count(*) FROM users WHERE id LIKE 'bu-%' AND password IS NOT NULL") -gt 0 ]] ||
  { echo "the password hash was not made (voicemark user add failed):" >&2; cat "$work/user-add.log" >&2; exit 1; }
# Staff 0-19 are signed in; 20-99 sign in with the password; the work to hand in and to mark
# lies on assignments of teachers 5-19 (assignment k is teacher 5 + k % 95's).
psql "$db_url" -qtA -F $'\t' -c "SELECT 'bench-' || id, id, substr(id, 4, 4)::int, substr(id, 9)::int FROM users
    WHERE id LIKE 'bu-%' AND substr(id, 9)::int < 20 ORDER BY id" >"$work/active.tsv"
psql "$db_url" -qtA -F $'\t' -c "SELECT email FROM users WHERE id LIKE 'bu-%' AND substr(id, 9)::int >= 20" >"$work/signin.tsv"
sample() { # condition -> submissions (id, token, notification, sender) on those assignments
  psql "$db_url" -qtA -F $'\t' -c "SELECT s.id, s.token, n.id, n.sender_id FROM submissions s JOIN notifications n ON n.id = s.notification_id
      WHERE n.id LIKE 'bn-%' AND substr(n.id, 9)::int % 95 < 15 AND $1 ORDER BY md5(s.id) LIMIT ${SAMPLE:-4000}"
}
sample "s.received_at IS NULL" >"$work/open.tsv"
sample "s.received_at IS NOT NULL AND s.marked_at IS NULL AND n.feedback_release = 'WHEN_MARKED'" >"$work/marksample.tsv"
say "signed in: $(wc -l <"$work/active.tsv") staff; $(wc -l <"$work/signin.tsv") may sign in; $(wc -l <"$work/open.tsv") links to hand in, $(wc -l <"$work/marksample.tsv") hand-ins to mark"

python3 -m moto.server -H 127.0.0.1 -p "$moto_port" >"$work/moto.log" 2>&1 &
other_pids+=($!)
node "$root/bench/lb-smtp.mjs" "$smtp_port" "$work/messages.tsv" >"$work/smtp.log" 2>&1 &
other_pids+=($!)
for _ in $(seq 1 100); do curl -sf "http://127.0.0.1:$moto_port/moto-api/" >/dev/null && break; sleep 0.1; done
curl -sf -X PUT "http://127.0.0.1:$moto_port/voicemark-lb" >/dev/null || { echo "moto did not start:"; tail "$work/moto.log"; exit 1; } >&2

# ---- three servers ----
secret="$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')"
start_server() { # n: starts server n (0-2) and records its pid
  local n=$1
  mkdir -p "$work/data$n"
  DATABASE_URL="$db_url" VOICEMARK_DATA_DIR="$work/data$n" VOICEMARK_SECRET="$secret" \
    VOICEMARK_PUBLIC_URL="$public_url" VOICEMARK_TRUST_PROXY=1 \
    VOICEMARK_STORAGE_URL="s3://lbkey:lbsecret@voicemark-lb?endpoint=http://127.0.0.1:$moto_port&region=us-east-1" \
    VOICEMARK_SMTP_URL="smtp://127.0.0.1:$smtp_port" VOICEMARK_JOB_WORKERS="$workers" \
    VOICEMARK_JOB_LEASE_SECONDS="$lease" RUST_LOG=warn \
    "$bin" serve --bind "127.0.0.1:${ports[$n]}" >>"$work/serve$n.log" 2>&1 &
  server_pids[$n]=$!
}
wait_ready() { # n: until server n answers /api/ready 200 (60 s at most)
  for _ in $(seq 1 600); do
    [[ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:${ports[$1]}/api/ready")" == 200 ]] && return 0
    kill -0 "${server_pids[$1]}" 2>/dev/null || break
    sleep 0.1
  done
  echo "server $1 never became ready:" >&2; tail "$work/serve$1.log" >&2; exit 1
}
for n in 0 1 2; do start_server "$n"; done
for n in 0 1 2; do wait_ready "$n"; done

cat >"$work/haproxy.cfg" <<CFG
global
    maxconn 4096
    log stdout format raw local0
defaults
    mode http
    log global
    option httplog
    option dontlog-normal
    option log-health-checks
    option forwardfor
    option redispatch
    retries 3
    timeout connect 2s
    timeout client 60s
    timeout server 60s
    timeout http-keep-alive 10s
frontend voicemark
    bind 127.0.0.1:$lb_port
    default_backend voicemark
backend voicemark
    balance roundrobin
    option httpchk GET /api/ready
    http-check expect status 200
    timeout check $check_timeout
    default-server inter 1s fall 2 rise 2
    server a 127.0.0.1:${ports[0]} check
    server b 127.0.0.1:${ports[1]} check
    server c 127.0.0.1:${ports[2]} check
CFG
haproxy -f "$work/haproxy.cfg" -db >"$work/haproxy.log" 2>&1 &
other_pids+=($!)
for _ in $(seq 1 50); do curl -sf "$public_url/api/ready" >/dev/null && break; sleep 0.1; done
sleep 2.5 # every server seen up by two checks
say "haproxy on $public_url -> ${ports[*]} (pids ${server_pids[*]})"

# ---- the day, with a kill ----
run_start=$(psql "$db_url" -qtAc "SELECT now()::timestamp")
psql "$db_url" -qtAc "SELECT pg_stat_reset()" >/dev/null
touch "$work/errors.tsv"
driver_start=$(now_ms)
SCHOOLS="$schools" DURATION="$duration" BENCH_PASSWORD="$password" node "$root/bench/lb-day.mjs" "$public_url" "$work" &
driver=$!
other_pids+=($driver)
sleep "$kill_at"
victim="${server_pids[1]}"
kill -9 "$victim"
killed_ms=$(now_ms)
say "SIGKILL to server b (pid $victim, port ${ports[1]})"
sleep 0.5
# The jobs the killed workers held: only these may be delivered twice.
psql "$db_url" -qtA -F $'\t' -c "SELECT id, kind FROM jobs WHERE status = 'RUNNING' AND locked_by LIKE '%:$victim:%'" >"$work/held-at-kill.tsv"
say "jobs the killed process was running: $(wc -l <"$work/held-at-kill.tsv") ($(cut -f2 "$work/held-at-kill.tsv" | sort | uniq -c | awk '{printf "%s %s ", $1, $2}'))"
sleep "$restart_after"
restart_ms=$(now_ms)
start_server 1
wait_ready 1
ready_ms=$(now_ms)
say "server b started again (pid ${server_pids[1]}), ready after $(( (ready_ms - restart_ms) )) ms"
wait "$driver" || { echo "the driver failed" >&2; exit 1; }
driver_end=$(now_ms)

# ---- drain: every job of the run finished or given up ----
# Pending: queued or running, and due now, or an e-mail's job whatever its time (a retry
# waiting out its backoff is not delivered yet). Digests wait for their hour (none is due in
# a run: 16:00 UTC), the expiry, sweep and Insights preparation jobs for theirs.
pending="status IN ('QUEUED', 'RUNNING') AND (run_at <= now()::timestamp
    OR kind NOT IN ('email.digest', 'files.expire', 'idempotency.sweep', 'feedback.release_held', 'insights.prepare'))"
say "waiting for the job queue to drain (at most $((lease * 2 + 120)) s)"
for _ in $(seq 1 $((lease * 2 + 120))); do
  left=$(psql "$db_url" -qtAc "SELECT count(*) FROM jobs WHERE created_at >= '$run_start' AND $pending")
  [[ "$left" == 0 ]] && break
  sleep 1
done
sleep 1 # the sink's last lines written
drained_ms=$(now_ms)
say "queue drained $(( (drained_ms - driver_end) / 1000 )) s after the driver stopped ($left due jobs left)"

# ---- what HAProxy did, and the errors of the kill window ----
echo
echo "kill at +$(( (killed_ms - driver_start) / 1000 )) s of the run; restarted $(( (restart_ms - killed_ms) / 1000 )) s after the kill, ready $(( (ready_ms - killed_ms) / 1000 )).$(( (ready_ms - killed_ms) % 1000 / 100 )) s after it"
grep -v '^\[' "$work/haproxy.log" >"$work/haproxy-log.txt" || true # its log lines, not the same as warnings on stderr
echo "HAProxy's health checks (its log): servers taken out (DOWN) and put back (UP), and times no server was left:"
for srv in a b c; do
  echo "  server $srv: $(grep -c "Server voicemark/$srv is DOWN" "$work/haproxy-log.txt" || true) DOWN, $(grep -c "Server voicemark/$srv is UP" "$work/haproxy-log.txt" || true) UP; failed checks: $(grep "Health check for server voicemark/$srv failed" "$work/haproxy-log.txt" | sed -E 's/.*reason: ([^,]*).*/\1/' | sort | uniq -c | awk '{ $1 = $1 "x"; print }' | paste -sd';' - || true)"
done
echo "  no server available: $(grep -c "has no server available" "$work/haproxy-log.txt" || true) times"
echo "  server b from its first refused connection (the kill) until it is UP again:"
awk '/voicemark\/b.*Connection refused/ && !d { d = 1 } d && /voicemark\/b/ && /Server|failed/ { print "    " substr($0, 1, 150) } d && /Server voicemark\/b is UP/ { exit }' "$work/haproxy-log.txt" || true
echo "requests HAProxy logged other than plain successes, by server, status, termination state and retries"
echo "(+1: its connection was refused and HAProxy sent it to another server):"
grep -E " voicemark/" "$work/haproxy-log.txt" | grep -vE "Health check|is DOWN|is UP" |
  awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^voicemark\//) { split($(i + 7), c, "/"); print $i, "status " $(i + 2), "state " $(i + 6), "retries " c[5] } }' |
  sort | uniq -c | sed 's/^/  /' || true
window_end=$((ready_ms + 5000))
echo "errors seen by the driver from 1 s before the kill to 5 s after the restarted server was ready ($(( (window_end - killed_ms + 1000) / 1000 )) s):"
in_window=$(awk -F'\t' -v a=$((killed_ms - 1000)) -v b=$window_end '$1 >= a && $1 <= b { print $2 " -> " $3 }' "$work/errors.tsv")
if [[ -n "$in_window" ]]; then sort <<<"$in_window" | uniq -c | sed 's/^/  /'; else echo "  none"; fi
echo "errors outside that window: $(awk -F'\t' -v a=$((killed_ms - 1000)) -v b=$window_end '$1 < a || $1 > b' "$work/errors.tsv" | wc -l)"

# ---- nothing lost ----
echo
echo "checks (database, store, sink):"
lost=0
check() { # label, count of failures, detail
  if [[ "$2" == 0 ]]; then echo "  ok    $1"; else echo "  LOST  $1: $2${3:+ ($3)}"; lost=1; fi
}
touch "$work"/accepted-{handins,marks,uploads,sends,signins}.tsv
# psql reads the files itself (\copy), so the tabs in them stay tabs.
q() { psql "$db_url" -qtA -F $'\t' -v ON_ERROR_STOP=1 "$@"; }
read -r handins handins_missing marks marks_missing uploads uploads_missing sends sends_missing < <(q <<SQL
CREATE TEMP TABLE h (id text, content text, source text);
CREATE TEMP TABLE m (id text, feedback text);
CREATE TEMP TABLE u (key text, size bigint, vid text);
CREATE TEMP TABLE s (id text, class_id text);
\copy h FROM '$work/accepted-handins.tsv'
\copy m FROM '$work/accepted-marks.tsv'
\copy u FROM '$work/accepted-uploads.tsv'
\copy s FROM '$work/accepted-sends.tsv'
SELECT (SELECT count(*) FROM h),
       (SELECT count(*) FROM h WHERE NOT EXISTS (SELECT 1 FROM submissions x WHERE x.id = h.id AND x.received_at IS NOT NULL AND x.content = h.content)),
       (SELECT count(*) FROM m),
       (SELECT count(*) FROM m WHERE NOT EXISTS (SELECT 1 FROM submissions x WHERE x.id = m.id AND x.marked_at IS NOT NULL AND x.feedback = m.feedback)),
       (SELECT count(*) FROM u),
       (SELECT count(*) FROM u WHERE NOT EXISTS (SELECT 1 FROM stored_files f WHERE f.key = u.key AND f.uploaded_at IS NOT NULL AND f.in_personal_folder AND f.kind = 'VOICE_NOTE')),
       (SELECT count(*) FROM s),
       (SELECT count(*) FROM s WHERE NOT EXISTS (SELECT 1 FROM notifications n WHERE n.id = s.id)
           OR (SELECT count(*) FROM submissions x WHERE x.notification_id = s.id)
              <> (SELECT count(*) FROM class_students c WHERE c.class_id = s.class_id));
SQL
)
check "$handins accepted hand-ins in submissions (received, with the text sent)" "$handins_missing"
check "$marks accepted marks in submissions (marked, with the feedback sent)" "$marks_missing"
check "$uploads accepted voice notes in stored_files (arrived, filed)" "$uploads_missing"
missing_objects=0
while IFS=$'\t' read -r key size _; do
  got=$(curl -s -o /dev/null -w '%{http_code} %{size_download}' --aws-sigv4 "aws:amz:us-east-1:s3" --user lbkey:lbsecret \
    "http://127.0.0.1:$moto_port/voicemark-lb/$key")
  [[ "$got" == "200 $size" ]] || missing_objects=$((missing_objects + 1))
done <"$work/accepted-uploads.tsv"
check "$uploads voice notes' bytes in the store (GET, same size)" "$missing_objects"
check "$sends accepted sends wrote a submission for each pupil of the class" "$sends_missing"

# Jobs of the run: every one finished; the e-mail ones each delivered.
cut -f2 "$work/messages.tsv" | sed 's/@voicemark$//' | sort | uniq -c | awk '{ print $2 "\t" $1 }' >"$work/delivered.tsv"
read -r jobs_total jobs_failed jobs_left mails mails_missing dup_ids dup_copies dup_unexplained strays < <(q <<SQL
CREATE TEMP TABLE d (id text, copies int);
CREATE TEMP TABLE k (id text, kind text);
\copy d FROM '$work/delivered.tsv'
\copy k FROM '$work/held-at-kill.tsv'
CREATE TEMP TABLE j AS SELECT id, kind, status, run_at, $pending AS pending FROM jobs WHERE created_at >= '$run_start';
SELECT (SELECT count(*) FROM j),
       (SELECT count(*) FROM j WHERE status = 'FAILED'),
       (SELECT count(*) FROM j WHERE pending),
       (SELECT count(*) FROM j WHERE kind LIKE 'email.%' AND status = 'DONE'),
       (SELECT count(*) FROM j WHERE kind LIKE 'email.%' AND status = 'DONE' AND NOT EXISTS (SELECT 1 FROM d WHERE d.id = j.id)),
       (SELECT count(*) FROM d WHERE copies > 1),
       (SELECT coalesce(sum(copies - 1), 0) FROM d WHERE copies > 1),
       (SELECT count(*) FROM d WHERE copies > 1 AND NOT EXISTS (SELECT 1 FROM k WHERE k.id = d.id)),
       (SELECT count(*) FROM d WHERE NOT EXISTS (SELECT 1 FROM jobs x WHERE x.id = d.id));
SQL
)
echo "  jobs of the run: $jobs_total ($(q -c "SELECT kind || ' ' || count(*) || CASE WHEN count(*) FILTER (WHERE status <> 'DONE') > 0 THEN ' (' || count(*) FILTER (WHERE status <> 'DONE') || ' not done)' ELSE '' END FROM jobs WHERE created_at >= '$run_start' GROUP BY kind ORDER BY kind" | paste -sd, - | sed 's/,/, /g'))"
check "jobs of the run FAILED" "$jobs_failed" "$(q -c "SELECT kind || ': ' || left(last_error, 120) FROM jobs WHERE created_at >= '$run_start' AND status = 'FAILED' LIMIT 3" | paste -sd';' -)"
check "jobs of the run still pending after the drain" "$jobs_left"
check "$mails e-mail jobs done, each in the sink (Message-ID <job id@voicemark>)" "$mails_missing"
echo "  $(wc -l <"$work/messages.tsv") messages in the sink; $dup_ids sent more than once ($dup_copies extra copies); the killed process held $(wc -l <"$work/held-at-kill.tsv") jobs, at most $workers e-mails in flight"
check "e-mails sent twice that the killed process was not running" "$dup_unexplained"
[[ "$dup_ids" -le "$workers" ]] || check "e-mails sent twice beyond one per killed worker ($workers)" "$((dup_ids - workers))"
check "messages in the sink with no job" "$strays"
echo
if [[ "$lost" == 0 ]]; then echo "nothing lost"; else echo "SOMETHING WAS LOST: see LOST above"; fi
exit "$lost"
