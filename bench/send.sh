#!/usr/bin/env bash
# Figures for issue 4 (printed, not asserted): the time to write receipts, submissions and
# queue the e-mail for an assignment to 2,000 pupils with parents, on SQLite and on
# PostgreSQL, and the delivery rate of the job workers (16 workers in the measurement) to a loopback SMTP
# server over those 4,000 messages. Debug build, like every test here.
#
#   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres bash bench/send.sh
set -euo pipefail
cd "$(dirname "$0")/.."
export TEST_DATABASE_URL="${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
cargo test -p voicemark-server --test it -- --ignored --nocapture --test-threads=1 bench_send_2000 2>&1 \
  | grep -E '^FIGURE|test result'
