#!/usr/bin/env bash
# Browser benchmarks in headless Chromium (playwright/bench.config.ts):
#   bench/browser.sh photo       photo preparation: ours vs native vs browser-image-compression
#   bench/browser.sh dictation   15 minutes of dictation: stop-to-WAV time and peak memory
#   bench/browser.sh all         both (the default)
# Builds the wasm core (scripts/build-web.sh, skipped when up to date) and the benchmark
# pages (app/vite.bench.config.ts -> app/dist-bench), then runs the chosen benchmark.
# Extra arguments go to Playwright. Not part of scripts/test.sh: it prints figures.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

which="${1:-all}"
[[ $# -gt 0 ]] && shift
case "$which" in
  photo) grep=(--grep photo) ;;
  dictation) grep=(--grep dictation) ;;
  all) grep=() ;;
  *) echo "usage: bench/browser.sh [photo|dictation|all] [playwright args...]" >&2; exit 2 ;;
esac

bash "$root/scripts/build-web.sh"
echo "[bench] building the benchmark pages (app/dist-bench)" >&2
(cd "$root/app" && npx tsc -p bench/tsconfig.json --noEmit && npx vite build --config vite.bench.config.ts --logLevel warn)

cd "$root/playwright"
npx playwright test -c bench.config.ts "${grep[@]}" "$@"
