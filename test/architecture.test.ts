import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve, dirname, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const SOURCE = resolve(import.meta.dirname, '../src');

/** Which layers each layer may import (faces → engine → core; core imports nothing). */
const ALLOWED: Readonly<Record<string, readonly string[]>> = {
  core: [],
  providers: ['core'],
  store: ['core'],
  managers: ['core', 'providers'],
  context: ['core', 'providers', 'store'],
  retrieval: ['core', 'providers', 'store'],
  longterm: ['core', 'providers', 'store', 'retrieval'],
  memory: ['core', 'providers', 'store', 'managers', 'context', 'retrieval', 'longterm'],
  eval: ['core', 'providers', 'store', 'managers', 'context', 'memory'],
  cli: ['core', 'context', 'memory', 'eval'],
  server: ['core', 'context', 'memory'],
};

/** Packages core may use: pure computation only, no I/O. */
const CORE_PACKAGES: readonly string[] = [];

interface SourceFile {
  path: string;
  text: string;
}

function sourceFiles(folder: string): SourceFile[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [{ path, text: readFileSync(path, 'utf8') }] : [];
  });
}

function layerOf(path: string): string | null {
  const parts = relative(SOURCE, path).split(sep);
  return parts.length > 1 ? (parts[0] ?? null) : null;
}

/** Every import that breaks the layering, as "file → target". */
export function importViolations(files: readonly SourceFile[]): string[] {
  const violations: string[] = [];
  for (const file of files) {
    const layer = layerOf(file.path);
    if (layer === null) continue;
    const allowed = ALLOWED[layer];
    if (allowed === undefined) {
      violations.push(`${relative(SOURCE, file.path)}: layer "${layer}" has no rule`);
      continue;
    }
    for (const match of file.text.matchAll(/(?:^|\s)(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/gmu)) {
      const specifier = match[1] ?? match[2] ?? '';
      if (specifier.startsWith('.')) {
        const target = layerOf(resolve(dirname(file.path), specifier));
        if (target !== null && target !== layer && !allowed.includes(target)) {
          violations.push(`${relative(SOURCE, file.path)} → ${specifier}`);
        }
        if (target === null && layer !== null) violations.push(`${relative(SOURCE, file.path)} → ${specifier} (the public index)`);
      } else if (layer === 'core' && !CORE_PACKAGES.includes(specifier)) {
        violations.push(`${relative(SOURCE, file.path)} → ${specifier} (core does no I/O and uses no packages)`);
      }
    }
  }
  return violations;
}

describe('import direction', () => {
  it('keeps faces → engine → core, with core importing nothing', () => {
    const files = sourceFiles(SOURCE);
    expect(files.length).toBeGreaterThan(20);
    expect(importViolations(files)).toEqual([]);
  });

  it('reports an upward import and a package import from core', () => {
    const violations = importViolations([
      { path: join(SOURCE, 'core', 'bad.ts'), text: "import { createMemory } from '../memory/create-memory.js';\nimport fs from 'node:fs';" },
      { path: join(SOURCE, 'store', 'bad.ts'), text: "export { assembleContext } from '../context/assembler.js';" },
      { path: join(SOURCE, 'cli', 'fine.ts'), text: "import type { Memory } from '../memory/create-memory.js';" },
    ]);
    expect(violations).toEqual([
      'core/bad.ts → ../memory/create-memory.js',
      'core/bad.ts → node:fs (core does no I/O and uses no packages)',
      'store/bad.ts → ../context/assembler.js',
    ]);
  });
});
