/**
 * The installed `strata-memory` package's folder and version: the CLI prints the version, and the
 * bundled example conversations live under its root.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_NAME = 'strata-memory';

export interface PackageInfo {
  /** Folder holding the package's package.json. */
  root: string;
  version: string;
}

let cached: PackageInfo | undefined;

/** The installed `strata-memory` package: found by walking up from this file (works from `src/` and `dist/src/`). */
export function packageInfo(): PackageInfo {
  if (cached !== undefined) return cached;
  let folder = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(folder, 'package.json');
    if (existsSync(manifest)) {
      const data = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown; version?: unknown };
      if (data.name === PACKAGE_NAME) {
        cached = { root: folder, version: typeof data.version === 'string' ? data.version : '0.0.0' };
        return cached;
      }
    }
    const parent = dirname(folder);
    if (parent === folder) throw new Error(`Cannot find the ${PACKAGE_NAME} package folder above ${fileURLToPath(import.meta.url)}.`);
    folder = parent;
  }
}
