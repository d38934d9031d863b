/** Bundle a TypeScript entry of the project into one ES module Node 20 runs, its packages left as imports. */
import { build } from 'esbuild';

export async function bundleForNode(entry: string, outfile: string): Promise<void> {
  await build({ entryPoints: [entry], bundle: true, packages: 'external', platform: 'node', format: 'esm', target: 'node20', outfile, logLevel: 'silent' });
}
