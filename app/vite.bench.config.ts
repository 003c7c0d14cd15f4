// Builds the benchmark pages (every bench/*.html) into dist-bench/, served by `vite preview`
// for playwright/bench.config.ts. Kept apart from vite.config.ts so no benchmark code, and
// none of its devDependencies (browser-image-compression), reaches the product bundle.
import fs from 'node:fs'
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'

const root = fileURLToPath(new URL('.', import.meta.url))
const pages = Object.fromEntries(
  fs
    .readdirSync(new URL('./bench', import.meta.url))
    .filter((name) => name.endsWith('.html'))
    .map((name) => [name.replace(/\.html$/, ''), fileURLToPath(new URL(`./bench/${name}`, import.meta.url))]),
)

export default defineConfig({
  root,
  publicDir: false,
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  // The same worker format as the app: the wasm core loads inside module workers.
  worker: { format: 'es' },
  build: {
    target: 'es2022',
    outDir: 'dist-bench',
    emptyOutDir: true,
    rollupOptions: { input: pages },
  },
  preview: { host: '127.0.0.1', port: 4180, strictPort: true },
})
