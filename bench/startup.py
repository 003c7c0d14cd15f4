#!/usr/bin/env python3
"""Time from `voicemark serve` to a healthy /api/health, with migrations applied.

Two cases, each the median of --runs runs on the release binary:
  fresh     an empty data folder (SQLite file created, every migration applied at start-up)
  migrated  the same folder again (nothing left to apply)
With --postgres URL, the same for a fresh PostgreSQL database each run.

Usage: python3 bench/startup.py [--bin target/release/voicemark] [--runs 10] [--postgres URL]
"""
import argparse
import http.client
import os
import socket
import statistics
import subprocess
import tempfile
import time
import uuid


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def time_to_healthy(binary, env):
    port = free_port()
    started = time.perf_counter()
    proc = subprocess.Popen([binary, "serve", "--bind", f"127.0.0.1:{port}"], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        while True:
            try:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=1)
                conn.request("GET", "/api/health")
                if conn.getresponse().status == 200:
                    return (time.perf_counter() - started) * 1000
            except OSError:
                pass
            if time.perf_counter() - started > 20:
                raise RuntimeError("server did not become healthy in 20 s")
            time.sleep(0.001)
    finally:
        proc.terminate()
        proc.wait()


def psql(admin_url, sql):
    subprocess.run(["psql", admin_url, "-qtAc", sql], check=True, stdout=subprocess.DEVNULL)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", default="target/release/voicemark")
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--postgres")
    args = parser.parse_args()
    base = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    base["RUST_LOG"] = "warn"

    fresh, migrated = [], []
    for _ in range(args.runs):
        with tempfile.TemporaryDirectory(prefix="voicemark-bench-") as data:
            env = dict(base, VOICEMARK_DATA_DIR=data)
            fresh.append(time_to_healthy(args.bin, env))
            migrated.append(time_to_healthy(args.bin, env))
    print(f"sqlite   fresh (migrations applied): median {statistics.median(fresh):.1f} ms, max {max(fresh):.1f} ms")
    print(f"sqlite   already migrated:           median {statistics.median(migrated):.1f} ms, max {max(migrated):.1f} ms")

    if args.postgres:
        fresh, migrated = [], []
        for _ in range(args.runs):
            name = "vm_bench_" + uuid.uuid4().hex
            psql(args.postgres, f"CREATE DATABASE {name}")
            try:
                url = args.postgres.rsplit("/", 1)[0] + "/" + name
                with tempfile.TemporaryDirectory(prefix="voicemark-bench-") as data:
                    env = dict(base, VOICEMARK_DATA_DIR=data, DATABASE_URL=url)
                    fresh.append(time_to_healthy(args.bin, env))
                    migrated.append(time_to_healthy(args.bin, env))
            finally:
                psql(args.postgres, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        print(f"postgres fresh (migrations applied): median {statistics.median(fresh):.1f} ms, max {max(fresh):.1f} ms")
        print(f"postgres already migrated:           median {statistics.median(migrated):.1f} ms, max {max(migrated):.1f} ms")


if __name__ == "__main__":
    main()
