#!/usr/bin/env bash
# Runs the end-to-end suite (npx playwright test) and exits with its status. Needs the
# server built with the app embedded: scripts/build-web.sh, then a cargo build. The binary is
# $VOICEMARK_BIN, by default target/release/voicemark; scripts/test.sh points it at the
# target/debug/voicemark that `cargo test` built. Arguments go to Playwright (e.g. a test
# file or --grep).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"

if [[ ! -d node_modules || package-lock.json -nt node_modules ]]; then
  npm ci --no-audit --no-fund
  touch node_modules
fi

rm -f test-results/results.json
status=0
npx playwright test "$@" || status=$?

# Playwright prints "N passed" and "N failed" on separate lines; add the one-line summary
# that CI logs are read for.
if [[ -f test-results/results.json ]]; then
  node -e '
    const s = require("./test-results/results.json").stats ?? {};
    const passed = (s.expected ?? 0) + (s.flaky ?? 0);
    console.log(`playwright: ${passed} passed, ${s.unexpected ?? 0} failed, ${s.skipped ?? 0} skipped`);
  ' || true
fi
exit "$status"
