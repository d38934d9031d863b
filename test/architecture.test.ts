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
  cli: ['core', 'context', 'memory', 'eval', 'server'],
  server: ['core', 'context', 'memory', 'eval'],
  'ai-sdk': ['core', 'providers', 'memory'],
  testing: ['core', 'providers', 'managers'],
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

/** Each file's relative imports (type-only ones too), as resolved paths without the `.js` ending. */
function importGraph(files: readonly SourceFile[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets: string[] = [];
    for (const match of file.text.matchAll(/(?:^|\s)(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/gmu)) {
      const specifier = match[1] ?? match[2] ?? '';
      if (specifier.startsWith('.')) targets.push(resolve(dirname(file.path), specifier).replace(/\.js$/u, '.ts'));
    }
    graph.set(file.path, targets);
  }
  return graph;
}

/** The import cycles of a graph: each strongly connected group of two or more files (or a file importing itself), sorted. */
export function importCycles(files: readonly SourceFile[]): string[][] {
  const graph = importGraph(files);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  let counter = 0;
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue;
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(next) ?? 0));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node) ?? 0, index.get(next) ?? 0));
    }
    if (low.get(node) !== index.get(node)) return;
    const group: string[] = [];
    for (let member = stack.pop(); member !== undefined; member = stack.pop()) {
      onStack.delete(member);
      group.push(relative(SOURCE, member));
      if (member === node) break;
    }
    if (group.length > 1 || (graph.get(node) ?? []).includes(node)) cycles.push(group.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return cycles;
}

/** Folders whose root files are ports and whose subfolders are adapters. */
const PORT_FOLDERS: readonly string[] = ['managers', 'store'];

/** Imports from a port into one of its adapters, or from one adapter into another. */
export function adapterViolations(files: readonly SourceFile[]): string[] {
  const violations: string[] = [];
  const adapterOf = (path: string): { folder: string; adapter: string | null } | null => {
    const parts = relative(SOURCE, path).split(sep);
    const folder = parts[0] ?? '';
    if (!PORT_FOLDERS.includes(folder)) return null;
    return { folder, adapter: parts.length > 2 ? (parts[1] ?? null) : null };
  };
  for (const [path, targets] of importGraph(files)) {
    const from = adapterOf(path);
    if (from === null) continue;
    for (const target of targets) {
      const to = adapterOf(target);
      if (to === null || to.folder !== from.folder || to.adapter === null || to.adapter === from.adapter) continue;
      violations.push(`${relative(SOURCE, path)} → ${relative(SOURCE, target)}`);
    }
  }
  return violations;
}

describe('ports and cycles', () => {
  it('has no import cycle in src/', () => {
    expect(importCycles(sourceFiles(SOURCE))).toEqual([]);
  });

  it('keeps ports free of adapters and adapters free of each other', () => {
    expect(adapterViolations(sourceFiles(SOURCE))).toEqual([]);
  });

  it('finds a cycle and a port or adapter importing another adapter', () => {
    const files = [
      { path: join(SOURCE, 'core', 'a.ts'), text: "import { b } from './b.js';" },
      { path: join(SOURCE, 'core', 'b.ts'), text: "import type { c } from './c.js';" },
      { path: join(SOURCE, 'core', 'c.ts'), text: "export { a } from './a.js';" },
      { path: join(SOURCE, 'core', 'd.ts'), text: "import { a } from './a.js';" },
      { path: join(SOURCE, 'managers', 'port.ts'), text: "import type { X } from './model/x.js';" },
      { path: join(SOURCE, 'managers', 'model', 'x.ts'), text: "import { y } from '../local/y.js';\nimport type { Port } from '../port.js';" },
      { path: join(SOURCE, 'managers', 'local', 'y.ts'), text: "import { z } from './z.js';" },
    ];
    expect(importCycles(files)).toEqual([['core/a.ts', 'core/b.ts', 'core/c.ts'], ['managers/model/x.ts', 'managers/port.ts']]);
    expect(adapterViolations(files)).toEqual(['managers/port.ts → managers/model/x.ts', 'managers/model/x.ts → managers/local/y.ts']);
  });
});
