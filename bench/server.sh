# Shared by the HTTP benchmarks (sourced, not run): start a seeded release server on a
# database and sign a demo user in. The caller sets `bin`, `work` and `pids`.

wait_healthy() {
  for _ in $(seq 1 200); do curl -sf "$1/api/health" >/dev/null && return 0; sleep 0.05; done
  echo "server at $1 never became healthy" >&2; return 1
}

start() { # DATABASE_URL port
  local data="$work/data-$2"
  mkdir -p "$data"
  DATABASE_URL="$1" VOICEMARK_DATA_DIR="$data" RUST_LOG=warn "$bin" seed --demo >/dev/null
  DATABASE_URL="$1" VOICEMARK_DATA_DIR="$data" VOICEMARK_JOB_WORKERS=0 RUST_LOG=error \
    "$bin" serve --bind "127.0.0.1:$2" >"$work/serve-$2.log" 2>&1 &
  pids+=($!)
  wait_healthy "http://127.0.0.1:$2"
}

serve() { # DATABASE_URL port [NAME=value…]: one more server on a database already seeded
  local url="$1" port="$2"
  shift 2
  mkdir -p "$work/data-$port"
  env DATABASE_URL="$url" VOICEMARK_DATA_DIR="$work/data-$port" VOICEMARK_JOB_WORKERS=0 RUST_LOG=error "$@" \
    "$bin" serve --bind "127.0.0.1:$port" >"$work/serve-$port.log" 2>&1 &
  pids+=($!)
  wait_healthy "http://127.0.0.1:$port"
}

sign_in() { # port email -> session cookie value
  local base="http://127.0.0.1:$1" jar="$work/jar-$1" csrf
  csrf=$(curl -sf -c "$jar" -b "$jar" "$base/api/auth/csrf" | python3 -c 'import json, sys; print(json.load(sys.stdin)["csrfToken"])')
  curl -sf -c "$jar" -b "$jar" "$base/api/auth/callback/credentials" \
    --data-urlencode "email=$2" --data-urlencode password=Voicemark1 \
    --data-urlencode "csrfToken=$csrf" --data-urlencode callbackUrl=/ --data-urlencode json=true >/dev/null
  awk '$6 == "next-auth.session-token" { print $7 }' "$jar"
}
