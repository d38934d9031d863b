/** Bundle a TypeScript entry of the project into one ES module Node 20 runs, its packages left as imports. */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export async function bundleForNode(entry: string, outfile: string): Promise<void> {
  await build({ entryPoints: [entry], bundle: true, packages: 'external', platform: 'node', format: 'esm', target: 'node20', outfile, logLevel: 'silent' });
}

/**
 * A test's child process (`entry`, a TypeScript file given from the project's root) bundled to run with
 * `node`: inside node_modules, so the packages it leaves as imports resolve. `remove` deletes it.
 */
export async function bundledChild(entry: string): Promise<{ path: string; remove: () => void }> {
  const cache = join(ROOT, 'node_modules', '.cache');
  mkdirSync(cache, { recursive: true });
  const folder = mkdtempSync(join(cache, 'strata-child-'));
  const path = join(folder, basename(entry).replace(/\.ts$/u, '.mjs'));
  await bundleForNode(join(ROOT, entry), path);
  return { path, remove: () => rmSync(folder, { recursive: true, force: true }) };
}
