import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CachedFactReader } from '../../src/context/fact-view.js';
import { createMemory, type Memory } from '../../src/memory/create-memory.js';
import type { TenantRepositories } from '../../src/store/store.js';
import { createGptTokenizer } from '../../src/providers/tokenizer/gpt-tokenizer.js';
import { createSqliteStore } from '../../src/store/sqlite/sqlite-store.js';

const folders: string[] = [];
const memories: Memory[] = [];

afterEach(async () => {
  await Promise.all(memories.splice(0).map((memory) => memory.close()));
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function databaseFile(): string {
  const folder = mkdtempSync(join(tmpdir(), 'strata-fact-view-'));
  folders.push(folder);
  return join(folder, 'memory.db');
}

function open(path: string): Memory {
  const memory = createMemory({ path, env: { STRATA_LOG_LEVEL: 'silent' } });
  memories.push(memory);
  return memory;
}

/** The text of every fact line of a package. */
async function factLines(memory: Memory, sessionId: string): Promise<string[]> {
  const session = await memory.sessions.open(sessionId);
  const pkg = await session.context({ budget: 4000 });
  return pkg.sections.filter((section) => section.name === 'facts' || section.name === 'pinned').flatMap((section) => section.items.map((item) => item.text));
}

describe('the base-truth document a memory keeps for its packages', () => {
  it('shows a fact written by another process on the same file in the next package', async () => {
    const path = databaseFile();
    const first = open(path);
    const session = await first.sessions.create({ title: 'Kitchen' });
    await session.facts.add({ text: 'budget: $18,000 for the kitchen', kind: 'constraint', reason: 'set on the first call' });
    expect(await factLines(first, session.id)).toEqual([expect.stringContaining('budget: $18,000')]);

    const second = open(path);
    const other = await second.sessions.open(session.id);
    const [budget] = await other.facts();
    await other.facts.edit({ fact: budget?.id ?? '', text: 'budget: $15,000 for the kitchen', reason: 'the quote came in lower' });
    await other.facts.add({ text: 'worktop: oak, not granite', kind: 'preference', reason: 'chosen in the showroom' });

    const lines = await factLines(first, session.id);
    expect(lines.some((line) => line.includes('$15,000'))).toBe(true);
    expect(lines.some((line) => line.includes('$18,000'))).toBe(false);
    expect(lines.some((line) => line.includes('worktop: oak'))).toBe(true);
  });

  it('shows a correction and an undo made through the same memory at once', async () => {
    const memory = open(databaseFile());
    const session = await memory.sessions.create({ title: 'Trip' });
    const added = await session.facts.add({ text: 'flight: Tuesday 9:40 from Leeds', kind: 'fact', reason: 'booked' });
    expect(await factLines(memory, session.id)).toEqual([expect.stringContaining('Tuesday 9:40')]);
    const removed = await session.facts.remove({ fact: added.factId ?? '', reason: 'cancelled' });
    expect(await factLines(memory, session.id)).toEqual([]);
    await session.undoFactEvent(removed.id);
    expect(await factLines(memory, session.id)).toEqual([expect.stringContaining('Tuesday 9:40')]);
  });
});

describe('CachedFactReader', () => {
  /** Repositories that count how often the facts are listed. */
  function counted(repositories: TenantRepositories): { repositories: TenantRepositories; lists: () => number } {
    let lists = 0;
    const facts = { ...repositories.facts, list: (options: { sessionId: string }) => ((lists += 1), repositories.facts.list(options)) };
    return { repositories: { ...repositories, facts }, lists: () => lists };
  }

  it('reads the facts again only when the session has a new fact event or is forgotten', async () => {
    const store = createSqliteStore({ path: ':memory:' });
    try {
      const path = store.tenant('default');
      await path.sessions.create({ session: { id: 's', title: 'T', instructions: '', createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z', messageCount: 0, turnCount: 0, tokenCount: 0 } });
      const { repositories, lists } = counted(path);
      const reader = new CachedFactReader(repositories, createGptTokenizer());
      const fact = { id: 'f1', sessionId: 's', key: 'budget', text: 'budget: $900', kind: 'constraint' as const, pinned: false, sourceMessageIds: [], createdTurn: 1, updatedTurn: 1, createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z' };
      const event = { id: 'e1', sessionId: 's', sequence: 1, factId: 'f1', op: 'add' as const, key: 'budget', kind: 'constraint' as const, oldText: null, newText: 'budget: $900', turn: 1, actor: 'user', reason: 'set', sourceMessageIds: [], createdAt: '2026-01-01T00:00:00Z' };

      expect((await reader.read({ id: 's', createdAt: '2026-01-01T00:00:00Z' })).facts).toEqual([]);
      await reader.read({ id: 's', createdAt: '2026-01-01T00:00:00Z' });
      expect(lists()).toBe(1);

      await path.facts.apply({ sessionId: 's', events: [event], upserts: [fact], removedIds: [] });
      const view = await reader.read({ id: 's', createdAt: '2026-01-01T00:00:00Z' });
      expect(view.facts.map((item) => item.text)).toEqual(['budget: $900']);
      expect(view.line(view.facts[0] ?? fact)).toBe(view.line(view.facts[0] ?? fact));
      expect(lists()).toBe(2);

      reader.forget('s');
      await reader.read({ id: 's', createdAt: '2026-01-01T00:00:00Z' });
      expect(lists()).toBe(3);

      // Another process deletes the session and makes it again under its id, up to the same sequence.
      await path.sessions.delete({ sessionId: 's' });
      await path.sessions.create({ session: { id: 's', title: 'T', instructions: '', createdAt: '2026-02-01T00:00:00Z', updatedAt: '2026-02-01T00:00:00Z', messageCount: 0, turnCount: 0, tokenCount: 0 } });
      await path.facts.apply({ sessionId: 's', events: [{ ...event, id: 'e2', newText: 'budget: $700' }], upserts: [{ ...fact, text: 'budget: $700' }], removedIds: [] });
      const remade = await reader.read({ id: 's', createdAt: '2026-02-01T00:00:00Z' });
      expect(remade.facts.map((item) => item.text)).toEqual(['budget: $700']);
    } finally {
      store.close();
    }
  });

  it('builds a line again when a fact folded into it changes, and keeps the others', async () => {
    const store = createSqliteStore({ path: ':memory:' });
    try {
      const path = store.tenant('default');
      const at = '2026-01-01T00:00:00Z';
      await path.sessions.create({ session: { id: 's', title: 'T', instructions: '', createdAt: at, updatedAt: at, messageCount: 0, turnCount: 0, tokenCount: 0 } });
      const base = { sessionId: 's', kind: 'fact' as const, pinned: false, sourceMessageIds: [], createdAt: at, updatedAt: at };
      const older = { ...base, id: 'a', key: 'deadline', text: 'deadline: March 15', createdTurn: 1, updatedTurn: 1 };
      const newer = { ...base, id: 'b', key: 'cutover', text: 'cutover: April 12', createdTurn: 2, updatedTurn: 2, mayReplace: 'a' };
      const other = { ...base, id: 'c', key: 'venue', text: 'venue: Leeds', createdTurn: 1, updatedTurn: 1 };
      const event = (sequence: number, fact: typeof older) => ({ id: `e${sequence}`, sessionId: 's', sequence, factId: fact.id, op: 'add' as const, key: fact.key, kind: fact.kind, oldText: null, newText: fact.text, turn: fact.updatedTurn, actor: 'user', reason: 'seed', sourceMessageIds: [], createdAt: at });
      await path.facts.apply({ sessionId: 's', events: [event(1, older), event(2, newer), event(3, other)], upserts: [older, newer, other], removedIds: [] });
      const reader = new CachedFactReader(path, createGptTokenizer());
      const first = await reader.read({ id: 's', createdAt: at });
      const lineOf = (view: typeof first, id: string) => view.line(view.facts.find((fact) => fact.id === id) ?? older);
      expect(lineOf(first, 'b').text).toContain('[may replace turn 1: "deadline: March 15"]');
      const venue = lineOf(first, 'c');

      // The older fact is corrected in its own turn: the newer line shows the new text; the unrelated line is the same object.
      await path.facts.apply({ sessionId: 's', events: [{ ...event(4, older), op: 'update', oldText: older.text, newText: 'deadline: March 22' }], upserts: [{ ...older, text: 'deadline: March 22' }], removedIds: [] });
      const second = await reader.read({ id: 's', createdAt: at });
      expect(lineOf(second, 'b').text).toContain('[may replace turn 1: "deadline: March 22"]');
      expect(lineOf(second, 'c')).toBe(venue);
    } finally {
      await store.close();
    }
  });

  it('pauses between the steps of reading a document afresh, and not for a view it keeps', async () => {
    const store = createSqliteStore({ path: ':memory:' });
    try {
      const path = store.tenant('default');
      const at = '2026-01-01T00:00:00Z';
      await path.sessions.create({ session: { id: 's', title: 'T', instructions: '', createdAt: at, updatedAt: at, messageCount: 0, turnCount: 0, tokenCount: 0 } });
      const fact = { id: 'f1', sessionId: 's', key: 'budget', text: 'budget: $900', kind: 'constraint' as const, pinned: false, sourceMessageIds: [], createdTurn: 1, updatedTurn: 1, createdAt: at, updatedAt: at };
      await path.facts.apply({ sessionId: 's', events: [{ id: 'e1', sessionId: 's', sequence: 1, factId: 'f1', op: 'add', key: 'budget', kind: 'constraint', oldText: null, newText: fact.text, turn: 1, actor: 'user', reason: 'set', sourceMessageIds: [], createdAt: at }], upserts: [fact], removedIds: [] });
      const steps: string[] = [];
      const reader = new CachedFactReader(path, createGptTokenizer());
      const pause = async (): Promise<void> => {
        steps.push('pause');
      };
      const view = await reader.read({ id: 's', createdAt: at }, pause);
      expect(view.facts.map((item) => item.text)).toEqual(['budget: $900']);
      // After listing the facts, and after reading when their turns were said.
      expect(steps).toEqual(['pause', 'pause']);
      expect(await reader.read({ id: 's', createdAt: at }, pause)).toBe(view);
      expect(steps).toHaveLength(2);
    } finally {
      await store.close();
    }
  });
});
