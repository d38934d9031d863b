import { describe, expect, it } from 'vitest';
import type { TurnMaterial } from '../../src/context/turn-options.js';
import { CachedTurnReader, type TurnReader } from '../../src/context/turn-reader.js';
import { TurnLines } from '../../src/context/turn-lines.js';

function material(turn: number, label: string): TurnMaterial {
  return { turn, summary: null, messages: [{ id: `${label}-${turn}` } as TurnMaterial['messages'][number]] };
}

/** A reader over a mutable store of turns, counting its reads. */
function countingReader(labels: Map<number, string>): TurnReader & { reads: number; gate?: Promise<void> } {
  const reader = {
    reads: 0,
    gate: undefined as Promise<void> | undefined,
    lines: new TurnLines(),
    read: async ({ fromTurn, toTurn }: { sessionId: string; fromTurn: number; toTurn: number }) => {
      reader.reads += 1;
      const snapshot = new Map(labels);
      await reader.gate;
      const result: TurnMaterial[] = [];
      for (let turn = fromTurn; turn <= toTurn; turn += 1) {
        const label = snapshot.get(turn);
        if (label !== undefined) result.push(material(turn, label));
      }
      return result;
    },
  };
  return reader;
}

const ids = (materials: TurnMaterial[]): string[] => materials.map((entry) => entry.messages[0]?.id ?? '');

describe('CachedTurnReader', () => {
  it('reads a range once, and again only for turns it was told changed', async () => {
    const labels = new Map([
      [1, 'old'],
      [2, 'old'],
      [4, 'old'],
    ]);
    const inner = countingReader(labels);
    const cache = new CachedTurnReader(inner);
    expect(ids(await cache.read({ sessionId: 's', fromTurn: 1, toTurn: 4 }))).toEqual(['old-1', 'old-2', 'old-4']);
    expect(ids(await cache.read({ sessionId: 's', fromTurn: 2, toTurn: 4 }))).toEqual(['old-2', 'old-4']);
    expect(inner.reads).toBe(1);
    labels.set(2, 'new');
    cache.forget('s', 2);
    expect(ids(await cache.read({ sessionId: 's', fromTurn: 1, toTurn: 4 }))).toEqual(['old-1', 'new-2', 'old-4']);
    expect(inner.reads).toBe(2);
    // Another session is read on its own.
    await cache.read({ sessionId: 't', fromTurn: 1, toTurn: 1 });
    expect(inner.reads).toBe(3);
  });

  it('does not keep what a read saw when a write happened while it ran', async () => {
    const labels = new Map([[1, 'old']]);
    const inner = countingReader(labels);
    const cache = new CachedTurnReader(inner);
    let release: () => void = () => undefined;
    inner.gate = new Promise((resolve) => {
      release = resolve;
    });
    const reading = cache.read({ sessionId: 's', fromTurn: 1, toTurn: 1 });
    labels.set(1, 'new');
    cache.forget('s', 1);
    release();
    expect(ids(await reading)).toEqual(['old-1']);
    inner.gate = undefined;
    expect(ids(await cache.read({ sessionId: 's', fromTurn: 1, toTurn: 1 }))).toEqual(['new-1']);
  });

  it('keeps the other turns of a read that overlapped a write of one turn', async () => {
    const labels = new Map([
      [1, 'old'],
      [2, 'old'],
    ]);
    const inner = countingReader(labels);
    const cache = new CachedTurnReader(inner);
    let release: () => void = () => undefined;
    inner.gate = new Promise((resolve) => {
      release = resolve;
    });
    const reading = cache.read({ sessionId: 's', fromTurn: 1, toTurn: 2 });
    labels.set(2, 'new');
    cache.forget('s', 2);
    release();
    await reading;
    inner.gate = undefined;
    expect(ids(await cache.read({ sessionId: 's', fromTurn: 1, toTurn: 1 }))).toEqual(['old-1']);
    expect(inner.reads).toBe(1);
    expect(ids(await cache.read({ sessionId: 's', fromTurn: 1, toTurn: 2 }))).toEqual(['old-1', 'new-2']);
    expect(inner.reads).toBe(2);
  });

  it('keeps a bounded number of sessions, dropping the least recently used', async () => {
    const inner = countingReader(new Map([[1, 'x']]));
    const cache = new CachedTurnReader(inner, { maxSessions: 2 });
    for (const session of ['a', 'b', 'a', 'c', 'a']) await cache.read({ sessionId: session, fromTurn: 1, toTurn: 1 });
    // a, b, (a cached), c evicts b, (a cached).
    expect(inner.reads).toBe(3);
    await cache.read({ sessionId: 'b', fromTurn: 1, toTurn: 1 });
    expect(inner.reads).toBe(4);
  });

  it('keeps its turns within its bound in bytes: other sessions go first, then the oldest turns of the one read', async () => {
    const labels = new Map(Array.from({ length: 200 }, (_, index) => [index + 1, 'turn'] as [number, string]));
    const inner = countingReader(labels);
    const probe = new CachedTurnReader(countingReader(labels));
    await probe.read({ sessionId: 'p', fromTurn: 1, toTurn: 10 });
    const tenTurns = probe.bytes;
    expect(tenTurns).toBeGreaterThan(0);
    // Room for about 30 turns.
    const cache = new CachedTurnReader(inner, { maxBytes: tenTurns * 3 });
    await cache.read({ sessionId: 'a', fromTurn: 1, toTurn: 20 });
    await cache.read({ sessionId: 'b', fromTurn: 1, toTurn: 20 });
    // Session a went whole; b is still cached.
    expect(cache.bytes).toBeLessThanOrEqual(tenTurns * 3);
    await cache.read({ sessionId: 'b', fromTurn: 1, toTurn: 20 });
    expect(inner.reads).toBe(2);
    await cache.read({ sessionId: 'a', fromTurn: 1, toTurn: 1 });
    expect(inner.reads).toBe(3);
    // One session larger than the bound: every turn is returned, the newest are kept.
    const all = await cache.read({ sessionId: 'c', fromTurn: 1, toTurn: 200 });
    expect(all).toHaveLength(200);
    expect(cache.bytes).toBeLessThanOrEqual(tenTurns * 3);
    const reads = inner.reads;
    await cache.read({ sessionId: 'c', fromTurn: 190, toTurn: 200 });
    expect(inner.reads).toBe(reads);
    await cache.read({ sessionId: 'c', fromTurn: 1, toTurn: 1 });
    expect(inner.reads).toBe(reads + 1);
    // Forgetting gives the bytes back.
    cache.forget('c');
    expect(cache.bytes).toBe(0);
  });

  it('reads scattered listed turns near each of them, not their whole span', async () => {
    const labels = new Map(Array.from({ length: 300 }, (_, index) => [index + 1, 'turn'] as [number, string]));
    const inner = countingReader(labels);
    const cache = new CachedTurnReader(inner);
    const found = await cache.readTurns({ sessionId: 's', turns: [200, 1, 100, 103] });
    expect([...found.keys()].sort((a, b) => a - b)).toEqual([1, 100, 103, 200]);
    // Three runs (100 and 103 read together), and nothing between them.
    expect(inner.reads).toBe(3);
    const probe = new CachedTurnReader(countingReader(labels));
    for (const [fromTurn, toTurn] of [[1, 1], [100, 103], [200, 200]] as const) await probe.read({ sessionId: 's', fromTurn, toTurn });
    expect(cache.bytes).toBe(probe.bytes);
    await cache.readTurns({ sessionId: 's', turns: [50] });
    expect(inner.reads).toBe(4);
  });

  it('reads listed turns from the cache one by one, and reads the store only for turns it lacks', async () => {
    const labels = new Map([
      [1, 'old'],
      [3, 'old'],
      [5, 'old'],
      [9, 'old'],
    ]);
    const inner = countingReader(labels);
    const cache = new CachedTurnReader(inner);
    const listed = async (turns: number[]): Promise<Array<[number, string]>> =>
      [...(await cache.readTurns({ sessionId: 's', turns }))]
        .map(([turn, found]): [number, string] => [turn, found.messages[0]?.id ?? ''])
        .sort((a, b) => a[0] - b[0]);
    // Nothing cached: the listed turns come from one read of their span; turn 4 has no messages.
    expect(await listed([5, 1, 4, 5])).toEqual([
      [1, 'old-1'],
      [5, 'old-5'],
    ]);
    expect(inner.reads).toBe(1);
    // Cached now (turn 4 as known to be empty): no read.
    expect(await listed([4, 3, 1, 3])).toEqual([
      [1, 'old-1'],
      [3, 'old-3'],
    ]);
    expect(inner.reads).toBe(1);
    // A turn told changed, and one never read, are read again; the rest stay cached.
    labels.set(3, 'new');
    cache.forget('s', 3);
    expect(await listed([9, 3, 1])).toEqual([
      [1, 'old-1'],
      [3, 'new-3'],
      [9, 'old-9'],
    ]);
    expect(inner.reads).toBe(3);
    expect((await cache.readTurns({ sessionId: 's', turns: [] })).size).toBe(0);
  });
});

/** What another process sharing the store wrote: each write gives its turns the next revision. */
function sharedJournal(): { write(turns: number[]): void; changes(options: { sessionId: string; after?: number }): Promise<{ revision: number; turns: number[] }>; asked: number } {
  const revisions = new Map<number, number>();
  let latest = 0;
  const journal = {
    asked: 0,
    write: (turns: number[]) => {
      latest += 1;
      for (const turn of turns) revisions.set(turn, latest);
    },
    changes: async ({ after }: { sessionId: string; after?: number }) => {
      journal.asked += 1;
      const turns = after === undefined ? [] : [...revisions].filter(([, revision]) => revision > after).map(([turn]) => turn);
      return { revision: latest, turns: turns.sort((a, b) => a - b) };
    },
  };
  return journal;
}

describe('CachedTurnReader, beside other processes sharing the store', () => {
  const session = { id: 's', createdAt: '2026-03-01T10:00:00.000Z' };

  it('reads again, at sync, only the turns another process wrote since it last looked', async () => {
    const labels = new Map([
      [1, 'old'],
      [2, 'old'],
      [3, 'old'],
    ]);
    const inner = countingReader(labels);
    const journal = sharedJournal();
    journal.write([1, 2, 3]);
    const cache = new CachedTurnReader(inner, {}, journal);
    await cache.sync(session);
    expect(ids(await cache.read({ sessionId: 's', fromTurn: 1, toTurn: 3 }))).toEqual(['old-1', 'old-2', 'old-3']);
    // Another process lands a retry on turn 2: unseen until the next sync, which costs one question.
    labels.set(2, 'new');
    journal.write([2]);
    expect(ids(await cache.read({ sessionId: 's', fromTurn: 1, toTurn: 3 }))).toEqual(['old-1', 'old-2', 'old-3']);
    await cache.sync(session);
    expect(ids(await cache.read({ sessionId: 's', fromTurn: 1, toTurn: 3 }))).toEqual(['old-1', 'new-2', 'old-3']);
    expect(inner.reads).toBe(2);
    // Nothing written since: nothing is read again.
    await cache.sync(session);
    expect(ids(await cache.read({ sessionId: 's', fromTurn: 1, toTurn: 3 }))).toEqual(['old-1', 'new-2', 'old-3']);
    expect(inner.reads).toBe(2);
    expect(journal.asked).toBe(3);
  });

  it('forgets every turn of a session deleted and made again under its id, and turns cached before any sync', async () => {
    const labels = new Map([
      [1, 'old'],
      [2, 'old'],
    ]);
    const inner = countingReader(labels);
    const cache = new CachedTurnReader(inner, {}, sharedJournal());
    // Read before any sync: the cache cannot tell how fresh these are.
    await cache.read({ sessionId: 's', fromTurn: 1, toTurn: 2 });
    labels.set(1, 'new');
    await cache.sync(session);
    expect(ids(await cache.read({ sessionId: 's', fromTurn: 1, toTurn: 2 }))).toEqual(['new-1', 'old-2']);
    labels.set(2, 'remade');
    await cache.sync({ ...session, createdAt: '2026-03-02T10:00:00.000Z' });
    expect(ids(await cache.read({ sessionId: 's', fromTurn: 1, toTurn: 2 }))).toEqual(['new-1', 'remade-2']);
    expect(inner.reads).toBe(3);
  });
});
