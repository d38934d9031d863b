import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LongTermMemory, MemoryVersion } from '../../src/memory/long-term-api.js';
import { createWorkspace, type RunResult, type Workspace } from './helpers.js';

let ws: Workspace;

beforeEach(() => {
  ws = createWorkspace();
});
afterEach(() => ws.cleanup());

/** Run a command that must succeed with `--json` and parse what it prints. */
async function json<T>(args: string[]): Promise<T> {
  const result = await ws.run([...args, '--json']);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as T;
}

async function ok(args: string[]): Promise<RunResult> {
  const result = await ws.run(args);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return result;
}

/** Mom's birthday (M1, named, tagged family and dates) and the staging region (M2). */
async function addTwo(): Promise<void> {
  const first = await ok(['memories', 'add', "Mom's birthday is May 4", '--name', 'mom-birthday', '--tag', 'family', '--tag', 'Dates']);
  expect(first.stdout).toBe("M1 (mom-birthday)  Mom's birthday is May 4\n");
  const second = await ok(['memories', 'add', 'staging', 'runs', 'in', 'eu-west-1']);
  expect(second.stdout).toBe('M2  staging runs in eu-west-1\n');
}

describe('strata memories add, list and show', () => {
  it('lists both memories as a table and as JSON, the most recently changed first', async () => {
    await addTwo();
    const table = await ok(['memories']);
    expect(table.stdout).toMatch(/^key\s+name\s+value\s+modified$/mu);
    expect(table.stdout).toMatch(/^M1\s+mom-birthday\s+Mom's birthday is May 4\s+\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/mu);
    expect(table.stdout).toMatch(/^M2\s+staging runs in eu-west-1\s+\d{4}-/mu);
    expect(await ok(['memories', 'list'])).toEqual(table);

    const list = await json<LongTermMemory[]>(['memories', 'list']);
    expect(list.map((memory) => [memory.key, memory.name, memory.value, memory.version, memory.deprecated])).toEqual([
      ['M2', null, 'staging runs in eu-west-1', 1, false],
      ['M1', 'mom-birthday', "Mom's birthday is May 4", 1, false],
    ]);
    expect(await json<LongTermMemory[]>(['memories', 'list', '--limit', '1', '--offset', '1'])).toEqual([list[1]]);
    expect((await json<LongTermMemory[]>(['memories', '--tag', 'dates'])).map((memory) => memory.key)).toEqual(['M1']);
  });

  it('prints the new memory as JSON', async () => {
    const memory = await json<LongTermMemory>(['memories', 'add', 'I am vegetarian', '--reason', 'said so at dinner']);
    expect(memory).toMatchObject({ key: 'M1', name: null, value: 'I am vegetarian', version: 1, deprecated: false, sources: [] });
    const [made] = await json<MemoryVersion[]>(['memories', 'history', 'M1']);
    expect(made).toMatchObject({ version: 1, by: 'user', reason: 'said so at dinner' });
  });

  it('shows one memory by key and by name, with its tags and origin', async () => {
    await addTwo();
    const byKey = await ok(['memories', 'show', 'M1']);
    expect(byKey.stdout).toMatch(/^M1 mom-birthday$/mu);
    expect(byKey.stdout).toMatch(/^ {2}value\s+Mom's birthday is May 4$/mu);
    expect(byKey.stdout).toMatch(/^ {2}version\s+1$/mu);
    expect(byKey.stdout).toMatch(/^ {2}tags\s+dates, family$/mu);
    expect(byKey.stdout).toMatch(/^ {2}from\s+no conversation: added by user$/mu);
    expect(await ok(['memories', 'show', 'mom-birthday'])).toEqual(byKey);

    const shown = await json<{ memory: LongTermMemory; tags: string[]; edges: unknown[] }>(['memories', 'show', 'mom-birthday']);
    expect(shown).toEqual({ memory: expect.objectContaining({ key: 'M1', name: 'mom-birthday' }), tags: ['dates', 'family'], edges: [] });
    expect((await json<{ memory: LongTermMemory }>(['memories', 'show', shown.memory.id])).memory.key).toBe('M1');
    expect((await ok(['memories', 'show', 'M2'])).stdout).toMatch(/^ {2}tags\s+\(none\)$/mu);
  });

  it('keeps each tenant to its own memories', async () => {
    await addTwo();
    expect(await json<unknown[]>(['memories', '--tenant', 'acme'])).toEqual([]);
    expect((await ok(['memories', '--tenant', 'acme'])).stdout).toContain('No memories in tenant "acme"');
    const missing = await ws.run(['memories', 'show', 'M1', '--tenant', 'acme']);
    expect(missing.code).toBe(3);
  });
});

describe('strata memories change, history, undo and deprecate', () => {
  it('records each change as a version with its reason, and undo brings the old value back as version 3', async () => {
    await addTwo();
    const changed = await ok(['memories', 'change', 'M2', 'staging', 'runs', 'in', 'us-east-2', '--reason', 'moved in March']);
    expect(changed.stdout).toBe('Changed M2 (version 2): staging runs in us-east-2\n');

    const history = await json<MemoryVersion[]>(['memories', 'history', 'M2']);
    expect(history.map((version) => [version.version, version.by, version.reason, version.value])).toEqual([
      [1, 'user', 'remembered', 'staging runs in eu-west-1'],
      [2, 'user', 'moved in March', 'staging runs in us-east-2'],
    ]);
    const table = await ok(['memories', 'history', 'M2']);
    expect(table.stdout).toMatch(/^version\s+at\s+by\s+reason\s+value$/mu);
    expect(table.stdout).toMatch(/^\s+1\s+\S+ \S+\s+user\s+remembered\s+staging runs in eu-west-1$/mu);
    expect(table.stdout).toMatch(/^\s+2\s+\S+ \S+\s+user\s+moved in March\s+staging runs in us-east-2$/mu);

    const undone = await json<LongTermMemory>(['memories', 'undo', 'M2']);
    expect(undone).toMatchObject({ key: 'M2', version: 3, value: 'staging runs in eu-west-1' });
    const after = await json<MemoryVersion[]>(['memories', 'history', 'M2']);
    expect(after.map((version) => [version.version, version.reason, version.value])).toEqual([
      [1, 'remembered', 'staging runs in eu-west-1'],
      [2, 'moved in March', 'staging runs in us-east-2'],
      [3, 'undo of version 2', 'staging runs in eu-west-1'],
    ]);
    expect((await ok(['memories', 'show', 'M2'])).stdout).toMatch(/^ {2}value\s+staging runs in eu-west-1$/mu);
  });

  it('refuses to undo a memory that never changed (exit 2)', async () => {
    await addTwo();
    const refused = await ws.run(['memories', 'undo', 'M1']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('nothing to undo');
    expect((await json<MemoryVersion[]>(['memories', 'history', 'M1'])).length).toBe(1);
  });

  it('hides a deprecated memory from the list, shows it with --deprecated, and restores it', async () => {
    await addTwo();
    const deprecated = await ok(['memories', 'deprecate', 'mom-birthday', '--reason', 'wrong date']);
    expect(deprecated.stdout).toBe("Deprecated M1 (version 2): Mom's birthday is May 4\n");
    expect((await json<LongTermMemory[]>(['memories'])).map((memory) => memory.key)).toEqual(['M2']);
    expect((await ok(['memories'])).stdout).not.toContain('M1');

    const all = await json<LongTermMemory[]>(['memories', '--deprecated']);
    expect(all.map((memory) => [memory.key, memory.deprecated])).toEqual([
      ['M1', true],
      ['M2', false],
    ]);
    const table = await ok(['memories', '--deprecated']);
    expect(table.stdout).toMatch(/^key\s+name\s+value\s+modified\s+deprecated$/mu);
    expect(table.stdout).toMatch(/^M1\s+mom-birthday\s+Mom's birthday is May 4\s+\S+ \S+\s+yes$/mu);
    expect((await ok(['memories', 'show', 'M1'])).stdout).toMatch(/^M1 mom-birthday {2}\[deprecated\]$/mu);
    // A deprecated memory's tags are not counted.
    expect(await json<unknown[]>(['memories', 'tags'])).toEqual([]);

    const restored = await json<LongTermMemory>(['memories', 'deprecate', 'M1', '--restore']);
    expect(restored).toMatchObject({ version: 3, deprecated: false });
    expect((await json<LongTermMemory[]>(['memories'])).map((memory) => memory.key).sort()).toEqual(['M1', 'M2']);
    expect((await json<MemoryVersion[]>(['memories', 'history', 'M1'])).map((version) => version.reason)).toEqual(['remembered', 'wrong date', 'current again']);

    const mixed = await ws.run(['memories', '--deprecated', '--tag', 'family']);
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toContain('--deprecated and --tag');
  });
});

describe('strata memories rename, tags and links', () => {
  it('renames a memory, finds it by the new name, and clears the name', async () => {
    await addTwo();
    expect((await ok(['memories', 'rename', 'M2', 'staging-region'])).stdout).toBe('Named M2 "staging-region".\n');
    expect((await json<{ memory: LongTermMemory }>(['memories', 'show', 'staging-region'])).memory.key).toBe('M2');
    expect((await ok(['memories', 'rename', 'staging-region', '--clear'])).stdout).toBe('M2 has no name now.\n');
    expect((await ws.run(['memories', 'show', 'staging-region'])).code).toBe(3);

    const taken = await ws.run(['memories', 'rename', 'M2', 'mom-birthday']);
    expect(taken.code).toBe(2);
    const neither = await ws.run(['memories', 'rename', 'M2']);
    expect(neither.code).toBe(2);
    expect(neither.stderr).toContain('--clear');
    expect((await ws.run(['memories', 'rename', 'M2', 'x', '--clear'])).code).toBe(2);
  });

  it('tags and untags, printing the tags after, and counts every tag', async () => {
    await addTwo();
    expect((await ok(['memories', 'tag', 'M2', 'work', 'Infra / AWS'])).stdout).toBe('M2 tags: infra/aws, work\n');
    expect(await json<string[]>(['memories', 'tag', 'mom-birthday', 'work'])).toEqual(['dates', 'family', 'work']);

    expect(await json<Array<{ tag: string; memories: number }>>(['memories', 'tags'])).toEqual([
      { tag: 'dates', memories: 1 },
      { tag: 'family', memories: 1 },
      { tag: 'infra/aws', memories: 1 },
      { tag: 'work', memories: 2 },
    ]);
    const table = await ok(['memories', 'tags']);
    expect(table.stdout).toMatch(/^tag\s+memories$/mu);
    expect(table.stdout).toMatch(/^work\s+2$/mu);

    expect((await ok(['memories', 'untag', 'M2', 'work', 'infra/aws'])).stdout).toBe('M2 tags: (none)\n');
    expect(await json<Array<{ tag: string; memories: number }>>(['memories', 'tags'])).toContainEqual({ tag: 'work', memories: 1 });

    const bad = await ws.run(['memories', 'tag', 'M2', '!!!']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('A tag is');
  });

  it('links two memories, shows the edge from both ends, and unlinks them', async () => {
    await addTwo();
    await ok(['memories', 'add', 'Dad', 'organises', "Mom's", 'party']);
    const linked = await ok(['memories', 'link', 'M3', 'relates-to', 'mom-birthday', '--reason', 'same event']);
    expect(linked.stdout).toBe('Linked M3 relates-to M1 (same event)\n');

    const shown = await ok(['memories', 'show', 'M1']);
    expect(shown.stdout).toContain('1 edge:');
    expect(shown.stdout).toContain(`M3 relates-to M1 (same event)  "Dad organises Mom's party"`);
    expect((await ok(['memories', 'show', 'M3'])).stdout).toContain(`M3 relates-to M1 (same event)  "Mom's birthday is May 4"`);
    const { edges } = await json<{ edges: Array<Record<string, unknown>> }>(['memories', 'show', 'M3']);
    expect(edges).toEqual([expect.objectContaining({ fromKey: 'M3', toKey: 'M1', type: 'relates-to', by: 'user', reason: 'same event' })]);

    const badType = await ws.run(['memories', 'link', 'M3', 'loves', 'M1']);
    expect(badType.code).toBe(2);
    expect(badType.stderr).toContain('relates-to, contradicts, supersedes, part-of, caused-by');

    expect((await ok(['memories', 'unlink', 'M3', 'relates-to', 'M1'])).stdout).toBe('Unlinked M3 relates-to M1\n');
    expect((await json<{ edges: unknown[] }>(['memories', 'show', 'M1'])).edges).toEqual([]);
    const again = await ws.run(['memories', 'unlink', 'M3', 'relates-to', 'M1']);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('No edge M3 relates-to M1');
  });
});

describe('strata memories errors', () => {
  it('exits 3 naming an unknown memory, in text and with --json', async () => {
    await addTwo();
    for (const args of [['show', 'M9'], ['change', 'M9', 'x'], ['history', 'M9'], ['deprecate', 'M9'], ['tag', 'M9', 'a'], ['link', 'M1', 'relates-to', 'M9']]) {
      const result = await ws.run(['memories', ...args]);
      expect(result.code).toBe(3);
      expect(result.stderr).toMatch(/^strata: No long-term memory "M9"/u);
    }
    const asJson = await ws.run(['memories', 'show', 'dad-birthday', '--json']);
    expect(asJson.code).toBe(3);
    expect(asJson.stdout).toBe('');
    expect(JSON.parse(asJson.stderr)).toEqual({ error: { code: 'MEMORY_NOT_FOUND', message: expect.stringContaining('"dad-birthday"') } });
  });

  it('exits 2 for an invalid name, a taken name or a value too long, and stores nothing', async () => {
    const badName = await ws.run(['memories', 'add', 'something', '--name', 'Mom Birthday', '--tag', 'family']);
    expect(badName.code).toBe(2);
    expect(badName.stderr).toContain("memory's name");
    const tooLong = await ws.run(['memories', 'add', 'x'.repeat(501)]);
    expect(tooLong.code).toBe(2);
    expect(tooLong.stderr).toContain('1 to 500 characters');
    expect(await json<unknown[]>(['memories', '--deprecated'])).toEqual([]);
    expect(await json<unknown[]>(['memories', 'tags'])).toEqual([]);

    await ok(['memories', 'add', 'first', '--name', 'taken']);
    const duplicate = await ws.run(['memories', 'add', 'second', '--name', 'taken']);
    expect(duplicate.code).toBe(2);
    expect((await json<LongTermMemory[]>(['memories'])).map((memory) => memory.value)).toEqual(['first']);

    const longChange = await ws.run(['memories', 'change', 'taken', 'y'.repeat(501)]);
    expect(longChange.code).toBe(2);
    expect((await json<MemoryVersion[]>(['memories', 'history', 'taken'])).length).toBe(1);

    expect((await ws.run(['memories', 'list', '--limit', '0'])).code).toBe(2);
  });

  it('shortens long values in the list to the width of the terminal', async () => {
    const value = `${'word '.repeat(99)}end`;
    await ok(['memories', 'add', value]);
    const { stdout } = await ok(['memories']);
    const row = stdout.split('\n').find((line) => line.startsWith('M1')) ?? '';
    expect(row).toContain('…');
    expect(row).not.toContain('end');
    expect(row.length).toBeLessThanOrEqual(100);
    expect((await json<LongTermMemory[]>(['memories']))[0]?.value).toBe(value);
  });
});
