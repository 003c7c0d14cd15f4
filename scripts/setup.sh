#!/usr/bin/env bash
# Installs what building and running Voicemark needs, idempotently: a no-op in about a
# second when everything is present. With --test, also what the tests need: Chromium for
# Playwright and a running PostgreSQL server.
#
# Assumes a Debian machine with Rust (rustup) and Node.js 20.19+ with npm; runs apt-get
# as root when a system package is missing.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

log() { printf '[setup] %s\n' "$*" >&2; }
want_test=0
[[ "${1:-}" == "--test" ]] && want_test=1

apt_updated=0
apt_install() {
  if [[ $apt_updated == 0 ]]; then
    log "apt-get update"
    apt-get update -qq
    apt_updated=1
  fi
  log "apt-get install $*"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

command -v cargo >/dev/null || { log "cargo not found: install Rust with rustup first"; exit 1; }
command -v npm >/dev/null || { log "npm not found: install Node.js 20.19 or newer first"; exit 1; }

# The wasm target and a wasm-bindgen CLI of exactly the crate's version (they must match).
if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
  log "rustup target add wasm32-unknown-unknown"
  rustup target add wasm32-unknown-unknown
fi
bindgen_version="$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)"
if [[ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" != "$bindgen_version" ]]; then
  # Not --locked: its lock file pins a crate version the registry does not serve.
  log "cargo install wasm-bindgen-cli $bindgen_version (a few minutes, once)"
  cargo install wasm-bindgen-cli --version "$bindgen_version" --quiet
fi

if [[ $want_test == 1 ]]; then
  if [[ ! -x /usr/bin/chromium ]]; then
    apt_install chromium
  fi
  # The sqlite3 shell: some end-to-end tests set a school's state directly in their own
  # server's database file.
  if ! command -v sqlite3 >/dev/null; then
    apt_install sqlite3
  fi
  # PostgreSQL for the tests: start the local cluster, or install one.
  if ! command -v pg_ctlcluster >/dev/null; then
    apt_install postgresql
  fi
  if ! pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; then
    version="$(ls /etc/postgresql | sort -V | tail -n 1)"
    log "starting PostgreSQL $version"
    pg_ctlcluster --skip-systemctl-redirect "$version" main start || pg_ctlcluster "$version" main start
    for _ in $(seq 1 50); do pg_isready -q -h 127.0.0.1 -p 5432 && break; sleep 0.2; done
  fi
  # moto, an S3-compatible server, and botocore for the S3 storage tests (storage_s3.rs).
  if ! python3 -c 'import moto.server, botocore' >/dev/null 2>&1; then
    command -v python3 >/dev/null || apt_install python3 python3-pip
    log "pip install moto[server]"
    python3 -m pip install --quiet 'moto[server]' 2>/dev/null \
      || python3 -m pip install --quiet --break-system-packages 'moto[server]'
  fi
fi
log "ready"
