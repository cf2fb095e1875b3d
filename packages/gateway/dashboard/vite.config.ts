import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * The dashboard's build: a single-page app under `/ui/`, written to the gateway's `dist/ui/` so it
 * ships in the npm package. Hashed asset names (`assets/<name>-<hash>.js`) let the gateway serve them with a
 * year-long immutable cache; only `index.html` is revalidated. No inline script or style is emitted, so the
 * gateway's Content-Security-Policy needs no `unsafe-inline`.
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/ui/',
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('../dist/ui', import.meta.url)),
    emptyOutDir: true,
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    sourcemap: false,
    reportCompressedSize: false,
    chunkSizeWarningLimit: 1024,
  },
});
