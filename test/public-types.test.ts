import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const read = (path: string): string => readFileSync(resolve(import.meta.dirname, '..', path), 'utf8');

/** Names a module declares for export as interfaces or types. */
function declaredTypes(path: string): string[] {
  return [...read(path).matchAll(/^export (?:interface|type) (\w+)/gmu)].map((match) => match[1] ?? '');
}

describe('the public API', () => {
  it('exports every type the memory API declares, so a user can name what a method takes or returns', () => {
    const index = read('src/index.ts');
    const exported = new Set([...index.matchAll(/\b(?:type )?(\w+)(?=[,\s}])/gu)].map((match) => match[1]));
    // MemoryStats extends MemoryCounterSet: its fields are documented there.
    const missing = [...declaredTypes('src/memory/memory-api.ts'), ...declaredTypes('src/memory/long-term-api.ts'), 'MemoryCounterSet'].filter((name) => !exported.has(name));
    expect(missing).toEqual([]);
  });
});
