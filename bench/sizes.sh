#!/usr/bin/env bash
# Sizes of what the browser downloads first: the initial JavaScript (index-*.js, the
# modules it preloads and the CSS) and the wasm core, raw and gzipped (-9). Run after
# scripts/build-web.sh.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../app/dist"
report() { printf '%-48s %9d B raw %9d B gzip\n' "$1" "$(wc -c <"$1")" "$(gzip -9c "$1" | wc -c)"; }
initial=$(grep -oE '(src|href)="/assets/[^"]+\.(js|css)"' index.html | sed -E 's/.*"\/(assets\/[^"]+)"/\1/')
total_raw=0; total_gz=0
for f in $initial; do
  report "$f"
  total_raw=$((total_raw + $(wc -c <"$f"))); total_gz=$((total_gz + $(gzip -9c "$f" | wc -c)))
done
printf '%-48s %9d B raw %9d B gzip\n' "initial JS + CSS, total" "$total_raw" "$total_gz"
for f in assets/*.wasm; do report "$f"; done
