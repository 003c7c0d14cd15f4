// Starts and stops a `voicemark serve` for the interop tests: a fresh data folder (SQLite),
// a free loopback port, optionally the demo seed, and extra settings.
//
// Uses ../target/debug/voicemark unless VOICEMARK_BIN names another binary.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const binary = process.env.VOICEMARK_BIN ?? resolve(here, '../../target/debug/voicemark');

/** A port nobody listens on right now. */
function freePort() {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolvePort(port));
    });
  });
}

/**
 * Serves a new Voicemark and waits until /api/health answers. Returns `{ baseUrl, stop }`;
 * `stop()` ends it with SIGTERM and removes its data folder.
 */
export async function startVoicemark({ seedDemo = false, env: extra = {} } = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'voicemark-interop-'));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const env = {
    ...process.env,
    VOICEMARK_DATA_DIR: dataDir,
    VOICEMARK_BIND: `127.0.0.1:${port}`,
    VOICEMARK_PUBLIC_URL: baseUrl,
    DATABASE_URL: '',
    ...extra,
  };
  if (seedDemo) {
    const seed = spawnSync(binary, ['seed', '--demo'], { env, encoding: 'utf8' });
    if (seed.status !== 0) throw new Error(`voicemark seed --demo: ${seed.stderr}`);
  }
  let output = '';
  const server = spawn(binary, ['serve'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  server.stdout.on('data', (d) => (output += d));
  server.stderr.on('data', (d) => (output += d));

  const stop = async () => {
    if (server.exitCode === null) {
      const exited = new Promise((r) => server.once('exit', r));
      server.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  };

  const deadline = Date.now() + 30_000;
  for (;;) {
    if (server.exitCode !== null) {
      await stop();
      throw new Error(`voicemark exited (${server.exitCode}):\n${output}`);
    }
    try {
      const res = await fetch(`${baseUrl}/api/health`);
      if (res.ok) return { baseUrl, stop };
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`voicemark did not become healthy:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
