#!/usr/bin/env bash
# The Feedback Hub's statements for one school, before and after stop 38 (docs/scaling.md
# "What needs code"): the old single joins (pupils joined and wide rows sorted) against the
# new top-rows-first statements, each run 3 times with EXPLAIN ANALYZE; prints the execution
# times. Both sets run over the same indexes (those of the current migrations).
#
# Usage: bash bench/hub-lists.sh [DATABASE_URL] [school id]
#        default: the 100-school bench database of
#        `SCHOOLS=100 DB_NAME=vm_h100 bash bench/thousand.sh postgres`, school bs-0038
set -euo pipefail
url="${1:-postgres://postgres@127.0.0.1:5432/vm_h100}"
school="${2:-bs-0038}"
where="n.school_id = '$school' AND s.received_at IS NOT NULL"
old=(
  "waiting list|SELECT s.id, s.received_at, s.content, s.token, p.id, p.forename, p.surname, n.id, n.title, n.submission_due_date FROM submissions s JOIN notifications n ON n.id = s.notification_id JOIN students p ON p.id = s.student_id WHERE $where AND s.marked_at IS NULL ORDER BY s.received_at, s.id LIMIT 500"
  "Marked list|SELECT s.id, s.received_at, s.content, s.token, p.id, p.forename, p.surname, n.id, n.title, n.submission_due_date, s.marked_at, s.feedback, s.feedback_sentiment, s.feedback_released_at, n.feedback_release, n.feedback_release_at FROM submissions s JOIN notifications n ON n.id = s.notification_id JOIN students p ON p.id = s.student_id WHERE $where AND s.marked_at IS NOT NULL ORDER BY s.marked_at DESC, s.id DESC LIMIT 200"
  "marked count|SELECT count(*) FROM submissions s JOIN notifications n ON n.id = s.notification_id JOIN students p ON p.id = s.student_id WHERE $where AND s.marked_at IS NOT NULL"
)
new=(
  "waiting list|SELECT s.id, s.received_at, s.student_id, n.id, n.title, n.submission_due_date FROM submissions s JOIN notifications n ON n.id = s.notification_id WHERE $where AND s.marked_at IS NULL ORDER BY s.received_at, s.id LIMIT 500"
  "Marked list|SELECT s.id, s.received_at, s.marked_at, s.student_id, n.id, n.title, n.submission_due_date, n.feedback_release, n.feedback_release_at FROM submissions s JOIN notifications n ON n.id = s.notification_id WHERE $where AND s.marked_at IS NOT NULL ORDER BY s.marked_at DESC, s.id DESC LIMIT 200"
  "marked count|SELECT count(*) FROM submissions s JOIN notifications n ON n.id = s.notification_id WHERE $where AND s.marked_at IS NOT NULL"
)
run() {
  local label="$1"; shift
  for entry in "$@"; do
    local name="${entry%%|*}" sql="${entry#*|}" times=()
    for _ in 1 2 3; do
      times+=("$(psql "$url" -qtAc "EXPLAIN (ANALYZE) $sql" | sed -n 's/^Execution Time: \(.*\) ms$/\1/p')")
    done
    printf '%-6s %-13s %s ms\n' "$label" "$name" "${times[*]}"
  done
}
echo "school $school on $url (execution times of 3 runs each)"
run before "${old[@]}"
run after "${new[@]}"
