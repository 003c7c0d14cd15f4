#!/usr/bin/env bash
# Lighthouse mobile (default simulated throttling) on the first screens, issue 27 item 6:
# /login signed out; /, /feedback, /notifications and /leaders/tasks signed in as the demo
# admin of Northbridge Academy (a leader, so every one of them opens). Each route gets a
# first visit (Lighthouse's storage reset: HTTP cache and site storage cleared, cookies
# kept) and a repeat visit (loaded once, then measured with disableStorageReset).
# Prints route, first LCP, first score, repeat LCP, repeat score; the JSON reports go to
# bench/lighthouse/reports/ (git-ignored). Not part of scripts/test.sh: it prints figures.
#
# Needs /usr/bin/chromium (or CHROMIUM=...) and a server binary that serves the app to
# measure: VOICEMARK_BIN (default target/release/voicemark, else target/debug/voicemark;
# a debug build reads the app/dist of the checkout it was built in, a release build
# carries it inside). Build the app first: bash scripts/build-web.sh.
# Environment: RUNS (default 1; with more, each figure is the run with the median LCP),
# ROUTES (comma-separated), EMAIL (the signed-in user), CPU_SLOWDOWN (default Lighthouse's
# 4; 1 to see the network's share alone on a busy machine: a diagnosis, not the figure).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
here="$root/bench/lighthouse"

bin="${VOICEMARK_BIN:-}"
if [[ -z "$bin" ]]; then
  bin="$root/target/release/voicemark"
  [[ -x "$bin" ]] || bin="$root/target/debug/voicemark"
fi
[[ -x "$bin" ]] || { echo "no server binary at $bin: cargo build -p voicemark-server" >&2; exit 1; }

# The Lighthouse project's own dependencies, installed when missing or older than the lock.
if [[ ! -d "$here/node_modules" || "$here/package-lock.json" -nt "$here/node_modules" ]]; then
  echo "[lighthouse] npm ci in bench/lighthouse" >&2
  (cd "$here" && npm ci --no-audit --no-fund >&2 && touch node_modules)
fi

work="$(mktemp -d)"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
# shellcheck source=server.sh
source "$root/bench/server.sh"

port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
echo "[lighthouse] $bin on 127.0.0.1:$port (SQLite, demo data)" >&2
start "sqlite://$work/lighthouse.db" "$port"

cd "$here"
node run.mjs --base "http://127.0.0.1:$port" --out "$here/reports" --runs "${RUNS:-1}" \
  ${ROUTES:+--routes "$ROUTES"} ${EMAIL:+--email "$EMAIL"} ${CPU_SLOWDOWN:+--cpu-slowdown "$CPU_SLOWDOWN"}
