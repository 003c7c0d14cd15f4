#!/usr/bin/env bash
# Runs Voicemark on its embedded defaults (SQLite, local file store, file outbox) at
# http://127.0.0.1:3000: installs what is missing, builds, migrates, seeds the demo
# organisation into an empty database (printing its sign-in accounts), and serves.
# Settings come from the environment (see the README's table).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

bash scripts/setup.sh
bash scripts/build-web.sh
cargo build --release --bin voicemark
./target/release/voicemark seed --demo
exec ./target/release/voicemark serve "$@"
