/// <reference types="vitest/config" />
// Vite builds the app into dist/, which the server embeds; Vitest runs the unit tests.
import { createHash } from 'node:crypto'
import { fileURLToPath } from 'node:url'
import tailwindcss from '@tailwindcss/vite'
import react from '@vitejs/plugin-react'
import { defineConfig, type Plugin } from 'vite'
import { VitePWA } from 'vite-plugin-pwa'

import { firstFrameScript } from './src/lib/first-frame.ts'

// `vite` (dev) forwards /api to a running `voicemark serve`; change it with VOICEMARK_API.
const apiTarget = process.env.VOICEMARK_API ?? 'http://127.0.0.1:3000'

/**
 * The first frame (src/lib/first-frame.ts): its script, inline in `index.html` before the
 * app's root, so the frame is drawn as the page is read with no request of its own. The
 * Content-Security-Policy allows no inline script but this one: its hash goes to
 * `inline-scripts.json`, which the server adds to `script-src` (http/security_headers.rs).
 */
function firstFrame(): Plugin {
  const source = firstFrameScript()
  const hash = `'sha256-${createHash('sha256').update(source).digest('base64')}'`
  return {
    name: 'voicemark-first-frame',
    apply: 'build',
    buildStart() {
      this.emitFile({ type: 'asset', fileName: 'inline-scripts.json', source: `${JSON.stringify([hash])}\n` })
    },
    transformIndexHtml(html) {
      const root = '<div id="root"></div>'
      if (!html.includes(root)) throw new Error('index.html has no <div id="root"></div>')
      return html.replace(root, `<div id="first-frame" aria-hidden="true"></div>\n    <script>${source}</script>\n    ${root}`)
    },
  }
}

export default defineConfig({
  plugins: [
    react(),
    tailwindcss(),
    firstFrame(),
    // The installable app: a web app manifest and our service worker (src/sw.ts), which
    // precaches the shell and the wasm cores so the app opens with no network. Registered
    // by lib/pwa.ts, which asks before a new version takes over (docs/offline.md).
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'src',
      filename: 'sw.ts',
      injectRegister: false,
      registerType: 'prompt',
      manifest: {
        name: 'Voicemark',
        short_name: 'Voicemark',
        description: 'Voice, photo and written feedback for schools and businesses.',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        theme_color: '#4338ca',
        background_color: '#ffffff',
        icons: [
          { src: '/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      injectManifest: {
        globPatterns: ['**/*.{js,css,html,wasm,svg,png,webmanifest}'],
        // The wasm cores are a few megabytes.
        maximumFileSizeToCacheInBytes: 10 * 1024 * 1024,
      },
    }),
  ],
  // Logo, favicon and other static files live in the repository's public/ folder, which
  // the server also serves at the root; Vite copies them into dist/ for dev and preview.
  publicDir: fileURLToPath(new URL('../public', import.meta.url)),
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  // The wasm core is loaded by `init({ module_or_path })` from a `?url` import inside a
  // module worker: no wasm plugin needed (see shared/reference/web-pipeline.md).
  worker: { format: 'es' },
  build: {
    target: 'es2022',
    outDir: 'dist',
    emptyOutDir: true,
  },
  server: {
    proxy: { '/api': apiTarget },
  },
  test: {
    environment: 'node',
    include: ['src/**/*.test.{ts,tsx}'],
    reporters: ['default', 'json'],
    outputFile: { json: './test-results/vitest.json' },
  },
})
