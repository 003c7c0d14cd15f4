#!/usr/bin/env bash
# Issue 29's Reach figure (printed, not asserted): `notification.reach` for a message to
# 2,000 pupils and their parents (4,000 deliveries, a third opened), through the whole
# router, p50 and p95 of 30 calls, on SQLite and PostgreSQL. Build profile: the test one
# (debug) unless CARGO_PROFILE says otherwise (`--release` gives the production figure).
#
#   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres bash bench/reach.sh [--release]
set -euo pipefail
cd "$(dirname "$0")/.."
export TEST_DATABASE_URL="${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
cargo test ${1:-} -p voicemark-server --test it -- --ignored --nocapture --test-threads=1 bench_reach_2000 2>&1 \
  | grep -E 'FIGURE|test result'
