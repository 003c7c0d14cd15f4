/// <reference types="vitest/config" />
// Vite builds the app into dist/, which the server embeds; Vitest runs the unit tests.
import { fileURLToPath } from 'node:url'
import tailwindcss from '@tailwindcss/vite'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

// `vite` (dev) forwards /api to a running `voicemark serve`; change it with VOICEMARK_API.
const apiTarget = process.env.VOICEMARK_API ?? 'http://127.0.0.1:3000'

export default defineConfig({
  plugins: [react(), tailwindcss()],
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
