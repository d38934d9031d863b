import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { MessageIdCache } from '../../src/store/sqlite/message-id-cache.js';

const databases: Database.Database[] = [];

afterEach(() => {
  for (const db of databases.splice(0)) db.close();
});

/** The columns the cache reads, and a way to append messages as the store does (count in the same step). */
function store() {
  const db = new Database(':memory:');
  databases.push(db);
  db.exec(`CREATE TABLE sessions (tenant_id TEXT, id TEXT, message_count INTEGER, PRIMARY KEY (tenant_id, id));
    CREATE TABLE messages (seq INTEGER PRIMARY KEY, tenant_id TEXT, session_id TEXT, id TEXT, turn INTEGER, position INTEGER)`);
  const append = (sessionId: string, count: number, idPrefix = sessionId): void => {
    const positions = db.prepare<[string], number | null>("SELECT max(position) FROM messages WHERE tenant_id = 't' AND session_id = ?").pluck();
    let position = (positions.get(sessionId) ?? -1) + 1;
    db.prepare("INSERT INTO sessions VALUES ('t', ?, 0) ON CONFLICT DO NOTHING").run(sessionId);
    for (let index = 0; index < count; index += 1, position += 1) {
      db.prepare("INSERT INTO messages (tenant_id, session_id, id, turn, position) VALUES ('t', ?, ?, ?, ?)").run(sessionId, `${idPrefix}-${position}`, Math.floor(position / 2) + 1, position);
    }
    db.prepare("UPDATE sessions SET message_count = message_count + ? WHERE tenant_id = 't' AND id = ?").run(count, sessionId);
  };
  const remove = (sessionId: string): void => {
    db.prepare("DELETE FROM messages WHERE tenant_id = 't' AND session_id = ?").run(sessionId);
    db.prepare("DELETE FROM sessions WHERE tenant_id = 't' AND id = ?").run(sessionId);
  };
  const seqs = (sessionId: string): number[] =>
    db.prepare<[string], number>("SELECT seq FROM messages WHERE tenant_id = 't' AND session_id = ? ORDER BY position").pluck().all(sessionId);
  return { db, append, remove, seqs };
}

describe('MessageIdCache', () => {
  it('extends a session with what was appended since, and forgets a session that is gone', () => {
    const { db, append, remove, seqs } = store();
    const cache = new MessageIdCache(db, 't');
    append('a', 4);
    const first = cache.current('a');
    expect(first?.ids).toEqual(['a-0', 'a-1', 'a-2', 'a-3']);
    append('a', 2);
    const second = cache.current('a');
    expect(second).toBe(first);
    expect(second?.ids).toEqual(['a-0', 'a-1', 'a-2', 'a-3', 'a-4', 'a-5']);
    expect(seqs('a').map((seq) => second?.indexOfSeq(seq))).toEqual([0, 1, 2, 3, 4, 5]);
    remove('a');
    expect(cache.current('a')).toBeNull();
  });

  it('reads a session again when it was deleted and stored anew under the same ids (new rowids)', () => {
    const { db, append, remove, seqs } = store();
    const cache = new MessageIdCache(db, 't');
    append('a', 4);
    append('b', 2);
    const before = seqs('a');
    expect(cache.current('a')?.indexOfSeq(before[0] ?? 0)).toBe(0);
    remove('a');
    append('a', 4);
    const after = seqs('a');
    expect(after).not.toEqual(before);
    const entry = cache.current('a');
    expect(entry?.ids).toEqual(['a-0', 'a-1', 'a-2', 'a-3']);
    expect(after.map((seq) => entry?.indexOfSeq(seq))).toEqual([0, 1, 2, 3]);
    expect(before.map((seq) => entry?.indexOfSeq(seq))).toEqual([-1, -1, -1, -1]);
  });

  it('reads a session again when its last messages were replaced by others (a rollback, then other writes)', () => {
    const { db, append, seqs } = store();
    const cache = new MessageIdCache(db, 't');
    append('a', 2);
    append('a', 2, 'undone');
    expect(cache.current('a')?.ids.at(-1)).toBe('undone-3');
    db.prepare("DELETE FROM messages WHERE id LIKE 'undone-%'").run();
    db.prepare("UPDATE sessions SET message_count = 2 WHERE id = 'a'").run();
    append('a', 2, 'kept');
    const entry = cache.current('a');
    expect(entry?.ids).toEqual(['a-0', 'a-1', 'kept-2', 'kept-3']);
    expect(seqs('a').map((seq) => entry?.indexOfSeq(seq))).toEqual([0, 1, 2, 3]);
  });

  it('keeps at most the sessions it is allowed, least recently used going first', () => {
    const { db, append } = store();
    const cache = new MessageIdCache(db, 't', { maxSessions: 2, maxMessages: 1000 });
    for (const id of ['a', 'b', 'c']) append(id, 4);
    const a = cache.current('a');
    const b = cache.current('b');
    const c = cache.current('c');
    expect(cache.current('b')).toBe(b);
    expect(cache.current('c')).toBe(c);
    const again = cache.current('a');
    expect(again).not.toBe(a);
    expect(again?.ids).toEqual(['a-0', 'a-1', 'a-2', 'a-3']);
  });

  it('keeps at most the messages it is allowed, but always the session in use', () => {
    const { db, append } = store();
    const cache = new MessageIdCache(db, 't', { maxSessions: 10, maxMessages: 10 });
    append('a', 4);
    append('c', 4);
    append('big', 12);
    const a = cache.current('a');
    const c = cache.current('c');
    expect(cache.current('a')).toBe(a);
    // 12 messages alone are over the bound: both others go, the one in use stays.
    const big = cache.current('big');
    expect(big?.size).toBe(12);
    expect(cache.current('big')).toBe(big);
    expect(cache.current('c')).not.toBe(c);
    expect(cache.current('a')).not.toBe(a);
  });
});
