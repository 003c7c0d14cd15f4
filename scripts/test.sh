#!/usr/bin/env bash
# Runs every test: Rust (core-wasm natively, the server's unit and integration tests on
# SQLite and PostgreSQL), the front end's unit tests (Vitest), the real @trpc/client
# against the server, and Playwright end to end against the server. Ends with one line: "N passed, N failed".
# One build serves every suite: `cargo test` builds target/debug/voicemark beside the tests,
# and the interop and Playwright suites run that binary (no second, release build).
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

bash scripts/setup.sh --test || exit 1
bash scripts/build-web.sh || exit 1

# PostgreSQL for the Rust tests: trust auth where the machine has it (this one does); on a
# cluster that setup.sh has just installed, give the postgres user a password instead.
if [[ -z "${TEST_DATABASE_URL:-}" ]]; then
  TEST_DATABASE_URL="postgres://postgres@127.0.0.1:5432/postgres"
  if ! psql "$TEST_DATABASE_URL" -qtAc 'SELECT 1' >/dev/null 2>&1; then
    su postgres -c "psql -qc \"ALTER USER postgres PASSWORD 'voicemark'\"" >/dev/null
    TEST_DATABASE_URL="postgres://postgres:voicemark@127.0.0.1:5432/postgres"
  fi
fi
export TEST_DATABASE_URL
mkdir -p target/test-logs
passed=0
failed=0
status=0

# Rust: sum every "test result:" line (unit tests, the integration binary, doc tests).
cargo test --workspace 2>&1 | tee target/test-logs/cargo.log
[[ ${PIPESTATUS[0]} == 0 ]] || status=1
read -r p f < <(awk '/^test result:/ { for (i = 1; i <= NF; i++) { if ($(i+1) ~ /^passed/) p += $i; if ($(i+1) ~ /^failed/) f += $i } } END { print p + 0, f + 0 }' target/test-logs/cargo.log)
passed=$((passed + p)); failed=$((failed + f))

# Front-end unit tests.
rm -f app/test-results/vitest.json
(cd app && npm test --silent) || status=1
if [[ -f app/test-results/vitest.json ]]; then
  read -r p f < <(node -e 'const r = require("./app/test-results/vitest.json"); console.log(r.numPassedTests, r.numFailedTests)')
  passed=$((passed + p)); failed=$((failed + f))
else
  echo "vitest wrote no report" >&2; failed=$((failed + 1))
fi

# The server binary `cargo test` built, for the suites below.
export VOICEMARK_BIN="$root/target/debug/voicemark"
[[ -x "$VOICEMARK_BIN" ]] || cargo build --bin voicemark || exit 1

# The real @trpc/client (httpBatchLink + superjson) against the server.
(cd playwright && node --test --test-reporter=tap interop/*.test.mjs) 2>&1 | tee target/test-logs/interop.log
[[ ${PIPESTATUS[0]} == 0 ]] || status=1
read -r p f < <(awk '/^# pass / { p = $3 } /^# fail / { f = $3 } END { print p + 0, f + 0 }' target/test-logs/interop.log)
passed=$((passed + p)); failed=$((failed + f))
grep -q '^# pass ' target/test-logs/interop.log || { echo "the interop test printed no summary" >&2; failed=$((failed + 1)); }

# End to end in headless Chromium against the same binary.
bash playwright/run.sh || status=1
if [[ -f playwright/test-results/results.json ]]; then
  read -r p f < <(node -e 'const s = require("./playwright/test-results/results.json").stats ?? {}; console.log((s.expected ?? 0) + (s.flaky ?? 0), s.unexpected ?? 0)')
  passed=$((passed + p)); failed=$((failed + f))
else
  echo "playwright wrote no report" >&2; failed=$((failed + 1))
fi

[[ $failed == 0 ]] || status=1
echo "$passed passed, $failed failed"
exit "$status"
