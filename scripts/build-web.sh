#!/usr/bin/env bash
# Builds the web front end: npm dependencies, the wasm core (Rust -> wasm-bindgen ->
# wasm-opt) into app/src/wasm/, then the app itself (tsc + vite) into app/dist/, which the
# server embeds at compile time. Runnable from any directory; each step is skipped when its
# output is up to date, so a second run takes a few seconds.
#
# Environment:
#   FORCE_WASM=1   rebuild the wasm core even when it looks up to date
#   FORCE_WEB=1    rebuild app/dist even when it looks up to date
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

log() { printf '[build-web] %s\n' "$*" >&2; }

# npm ci when node_modules is missing or older than package-lock.json.
install_node_modules() {
  local dir="$1"
  [[ -f "$dir/package.json" ]] || return 0
  if [[ ! -f "$dir/package-lock.json" ]]; then
    log "$dir: no package-lock.json, running npm install to create it"
    (cd "$dir" && npm install --no-audit --no-fund)
  elif [[ ! -d "$dir/node_modules" || "$dir/package-lock.json" -nt "$dir/node_modules" ]]; then
    log "$dir: npm ci"
    (cd "$dir" && npm ci --no-audit --no-fund)
    # npm ci leaves the folder's own time alone when it only rewrote its contents.
    touch "$dir/node_modules"
  else
    log "$dir: node_modules up to date"
  fi
}

install_node_modules app
install_node_modules playwright

# The wasm core. The outputs are staged under target/ and moved into app/src/wasm/ only
# when every step has succeeded, so a failed run never leaves a half-built module that
# looks up to date.
wasm_out="app/src/wasm"
wasm_stamp="$wasm_out/core_wasm_bg.wasm"
wasm_inputs=(core-wasm Cargo.lock Cargo.toml .cargo)

wasm_is_stale() {
  [[ "${FORCE_WASM:-}" == 1 ]] && return 0
  local f
  for f in core_wasm.js core_wasm.d.ts core_wasm_bg.wasm core_wasm_media.js core_wasm_media.d.ts core_wasm_media_bg.wasm; do
    [[ -f "$wasm_out/$f" ]] || return 0
  done
  local existing=()
  for f in "${wasm_inputs[@]}"; do
    [[ -e "$f" ]] && existing+=("$f")
  done
  [[ -n "$(find "${existing[@]}" -type f -newer "$wasm_stamp" -print -quit)" ]]
}

if wasm_is_stale; then
  command -v wasm-bindgen >/dev/null || {
    log "wasm-bindgen not found: cargo install wasm-bindgen-cli --version 0.2.130"
    exit 1
  }
  wasm_opt="app/node_modules/.bin/wasm-opt" # npm binaryen; Debian's wasm-opt corrupts the module
  [[ -x "$wasm_opt" ]] || { log "$wasm_opt missing (npm binaryen)"; exit 1; }

  # Two builds of the one crate: the rules alone (core_wasm, loaded by every page's core
  # worker) and the rules with the media code (core_wasm_media, loaded only by the photo and
  # dictation workers), so a page that never takes a photo never downloads the media code.
  staging="target/wasm-bindgen-out"
  rm -rf "$staging"
  build_module() { # $1 = output name, $2... = cargo feature flags
    local name="$1"
    shift
    log "cargo build -p core-wasm $* (wasm32, profile wasm) -> $name"
    cargo build -p core-wasm --target wasm32-unknown-unknown --profile wasm "$@"
    log "wasm-bindgen --target web ($name)"
    wasm-bindgen --target web --out-dir "$staging" --out-name "$name" \
      target/wasm32-unknown-unknown/wasm/core_wasm.wasm
    log "wasm-opt -Os ($name)"
    "$wasm_opt" -Os "$staging/${name}_bg.wasm" -o "$staging/${name}_bg.opt.wasm"
    mv "$staging/${name}_bg.opt.wasm" "$staging/${name}_bg.wasm"
  }
  build_module core_wasm --no-default-features
  build_module core_wasm_media --features media
  rm -rf "$wasm_out"
  mv "$staging" "$wasm_out"
  log "wasm core: $(wc -c <"$wasm_stamp") bytes; with media: $(wc -c <"$wasm_out/core_wasm_media_bg.wasm") bytes"
else
  log "wasm core up to date"
fi

# The app, unless app/dist is newer than everything it is built from.
dist_stamp="app/dist/index.html"
dist_inputs=(app/src app/index.html app/package-lock.json app/vite.config.ts app/tsconfig.json
  app/tsconfig.app.json app/tsconfig.node.json app/tsconfig.test.json public)
dist_is_stale() {
  [[ "${FORCE_WEB:-}" == 1 || ! -f "$dist_stamp" ]] && return 0
  local existing=() f
  for f in "${dist_inputs[@]}"; do
    [[ -e "$f" ]] && existing+=("$f")
  done
  [[ -n "$(find "${existing[@]}" -type f -newer "$dist_stamp" -print -quit)" ]]
}

if dist_is_stale; then
  log "npm run build (tsc + vite) -> app/dist"
  (cd app && npm run build --silent)
else
  log "app/dist up to date"
fi
