#!/usr/bin/env bash
# Marking 30 submissions in the Feedback Hub, two ways, on fresh demo servers (issue 28):
#   mouse:    today's way: click the pupil, click the box, type the comment, click the
#             sentiment, click Mark;
#   keyboard: the keys and the comment bank: 2 (Positive), Enter, three letters of the
#             comment, Enter (insert it from the bank), Ctrl+Enter (mark and move on), Esc.
# Prints keystrokes, clicks, the seconds the browser took (no human pauses) and a human
# estimate with the keystroke-level model (0.28 s a keystroke, 1.1 s to point plus 0.2 s to
# click, 0.4 s to move a hand between mouse and keyboard). Not part of scripts/test.sh.
# VOICEMARK_BIN picks the server (default target/release/voicemark, else target/debug/voicemark).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$root/scripts/build-web.sh"
if [[ -z "${VOICEMARK_BIN:-}" ]]; then
  if [[ -x "$root/target/release/voicemark" ]]; then VOICEMARK_BIN="$root/target/release/voicemark"
  else (cd "$root" && cargo build -p voicemark-server); VOICEMARK_BIN="$root/target/debug/voicemark"; fi
fi
export VOICEMARK_BIN
cd "$root/playwright"
npx playwright test -c marking.bench.config.ts "$@"
