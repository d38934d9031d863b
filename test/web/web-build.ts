/** Builds the web app into a folder of the test's own (the suite may rebuild `dist/` meanwhile) and weighs it. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';

const CONFIG = join(import.meta.dirname, '..', '..', 'web', 'vite.config.ts');

export async function buildWebApp(outDir: string): Promise<void> {
  await build({ configFile: CONFIG, logLevel: 'warn', build: { outDir, emptyOutDir: true } });
}

/** Gzipped bytes of the JavaScript and CSS the browser downloads. */
export function shippedGzipBytes(outDir: string): number {
  const assets = join(outDir, 'assets');
  return readdirSync(assets)
    .filter((name) => name.endsWith('.js') || name.endsWith('.css'))
    .reduce((sum, name) => sum + gzipSync(readFileSync(join(assets, name)), { level: 9 }).length, 0);
}
