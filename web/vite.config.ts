/**
 * Builds the web app into `dist/web`, which `strata serve` serves at `/`. Everything it needs is bundled:
 * no CDN, no font or script fetched at run time, so it works offline.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root: here,
  base: '/',
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
  // `npm run dev:web` serves the source with reloads; the API comes from a `strata serve` on the default port.
  server: { proxy: { '/api': 'http://127.0.0.1:8787', '/openapi.json': 'http://127.0.0.1:8787' } },
  build: {
    outDir: fileURLToPath(new URL('../dist/web', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    assetsInlineLimit: 0,
    reportCompressedSize: false,
  },
});
