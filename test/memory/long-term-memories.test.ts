/**
 * A tenant's long-term memory through the library: memories made, found by id, key or name, changed
 * with their history kept and undone, deprecated, tagged and linked; bad input refused with a
 * StrataError that names the problem and changes nothing.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { isStrataError } from '../../src/core/errors.js';
import { createMemory, type Memory } from '../../src/memory/create-memory.js';

const memories: Memory[] = [];
afterEach(async () => {
  await Promise.all(memories.splice(0).map((memory) => memory.close()));
});

function open(): Memory {
  let minute = 0;
  const memory = createMemory({ path: ':memory:', env: {}, clock: () => new Date(Date.UTC(2026, 4, 1, 10, minute++)) });
  memories.push(memory);
  return memory;
}

async function refused(call: Promise<unknown>, code: string, message: RegExp): Promise<void> {
  const error: unknown = await call.then(
    () => null,
    (failure: unknown) => failure,
  );
  expect(isStrataError(error, code as never)).toBe(true);
  expect((error as Error).message).toMatch(message);
}

describe('long-term memories', () => {
  it('are made with a key, found by id, key or name, and listed newest first', async () => {
    const memory = open();
    const birthday = await memory.memories.add({ value: "  Mom's birthday is May 4.  ", name: 'mom-birthday', tags: ['Family / Birthdays'] });
    expect(birthday).toMatchObject({ key: 'M1', name: 'mom-birthday', value: "Mom's birthday is May 4.", version: 1, deprecated: false });
    const staging = await memory.memories.add({ value: 'Our staging server is eu-west-1.', sources: [{ sessionId: 's-ops', messageIds: ['m-7'] }] });
    expect(staging.key).toBe('M2');
    for (const reference of [birthday.id, 'M1', 'mom-birthday']) expect((await memory.memories.get(reference)).id).toBe(birthday.id);
    expect((await memory.memories.list()).map((entry) => entry.key)).toEqual(['M2', 'M1']);
    expect((await memory.memories.list({ tags: ['family/birthdays'] })).map((entry) => entry.key)).toEqual(['M1']);
    expect(await memory.memories.tagsOf('M1')).toEqual(['family/birthdays']);
    expect(await memory.memories.tags()).toEqual([{ tag: 'family/birthdays', memories: 1 }]);
    // A key is never taken for a name, nor a name for a key: names are lower case.
    const lower = await memory.memories.add({ value: 'Named like a key, in lower case.', name: 'm1' });
    expect((await memory.memories.get('m1')).id).toBe(lower.id);
    expect((await memory.memories.get('M1')).id).toBe(birthday.id);
    // Another tenant of the same memory has none of them.
    expect(await memory.tenant('acme').memories.list()).toEqual([]);
  });

  it('keep every version with who and why, and undo the last change as a new version', async () => {
    const memory = open();
    await memory.memories.add({ value: 'Vegetarian.', name: 'diet' });
    await memory.memories.change('diet', { value: 'Vegan since March.', reason: 'said so in the grocery session' });
    const undone = await memory.memories.undo('diet');
    expect(undone).toMatchObject({ value: 'Vegetarian.', version: 3 });
    const history = await memory.memories.history('diet');
    expect(history.map(({ version, value, by, reason }) => ({ version, value, by, reason }))).toEqual([
      { version: 1, value: 'Vegetarian.', by: 'user', reason: 'remembered' },
      { version: 2, value: 'Vegan since March.', by: 'user', reason: 'said so in the grocery session' },
      { version: 3, value: 'Vegetarian.', by: 'user', reason: 'undo of version 2' },
    ]);
    await memory.memories.change('diet', { value: 'Pescatarian.', by: 'agent:corrector', reason: 'newer evidence in session s-9' });
    expect((await memory.memories.history('diet')).at(-1)).toMatchObject({ by: 'agent:corrector', reason: 'newer evidence in session s-9' });
  });

  it('are deprecated rather than deleted, and can be current again', async () => {
    const memory = open();
    const old = await memory.memories.add({ value: 'Staging is us-east-1.' });
    await memory.memories.deprecate(old.key, { reason: 'moved to eu-west-1' });
    expect(await memory.memories.list()).toEqual([]);
    expect((await memory.memories.list({ deprecated: true })).map((entry) => entry.deprecated)).toEqual([true]);
    expect((await memory.memories.deprecate(old.key, { deprecated: false })).deprecated).toBe(false);
    expect((await memory.memories.history(old.key)).map((version) => version.reason)).toEqual(['remembered', 'moved to eu-west-1', 'current again']);
  });

  it('are tagged and linked, and say what links them', async () => {
    const memory = open();
    const first = await memory.memories.add({ value: 'Staging is us-east-1.', name: 'staging-old' });
    const second = await memory.memories.add({ value: 'Staging is eu-west-1.', name: 'staging' });
    expect(await memory.memories.tag('staging', ['Infra', 'infra', 'ops/servers'])).toEqual(['infra', 'ops/servers']);
    expect(await memory.memories.untag('staging', ['infra'])).toEqual(['ops/servers']);
    expect(await memory.memories.tagsOf('staging')).toEqual(['ops/servers']);
    const edge = await memory.memories.link('staging', 'staging-old', 'supersedes', { reason: 'moved region' });
    expect(edge).toMatchObject({ fromId: second.id, toId: first.id, type: 'supersedes', by: 'user', reason: 'moved region' });
    expect(await memory.memories.edges('staging-old')).toEqual([edge]);
    expect(await memory.memories.unlink('staging', 'staging-old', 'supersedes')).toBe(true);
    expect(await memory.memories.edges('staging')).toEqual([]);
  });

  it('refuse bad input with a StrataError that names it, storing nothing', async () => {
    const memory = open();
    await memory.memories.add({ value: 'Kept.', name: 'kept' });
    await refused(memory.memories.add({ value: 'x'.repeat(501) }), 'INVALID_INPUT', /1 to 500 characters/u);
    await refused(memory.memories.add({ value: '   ' }), 'INVALID_INPUT', /1 to 500 characters/u);
    await refused(memory.memories.add({ value: 'Bad name.', name: 'Mom Birthday' }), 'INVALID_INPUT', /lower-case letters/u);
    await refused(memory.memories.add({ value: 'Taken.', name: 'kept' }), 'MEMORY_EXISTS', /name "kept"/u);
    await refused(memory.memories.add({ value: 'Bad tag.', tags: ['!!'] }), 'INVALID_INPUT', /A tag is/u);
    await refused(memory.memories.add({ value: 'Bad author.', by: 'robot' as never }), 'INVALID_INPUT', /agent:<name>/u);
    await refused(memory.memories.get('nothing-like-it'), 'MEMORY_NOT_FOUND', /"nothing-like-it"/u);
    await refused(memory.memories.undo('kept'), 'INVALID_INPUT', /nothing to undo/u);
    await refused(memory.memories.list({ tags: ['family'], deprecated: true }), 'INVALID_INPUT', /current memories only/u);
    await refused(memory.memories.link('kept', 'kept', 'relates-to'), 'INVALID_INPUT', /itself/u);
    await refused(memory.memories.link('kept', 'kept', 'likes' as never), 'INVALID_INPUT', /relates-to/u);
    await refused(memory.memories.deprecate('kept', { deprecated: 'no' as never }), 'INVALID_INPUT', /true or false/u);
    await refused(memory.memories.list(null as never), 'INVALID_INPUT', /list\(\) takes/u);
    await refused(memory.memories.list({ tags: 5 as never }), 'INVALID_INPUT', /tags is a list/u);
    await refused(memory.memories.list({ deprecated: 'yes' as never }), 'INVALID_INPUT', /true or false/u);
    await refused(memory.memories.add({ value: 'Bad source.', sources: [{ sessionId: 's\u0000', messageIds: [] }] }), 'INVALID_INPUT', /control characters/u);
    await refused(memory.memories.add({ value: 'Nul \u0000 inside.' }), 'INVALID_INPUT', /without NUL/u);
    expect((await memory.memories.list()).map((entry) => entry.value)).toEqual(['Kept.']);
    expect(await memory.memories.history('kept')).toHaveLength(1);
  });
});
