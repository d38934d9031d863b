import { afterEach, describe, expect, it } from 'vitest';
import { isStrataError, type StrataErrorCode } from '../../src/core/errors.js';
import type { SessionHandle } from '../../src/memory/create-memory.js';
import { PLANNING_TURNS, testMemory } from '../support/memory-fixtures.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

async function seeded(options: Parameters<typeof testMemory>[0] = {}) {
  const fixture = testMemory(options);
  cleanups.push(fixture.cleanup);
  const session = await fixture.memory.sessions.create({ title: 'Seeded' });
  for (const turn of PLANNING_TURNS) await session.record(turn);
  return { ...fixture, session };
}

/** Everything stored about a session, except the export time. */
async function state(session: SessionHandle): Promise<unknown> {
  const exported = JSON.parse(await session.export({ format: 'json' })) as Record<string, unknown>;
  delete exported.exportedAt;
  return exported;
}

async function expectRejected(promise: Promise<unknown>, code: StrataErrorCode, message: RegExp): Promise<void> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(isStrataError(error, code)).toBe(true);
  expect((error as Error).message).toMatch(message);
}

describe('bad input gets a clear error and changes nothing', () => {
  it('rejects empty and whitespace-only messages', async () => {
    const { session } = await seeded();
    const before = await state(session);
    await expectRejected(session.record({ user: '', assistant: 'ok' }), 'INVALID_INPUT', /user message is empty/u);
    await expectRejected(session.record({ user: 'fine', assistant: ' \n\t ' }), 'INVALID_INPUT', /assistant message is empty/u);
    await expectRejected(session.record({}), 'INVALID_INPUT', /needs a user message/u);
    expect(await state(session)).toEqual(before);
  });

  it('rejects a 1 MB message over the limit, naming the limit and the setting', async () => {
    const { session } = await seeded();
    const before = await state(session);
    const huge = 'word '.repeat(210_000);
    await expectRejected(session.record({ user: huge, assistant: 'ok' }), 'INVALID_INPUT', /1,050,000 bytes; the limit is 524,288.*STRATA_MAX_MESSAGE_BYTES/u);
    expect(await state(session)).toEqual(before);
  });

  it("refuses an export holding a message over this memory's limit, naming the message and the setting, and stores nothing", async () => {
    const roomy = testMemory({ maxMessageBytes: 2 * 1024 * 1024 });
    cleanups.push(roomy.cleanup);
    const source = await roomy.memory.sessions.create({ title: 'Log dump' });
    await source.record({ user: 'Here is the full log dump.', assistant: 'line '.repeat(120_000) });
    const exported = await source.export({ format: 'json' });
    const { memory } = await seeded();
    const before = await memory.sessions.list();
    await expectRejected(memory.sessions.import({ data: exported, source: 'dump.json', newIds: true }), 'IMPORT_INVALID', /dump\.json: message \S+ is 600,000 bytes; the limit here is 524,288.*STRATA_MAX_MESSAGE_BYTES/u);
    expect(await memory.sessions.list()).toEqual(before);
  });

  it('stores a 1 MB message when the limit allows it, and still fits any budget', async () => {
    const { session, memory } = await seeded({ maxMessageBytes: 2 * 1024 * 1024 });
    const huge = Array.from({ length: 150_000 }, (_, index) => `line${index % 97}`).join(' ');
    expect(Buffer.byteLength(huge)).toBeGreaterThan(1_000_000);
    const result = await session.record({ user: 'Here is the full log dump.', assistant: huge });
    expect(result.status).toBe('summarised');
    for (const budget of [100, 2000, 8000]) {
      const pkg = await session.context({ budget });
      expect(pkg.tokens).toBeLessThanOrEqual(budget);
      expect(memory.tokenizer.countMessages(pkg.render())).toBe(pkg.tokens);
    }
  });

  it('rejects lone UTF-16 surrogates with their position', async () => {
    const { session } = await seeded();
    const before = await state(session);
    await expectRejected(session.record({ user: 'broken \uD83D text', assistant: 'ok' }), 'INVALID_INPUT', /lone UTF-16 surrogate at index 7/u);
    await expectRejected(session.record({ user: 'ok', assistant: '\uDC00' }), 'INVALID_INPUT', /lone UTF-16 surrogate at index 0/u);
    expect(await state(session)).toEqual(before);
    const emoji = await session.record({ user: 'Paired surrogates are fine 😀', assistant: '👍' });
    expect(emoji.status).toBe('summarised');
  });

  it('reports unknown session ids', async () => {
    const { memory } = await seeded();
    await expectRejected(memory.sessions.open('no-such-session'), 'SESSION_NOT_FOUND', /No session "no-such-session"/u);
  });

  it('rejects budgets that are not whole positive numbers', async () => {
    const { session } = await seeded();
    for (const budget of [0, -5, 1.5, Number.NaN, 20_000_000]) {
      await expectRejected(session.context({ budget }), 'INVALID_INPUT', /budget must be a whole number/u);
    }
  });

  it('never exceeds a budget smaller than the pinned exceptions, and says what it dropped', async () => {
    const { session, memory } = await seeded();
    const pinned = (await session.facts()).filter((fact) => fact.pinned);
    expect(pinned.length).toBeGreaterThan(0);
    const pkg = await session.context({ budget: 12 });
    expect(pkg.tokens).toBeLessThanOrEqual(12);
    expect(memory.tokenizer.countMessages(pkg.render())).toBe(pkg.tokens);
    expect(pkg.warnings.join(' ')).toMatch(/did not fit a budget of 12 tokens/u);
    expect(pkg.omitted.some((omission) => omission.reason.startsWith('pinned exception'))).toBe(true);
  });

  it('rejects truncated and malformed import files and stores nothing', async () => {
    const { memory, session } = await seeded();
    const before = await memory.sessions.list();
    const exported = await session.export({ format: 'json' });
    await expectRejected(memory.sessions.import({ data: exported.slice(0, exported.length / 2), source: 'half.json' }), 'IMPORT_INVALID', /half\.json is truncated/u);
    await expectRejected(memory.sessions.import({ data: '{"messages": [{"role": "user"', source: 'cut.json' }), 'IMPORT_INVALID', /truncated/u);
    await expectRejected(memory.sessions.import({ data: 'not json at all', source: 'x.json' }), 'IMPORT_INVALID', /not valid JSON/u);
    await expectRejected(memory.sessions.import({ data: '{"hello": 1}' }), 'IMPORT_INVALID', /expected a Strata session export/u);
    await expectRejected(
      memory.sessions.import({ data: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: '   ' }], source: 'chat.json' }),
      'INVALID_INPUT',
      /chat\.json messages\[1\] is empty/u,
    );
    await expectRejected(memory.sessions.import({ data: [{ role: 'user', text: 'hi' }], source: 'chat.json' }), 'INVALID_INPUT', /messages\[0\] must be a string/u);
    await expectRejected(memory.sessions.import({ data: [{ role: 'robot', content: 'hi' }], source: 'chat.json' }), 'IMPORT_INVALID', /messages\[0\]\.role is "robot"/u);
    const broken = JSON.parse(exported) as { messages: Array<{ content: unknown }> };
    if (broken.messages[0] !== undefined) broken.messages[0].content = 42;
    await expectRejected(memory.sessions.import({ data: broken, source: 'edited.json' }), 'IMPORT_INVALID', /messages\.0\.content|messages\[0\]\.content/u);
    expect(await memory.sessions.list()).toEqual(before);
  });

  it('rejects an inconsistent export before writing anything', async () => {
    const { memory, session } = await seeded();
    const other = await memory.sessions.create({ title: 'Bystander' });
    await other.record({ user: 'Our office is in Porto.', assistant: 'Noted.' });
    const bystander = await state(other);
    const exported = JSON.parse(await session.export({ format: 'json' })) as {
      turns: Array<{ sessionId: string; userSummary: string }>;
      facts: Array<{ text: string }>;
      messages: Array<{ position: number }>;
    };
    await memory.sessions.open(session.id).then((handle) => handle.delete());
    const before = await memory.sessions.list();

    const foreign = structuredClone(exported);
    if (foreign.turns[0] !== undefined) {
      foreign.turns[0].sessionId = other.id;
      foreign.turns[0].userSummary = 'OVERWRITTEN';
    }
    await expectRejected(memory.sessions.import({ data: foreign, source: 'foreign.json' }), 'IMPORT_INVALID', new RegExp(`turn 1 belongs to session ${other.id}`, 'u'));

    const edited = structuredClone(exported);
    if (edited.facts[0] !== undefined) edited.facts[0].text = 'budget: $1';
    await expectRejected(memory.sessions.import({ data: edited, source: 'edited.json' }), 'IMPORT_INVALID', /facts are not what its fact events produce/u);

    const duplicated = structuredClone(exported);
    if (duplicated.messages[1] !== undefined) duplicated.messages[1].position = 0;
    await expectRejected(memory.sessions.import({ data: duplicated, source: 'dup.json' }), 'IMPORT_INVALID', /message position 0 appears twice/u);

    expect(await memory.sessions.list()).toEqual(before);
    expect(await state(other)).toEqual(bystander);
  });

  it('refuses to import an export over an existing session unless given new ids', async () => {
    const { memory, session } = await seeded();
    const exported = await session.export({ format: 'json' });
    await expectRejected(memory.sessions.import({ data: exported }), 'SESSION_EXISTS', /already exists.*--new-ids/u);
    const copy = await memory.sessions.import({ data: exported, newIds: true, title: 'Copy' });
    expect(copy.sessionId).not.toBe(session.id);
    const copied = await memory.sessions.open(copy.sessionId);
    expect((await copied.facts()).map((fact) => fact.text)).toEqual((await session.facts()).map((fact) => fact.text));
  });
});
