/**
 * The Store contract: every adapter (SQLite now, PostgreSQL later) must pass these tests.
 *
 * An adapter's test file calls `describeStoreContract(name, openStore)`; `openStore` returns a fresh,
 * empty store and a cleanup that closes it and removes whatever it created. Each test gets its own store.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { replayFactEvents } from '../../src/core/diff.js';
import { isStrataError } from '../../src/core/errors.js';
import type {
  Artifact,
  ArtifactVersion,
  Fact,
  FactEvent,
  FactEventOp,
  FactKind,
  Message,
  Role,
  Session,
  Tier,
  TurnSummary,
} from '../../src/core/types.js';
import type { MemoryRetry, SearchHit, Store, TenantRepositories, TenantStore } from '../../src/store/store.js';
import { deferred } from '../support/deferred.js';
import { searchArchive } from '../../src/store/archive-query.js';

export type OpenStore = () => Promise<{ store: Store; cleanup: () => Promise<void> }>;

/** A fresh store for each test of the enclosing `describe`, closed after it; gives a getter for that test's store. */
export function storePerTest(openStore: OpenStore): () => Store {
  let store: Store | undefined;
  let cleanup: () => Promise<void> = async () => undefined;
  beforeEach(async () => {
    ({ store, cleanup } = await openStore());
  });
  afterEach(async () => {
    await cleanup();
  });
  return () => {
    if (store === undefined) throw new Error('storePerTest: the store is opened before each test; use it inside one.');
    return store;
  };
}

/** A fresh store for each test of the enclosing `describe`, closed after it; gives that test's tenant `tenantId`. */
export function tenantPerTest(openStore: OpenStore, tenantId = 'tenant-alpha'): () => TenantStore {
  const current = storePerTest(openStore);
  return () => current().tenant(tenantId);
}

// ---------------------------------------------------------------------------------------------
// Fixtures
// ---------------------------------------------------------------------------------------------

const BASE_TIME = Date.UTC(2025, 2, 1, 9, 0, 0);

/** A deterministic ISO-8601 time `minutes` after the fixture epoch. */
export function at(minutes: number): string {
  return new Date(BASE_TIME + minutes * 60_000).toISOString();
}

function wordTokens(text: string): number {
  const trimmed = text.trim();
  return trimmed === '' ? 0 : trimmed.split(/\s+/u).length;
}

export function makeSession(id: string, fields: Partial<Session> = {}): Session {
  return {
    id,
    title: `Conversation ${id}`,
    instructions: '',
    createdAt: at(0),
    updatedAt: at(0),
    messageCount: 0,
    turnCount: 0,
    tokenCount: 0,
    ...fields,
  };
}

export interface MessageFields {
  id?: string;
  turn: number;
  position: number;
  role: Role;
  content: string;
  speaker?: string | null;
  externalId?: string | null;
  requiredTier?: Tier;
  sentAt?: string | null;
}

/** Message ids are derived from the session and position, so they are unique within a tenant. */
export function messageId(sessionId: string, position: number): string {
  return `${sessionId}-m${String(position).padStart(3, '0')}`;
}

export function makeMessage(sessionId: string, fields: MessageFields): Message {
  const tier3 = wordTokens(fields.content);
  const firstWords = fields.content.split(/\s+/u).slice(0, 4).join(' ');
  return {
    id: fields.id ?? messageId(sessionId, fields.position),
    sessionId,
    turn: fields.turn,
    position: fields.position,
    role: fields.role,
    speaker: fields.speaker ?? null,
    content: fields.content,
    tier1: `topic = ${firstWords}`,
    tier2: `${fields.role === 'user' ? 'User' : 'Assistant'} says: ${firstWords}`,
    tokens: { tier1: Math.max(1, Math.ceil(tier3 * 0.15)), tier2: Math.max(1, Math.ceil(tier3 * 0.35)), tier3 },
    requiredTier: fields.requiredTier ?? 2,
    createdAt: at(fields.position + 1),
    sentAt: fields.sentAt === undefined ? at(fields.position + 1) : fields.sentAt,
    externalId: fields.externalId ?? null,
  };
}

/** The two messages of one turn (user then assistant) at positions 2(turn-1) and 2(turn-1)+1. */
export function makeExchange(sessionId: string, turn: number, user: string, assistant: string): Message[] {
  const position = (turn - 1) * 2;
  return [
    makeMessage(sessionId, { turn, position, role: 'user', content: user }),
    makeMessage(sessionId, { turn, position: position + 1, role: 'assistant', content: assistant }),
  ];
}

/** Create a session and append one exchange per entry (turn n at updatedAt = at(10n)). */
export async function seedSession(
  repositories: TenantRepositories,
  sessionId: string,
  exchanges: ReadonlyArray<readonly [string, string]>,
  fields: Partial<Session> = {},
): Promise<Message[]> {
  await repositories.sessions.create({ session: makeSession(sessionId, fields) });
  const all: Message[] = [];
  for (const [index, [user, assistant]] of exchanges.entries()) {
    const turn = index + 1;
    const messages = makeExchange(sessionId, turn, user, assistant);
    await repositories.messages.append({ sessionId, messages, updatedAt: at(turn * 10) });
    all.push(...messages);
  }
  return all;
}

export function makeTurnSummary(sessionId: string, turn: number, fields: Partial<TurnSummary> = {}): TurnSummary {
  const position = (turn - 1) * 2;
  return {
    sessionId,
    turn,
    messageIds: [messageId(sessionId, position), messageId(sessionId, position + 1)],
    userSummary: `User asks about step ${turn}.`,
    assistantSummary: `Assistant explains step ${turn}.`,
    depth: 'short',
    status: 'summarised',
    windowExtension: 0,
    tokens: 40 + turn,
    createdAt: at(turn * 10 + 1),
    ...fields,
  };
}

/** A memory-retry queue entry for a turn that timed out once, due 5 minutes after the turn. */
export function makeRetry(sessionId: string, turn: number, fields: Partial<MemoryRetry> = {}): MemoryRetry {
  return {
    sessionId,
    turn,
    attempts: 1,
    nextAttemptAt: at(turn * 10 + 5),
    reason: 'timeout',
    lastError: 'The memory model did not answer within 30000 ms.',
    createdAt: at(turn * 10 + 1),
    updatedAt: at(turn * 10 + 1),
    ...fields,
  };
}

export function makeVersion(turn: number, messageIdValue: string, content: string): Omit<ArtifactVersion, 'artifactId' | 'version'> {
  return { turn, messageId: messageIdValue, content, tokens: wordTokens(content), createdAt: at(turn * 10 + 2) };
}

/**
 * A test-side model of the base-truth document that produces consistent fact events and projection
 * changes, batch by batch, the way the engine persists them with `facts.apply`.
 */
export class FactScript {
  private readonly facts = new Map<string, Fact>();
  private sequence = 0;
  private events: FactEvent[] = [];
  private upserts = new Map<string, Fact>();
  private removed: string[] = [];

  constructor(private readonly sessionId: string) {}

  /** The facts the model holds now, oldest first (created turn, then id). */
  current(): Fact[] {
    return [...this.facts.values()].sort((a, b) => a.createdTurn - b.createdTurn || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  private event(turn: number, op: FactEventOp, fields: Pick<FactEvent, 'factId' | 'key' | 'kind' | 'oldText' | 'newText' | 'sourceMessageIds' | 'mayReplace'>, reason: string): void {
    this.sequence += 1;
    this.events.push({
      id: `${this.sessionId}-ev${String(this.sequence).padStart(3, '0')}`,
      sessionId: this.sessionId,
      sequence: this.sequence,
      turn,
      actor: 'local',
      reason,
      createdAt: at(turn * 10 + 3),
      op,
      ...fields,
    });
  }

  /** Add a fact; `mayReplace` names an older fact it may replace. */
  add(turn: number, factId: string, key: string, text: string, kind: FactKind, sources: string[], mayReplace?: string): this {
    const doubt = mayReplace === undefined ? {} : { mayReplace };
    const fact: Fact = {
      id: factId,
      sessionId: this.sessionId,
      key,
      text,
      kind,
      pinned: kind === 'exception',
      sourceMessageIds: sources,
      createdTurn: turn,
      updatedTurn: turn,
      createdAt: at(turn * 10 + 3),
      updatedAt: at(turn * 10 + 3),
      ...doubt,
    };
    this.facts.set(factId, fact);
    this.upserts.set(factId, fact);
    this.event(turn, 'add', { factId, key, kind, oldText: null, newText: text, sourceMessageIds: sources, ...doubt }, 'added');
    return this;
  }

  update(turn: number, factId: string, text: string, kind: FactKind, sources: string[]): this {
    const old = this.facts.get(factId);
    if (old === undefined) throw new Error(`fixture: no fact ${factId} to update`);
    const fact: Fact = {
      ...old,
      text,
      kind,
      pinned: kind === 'exception',
      sourceMessageIds: sources,
      updatedTurn: turn,
      updatedAt: at(turn * 10 + 3),
    };
    this.facts.set(factId, fact);
    this.upserts.set(factId, fact);
    this.event(turn, 'update', { factId, key: old.key, kind, oldText: old.text, newText: text, sourceMessageIds: sources }, 'updated');
    return this;
  }

  remove(turn: number, factId: string, sources: string[]): this {
    const old = this.facts.get(factId);
    if (old === undefined) throw new Error(`fixture: no fact ${factId} to remove`);
    this.facts.delete(factId);
    this.upserts.delete(factId);
    this.removed.push(factId);
    this.event(turn, 'remove', { factId, key: old.key, kind: old.kind, oldText: old.text, newText: null, sourceMessageIds: sources }, 'user retracted it');
    return this;
  }

  reject(turn: number, key: string, text: string): this {
    this.event(turn, 'reject', { factId: null, key, kind: 'fact', oldText: null, newText: text, sourceMessageIds: [] }, 'not grounded in the exchange');
    return this;
  }

  /** The pending batch, ready for `facts.apply`; the script starts a new batch. */
  flush(): { sessionId: string; events: FactEvent[]; upserts: Fact[]; removedIds: string[] } {
    const batch = { sessionId: this.sessionId, events: this.events, upserts: [...this.upserts.values()], removedIds: this.removed };
    this.events = [];
    this.upserts = new Map();
    this.removed = [];
    return batch;
  }
}

function byName(artifacts: Artifact[]): Artifact[] {
  return [...artifacts].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

function hitIds(hits: readonly SearchHit[]): Array<{ messageId: string; turn: number }> {
  return hits.map((hit) => ({ messageId: hit.messageId, turn: hit.turn }));
}

const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));

const GARDEN: ReadonlyArray<readonly [string, string]> = [
  ['I started painting watercolor landscapes last spring.', 'Watercolor is a lovely medium for landscapes; wet-on-wet works well for skies.'],
  ['My neighbour wants me to paint the garden fence blue.', 'A weatherproof exterior paint will keep the fence blue for years.'],
  ['Which tomatoes grow best on a sunny balcony?', 'Cherry tomatoes such as Sungold thrive in pots on a sunny balcony.'],
  ['How often should I water them in July?', 'Water deeply every morning in July, more often during a heatwave.'],
];

// ---------------------------------------------------------------------------------------------
// The suite
// ---------------------------------------------------------------------------------------------

export function describeStoreContract(name: string, openStore: OpenStore): void {
  describe(`Store contract: ${name}`, () => {
    let store: Store;
    let cleanup: () => Promise<void>;
    let tenant: TenantStore;

    beforeEach(async () => {
      ({ store, cleanup } = await openStore());
      tenant = store.tenant('tenant-alpha');
    });

    afterEach(async () => {
      await cleanup();
    });

    describe('sessions', () => {
      it('creates a session and gets it back unchanged', async () => {
        const session = makeSession('s-create', { title: 'Trip to Lisbon', instructions: 'Answer in British English.' });
        await tenant.sessions.create({ session });
        expect(await tenant.sessions.get({ sessionId: 's-create' })).toEqual(session);
      });

      it('returns null for an unknown session', async () => {
        expect(await tenant.sessions.get({ sessionId: 'nope' })).toBeNull();
      });

      it('rejects a second session with an existing id and keeps the first', async () => {
        const session = makeSession('s-dup', { title: 'First' });
        await tenant.sessions.create({ session });
        await expect(tenant.sessions.create({ session: makeSession('s-dup', { title: 'Second' }) })).rejects.toMatchObject({ code: 'SESSION_EXISTS' });
        // A session still being imported holds its id too.
        await tenant.sessions.create({ session: makeSession('s-hidden'), importUntil: at(99) });
        await expect(tenant.sessions.create({ session: makeSession('s-hidden') })).rejects.toMatchObject({ code: 'SESSION_EXISTS' });
        expect((await tenant.sessions.get({ sessionId: 's-dup' }))?.title).toBe('First');
      });

      it('lists the most recently updated first, with limit and offset', async () => {
        await tenant.sessions.create({ session: makeSession('s-old', { updatedAt: at(1) }) });
        await tenant.sessions.create({ session: makeSession('s-new', { updatedAt: at(3) }) });
        await tenant.sessions.create({ session: makeSession('s-mid', { updatedAt: at(2) }) });
        const ids = async (limit: number, offset?: number): Promise<string[]> =>
          (await tenant.sessions.list({ limit, offset })).map((session) => session.id);
        expect(await ids(10)).toEqual(['s-new', 's-mid', 's-old']);
        expect(await ids(2)).toEqual(['s-new', 's-mid']);
        expect(await ids(2, 1)).toEqual(['s-mid', 's-old']);
        expect(await ids(10, 3)).toEqual([]);

        // Appending messages makes a session the most recently updated.
        await tenant.messages.append({ sessionId: 's-old', messages: makeExchange('s-old', 1, 'hello', 'hi'), updatedAt: at(5) });
        expect(await ids(10)).toEqual(['s-old', 's-new', 's-mid']);
      });

      it('updates the title and the instructions independently', async () => {
        await tenant.sessions.create({ session: makeSession('s-up', { title: 'Draft', instructions: 'Be brief.' }) });

        expect(await tenant.sessions.update({ sessionId: 's-up', title: 'Kitchen renovation', updatedAt: at(7) })).toBe(true);
        let session = await tenant.sessions.get({ sessionId: 's-up' });
        expect(session).toMatchObject({ title: 'Kitchen renovation', instructions: 'Be brief.', updatedAt: at(7), createdAt: at(0) });

        expect(await tenant.sessions.update({ sessionId: 's-up', instructions: 'Quote prices in euros.', updatedAt: at(8) })).toBe(true);
        session = await tenant.sessions.get({ sessionId: 's-up' });
        expect(session).toMatchObject({ title: 'Kitchen renovation', instructions: 'Quote prices in euros.', updatedAt: at(8) });

        expect(await tenant.sessions.update({ sessionId: 's-up', instructions: '', updatedAt: at(9) })).toBe(true);
        expect((await tenant.sessions.get({ sessionId: 's-up' }))?.instructions).toBe('');
      });

      it('update returns false for an unknown session', async () => {
        expect(await tenant.sessions.update({ sessionId: 'missing', title: 'x', updatedAt: at(1) })).toBe(false);
      });

      it('deletes a session; deleting an unknown one returns false', async () => {
        await tenant.sessions.create({ session: makeSession('s-del') });
        expect(await tenant.sessions.delete({ sessionId: 's-del' })).toBe(true);
        expect(await tenant.sessions.get({ sessionId: 's-del' })).toBeNull();
        expect(await tenant.sessions.delete({ sessionId: 's-del' })).toBe(false);
        expect(await tenant.sessions.delete({ sessionId: 'never-existed' })).toBe(false);
      });

      it('hides a session being imported from get and list until its import finishes, while its writes land', async () => {
        await tenant.sessions.create({ session: makeSession('s-visible', { updatedAt: at(1) }) });
        await tenant.sessions.create({ session: makeSession('s-importing', { updatedAt: at(2) }), importUntil: at(60) });
        await tenant.messages.append({ sessionId: 's-importing', messages: makeExchange('s-importing', 1, 'hello', 'hi'), updatedAt: at(3) });
        expect(await tenant.sessions.get({ sessionId: 's-importing' })).toBeNull();
        expect((await tenant.sessions.list({ limit: 10 })).map((session) => session.id)).toEqual(['s-visible']);
        // The id is taken all the same.
        await expect(tenant.sessions.create({ session: makeSession('s-importing') })).rejects.toThrow();

        expect(await tenant.sessions.renewImport({ sessionId: 's-importing', until: at(90) })).toBe(true);
        expect(await tenant.sessions.finishImport({ sessionId: 's-importing', updatedAt: at(4) })).toBe(true);
        expect(await tenant.sessions.get({ sessionId: 's-importing' })).toMatchObject({ messageCount: 2, turnCount: 1, updatedAt: at(4) });
        expect((await tenant.sessions.list({ limit: 10 })).map((session) => session.id)).toEqual(['s-importing', 's-visible']);
        // A finished import is no longer renewed, nor removed as abandoned.
        expect(await tenant.sessions.renewImport({ sessionId: 's-importing', until: at(90) })).toBe(false);
        expect(await tenant.sessions.removeAbandonedImports({ now: at(1000) })).toEqual([]);
        expect(await tenant.sessions.finishImport({ sessionId: 'never-existed', updatedAt: at(5) })).toBe(false);
      });

      it('removes the sessions whose import stopped before now, with their messages, and only those', async () => {
        await tenant.sessions.create({ session: makeSession('s-stopped'), importUntil: at(10) });
        await tenant.sessions.create({ session: makeSession('s-running'), importUntil: at(30) });
        await tenant.messages.append({ sessionId: 's-stopped', messages: makeExchange('s-stopped', 1, 'the gazebo budget', 'noted'), updatedAt: at(1) });
        expect(await tenant.search.termFrequencies({ terms: ['gazebo'] })).toEqual([1]);
        expect(await tenant.sessions.removeAbandonedImports({ now: at(20) })).toEqual(['s-stopped']);
        expect(await tenant.sessions.renewImport({ sessionId: 's-stopped', until: at(40) })).toBe(false);
        expect(await tenant.messages.list({ sessionId: 's-stopped' })).toEqual([]);
        expect(await tenant.search.termFrequencies({ terms: ['gazebo'] })).toEqual([0]);
        expect(await tenant.sessions.renewImport({ sessionId: 's-running', until: at(40) })).toBe(true);
        expect(await tenant.sessions.removeAbandonedImports({ now: at(35) })).toEqual([]);
      });

      it('messages.append bumps messageCount, turnCount, tokenCount and updatedAt', async () => {
        await tenant.sessions.create({ session: makeSession('s-count') });
        const turn1 = makeExchange('s-count', 1, 'Plan a three day trip to Porto.', 'Day one: Ribeira and the Dom Luís bridge.');
        await tenant.messages.append({ sessionId: 's-count', messages: turn1, updatedAt: at(10) });
        const tokens1 = turn1.reduce((sum, message) => sum + message.tokens.tier3, 0);
        expect(await tenant.sessions.get({ sessionId: 's-count' })).toMatchObject({
          messageCount: 2,
          turnCount: 1,
          tokenCount: tokens1,
          updatedAt: at(10),
        });

        const turn2 = makeExchange('s-count', 2, 'And day two?', 'Day two: Livraria Lello, then a port cellar in Gaia.');
        await tenant.messages.append({ sessionId: 's-count', messages: turn2.slice(0, 1), updatedAt: at(20) });
        await tenant.messages.append({ sessionId: 's-count', messages: turn2.slice(1), updatedAt: at(21) });
        const tokens2 = turn2.reduce((sum, message) => sum + message.tokens.tier3, 0);
        expect(await tenant.sessions.get({ sessionId: 's-count' })).toMatchObject({
          messageCount: 4,
          turnCount: 2,
          tokenCount: tokens1 + tokens2,
          updatedAt: at(21),
        });
      });
    });

    describe('messages', () => {
      it('lists appended messages in position order, with limit and offset', async () => {
        await tenant.sessions.create({ session: makeSession('s-msg') });
        const messages = [...makeExchange('s-msg', 1, 'first question', 'first answer'), ...makeExchange('s-msg', 2, 'second question', 'second answer')];
        // Appended out of order: the store orders by position.
        const [m0, m1, m2, m3] = messages as [Message, Message, Message, Message];
        await tenant.messages.append({ sessionId: 's-msg', messages: [m2, m0, m3, m1], updatedAt: at(10) });

        expect(await tenant.messages.list({ sessionId: 's-msg' })).toEqual(messages);
        expect(await tenant.messages.list({ sessionId: 's-msg', limit: 2 })).toEqual([m0, m1]);
        expect(await tenant.messages.list({ sessionId: 's-msg', limit: 2, offset: 1 })).toEqual([m1, m2]);
        expect(await tenant.messages.list({ sessionId: 's-msg', offset: 3 })).toEqual([m3]);
        expect(await tenant.messages.list({ sessionId: 'no-such-session' })).toEqual([]);
      });

      it('keeps tool calls and the call a tool result answers, and finds a call by its tool and arguments', async () => {
        await tenant.sessions.create({ session: makeSession('s-tools') });
        const calls = [
          { id: 'call_1', name: 'get_weather', arguments: '{"city":"Lisbon","unit":"celsius"}' },
          { id: 'call_2', name: 'find_hotel', arguments: '{}' },
        ];
        const messages: Message[] = [
          makeMessage('s-tools', { turn: 1, position: 0, role: 'user', content: 'Plan my Lisbon weekend.' }),
          { ...makeMessage('s-tools', { turn: 1, position: 1, role: 'assistant', content: '' }), toolCalls: calls },
          { ...makeMessage('s-tools', { turn: 1, position: 2, role: 'tool', content: '{"celsius":21}' }), toolCallId: 'call_1' },
          { ...makeMessage('s-tools', { turn: 1, position: 3, role: 'tool', content: '' }), toolCallId: 'call_2' },
          makeMessage('s-tools', { turn: 1, position: 4, role: 'assistant', content: 'Sunny, 21 degrees.' }),
        ];
        await tenant.messages.append({ sessionId: 's-tools', messages, updatedAt: at(10) });
        expect(await tenant.messages.list({ sessionId: 's-tools' })).toEqual(messages);
        expect(await tenant.messages.getMany({ sessionId: 's-tools', messageIds: [messages[1]!.id, messages[3]!.id] })).toEqual([messages[1], messages[3]]);
        const found = await searchArchive(tenant.search, { sessionId: 's-tools', query: 'find_hotel', limit: 5 });
        expect(found.map((hit) => hit.messageId)).toEqual([messages[1]!.id]);
      });

      it('listByTurns returns an inclusive turn range in position order', async () => {
        const messages = await seedSession(tenant, 's-turns', GARDEN);
        expect(await tenant.messages.listByTurns({ sessionId: 's-turns', fromTurn: 2, toTurn: 3 })).toEqual(messages.slice(2, 6));
        expect(await tenant.messages.listByTurns({ sessionId: 's-turns', fromTurn: 4, toTurn: 4 })).toEqual(messages.slice(6, 8));
        expect(await tenant.messages.listByTurns({ sessionId: 's-turns', fromTurn: 1, toTurn: 99 })).toEqual(messages);
        expect(await tenant.messages.listByTurns({ sessionId: 's-turns', fromTurn: 5, toTurn: 9 })).toEqual([]);
      });

      it('getMany returns messages in position order and ignores unknown ids', async () => {
        const messages = await seedSession(tenant, 's-many', GARDEN);
        const wanted = [messages[5], messages[0], messages[3]] as Message[];
        const found = await tenant.messages.getMany({
          sessionId: 's-many',
          messageIds: [wanted[0]!.id, 'unknown-id', wanted[1]!.id, wanted[2]!.id, wanted[0]!.id],
        });
        expect(found).toEqual([messages[0], messages[3], messages[5]]);
        expect(await tenant.messages.getMany({ sessionId: 's-many', messageIds: [] })).toEqual([]);
        expect(await tenant.messages.getMany({ sessionId: 's-many', messageIds: ['x', 'y'] })).toEqual([]);
      });

      it('getMany does not return messages of another session of the same tenant', async () => {
        const first = await seedSession(tenant, 's-one', GARDEN.slice(0, 1));
        await seedSession(tenant, 's-two', GARDEN.slice(1, 2));
        expect(await tenant.messages.getMany({ sessionId: 's-two', messageIds: first.map((message) => message.id) })).toEqual([]);
      });

      it('updateTiers replaces tiers, token counts and requiredTier', async () => {
        const messages = await seedSession(tenant, 's-tiers', GARDEN.slice(0, 2));
        const target = messages[1]!;
        await tenant.messages.updateTiers({
          sessionId: 's-tiers',
          updates: [
            {
              messageId: target.id,
              tier1: 'medium = watercolor; technique = wet-on-wet',
              tier2: 'Recommends watercolor, wet-on-wet for skies.',
              tokens: { tier1: 6, tier2: 9, tier3: target.tokens.tier3 },
              requiredTier: 3,
            },
          ],
        });
        const [updated] = await tenant.messages.getMany({ sessionId: 's-tiers', messageIds: [target.id] });
        expect(updated).toEqual({
          ...target,
          tier1: 'medium = watercolor; technique = wet-on-wet',
          tier2: 'Recommends watercolor, wet-on-wet for skies.',
          tokens: { tier1: 6, tier2: 9, tier3: target.tokens.tier3 },
          requiredTier: 3,
        });
        // Other messages are untouched.
        const all = await tenant.messages.list({ sessionId: 's-tiers' });
        expect(all.filter((message) => message.id !== target.id)).toEqual(messages.filter((message) => message.id !== target.id));
      });

      it('last() is turn 0, position -1 on an empty session and the latest otherwise', async () => {
        await tenant.sessions.create({ session: makeSession('s-last') });
        expect(await tenant.messages.last({ sessionId: 's-last' })).toEqual({ turn: 0, position: -1 });
        expect(await tenant.messages.last({ sessionId: 'unknown-session' })).toEqual({ turn: 0, position: -1 });
        await tenant.messages.append({ sessionId: 's-last', messages: makeExchange('s-last', 1, 'hi', 'hello'), updatedAt: at(10) });
        await tenant.messages.append({ sessionId: 's-last', messages: makeExchange('s-last', 2, 'more', 'sure').slice(0, 1), updatedAt: at(20) });
        expect(await tenant.messages.last({ sessionId: 's-last' })).toEqual({ turn: 2, position: 2 });
      });

      it('countUpToTurn counts the messages of turns up to toTurn, and none of an unknown session', async () => {
        const messages = await seedSession(tenant, 's-ids', GARDEN);
        expect(messages.length).toBe(8);
        expect(await tenant.messages.countUpToTurn({ sessionId: 's-ids', toTurn: 2 })).toBe(4);
        expect(await tenant.messages.countUpToTurn({ sessionId: 's-ids', toTurn: 3 })).toBe(6);
        expect(await tenant.messages.countUpToTurn({ sessionId: 's-ids', toTurn: 0 })).toBe(0);
        expect(await tenant.messages.countUpToTurn({ sessionId: 's-ids', toTurn: 100 })).toBe(8);
        expect(await tenant.messages.countUpToTurn({ sessionId: 'unknown-session', toTurn: 100 })).toBe(0);
      });

      it('sentTimes gives each listed turn the time of its first message with one, and leaves out turns without', async () => {
        await tenant.sessions.create({ session: makeSession('s-times') });
        const first = makeExchange('s-times', 1, 'budget is 40k', 'noted');
        const second = makeExchange('s-times', 2, 'deadline is Friday', 'ok').map((message) => ({ ...message, sentAt: null }));
        const third = makeExchange('s-times', 3, 'hi', 'hello');
        const [thirdUser, thirdReply] = third;
        const mixed = [{ ...thirdUser!, sentAt: null }, { ...thirdReply!, sentAt: '2026-03-02T18:40:00.000Z' }];
        await tenant.messages.append({ sessionId: 's-times', messages: [...first, ...second, ...mixed], updatedAt: at(10) });
        const times = await tenant.messages.sentTimes({ sessionId: 's-times', turns: [3, 1, 2, 1, 9] });
        expect([...times.entries()].sort(([a], [b]) => a - b)).toEqual([
          [1, first[0]!.sentAt],
          [3, '2026-03-02T18:40:00.000Z'],
        ]);
        expect((await tenant.messages.sentTimes({ sessionId: 's-times', turns: [] })).size).toBe(0);
        expect((await tenant.messages.sentTimes({ sessionId: 'unknown', turns: [1] })).size).toBe(0);
        // A message without a time keeps none: it reads back null.
        expect((await tenant.messages.listByTurns({ sessionId: 's-times', fromTurn: 2, toTurn: 2 })).map((message) => message.sentAt)).toEqual([null, null]);
      });

      it('round-trips unicode content byte-exact (emoji, CJK, combining marks)', async () => {
        const decomposed = 'Cafe\u0301 cre\u0300me bru\u0302le\u0301e'; // NFD: must not be normalised to NFC
        const texts = [
          `Family: 👩‍👩‍👧‍👦 and flags 🇵🇹🇯🇵, skin tone 👋🏽, keycap 1️⃣`,
          '漢字かな交じり文と한국어 텍스트, 中文标点：“引号”。',
          decomposed,
          'Zalgo: Z̷̢̛a̶͎͝l̸̙̈g̴̱̾ő̶̡, RTL: مرحبا بالعالم ‏שלום‏',
          'Quotes \' " ` and backslashes \\ \\n, tabs\tand\nnew lines\r\nend',
        ];
        await tenant.sessions.create({ session: makeSession('s-uni', { title: '日本語のタイトル 🎌', instructions: 'Réponds en français, s\u0327il te plaît.' }) });
        const messages = texts.map((content, index) =>
          makeMessage('s-uni', { turn: Math.floor(index / 2) + 1, position: index, role: index % 2 === 0 ? 'user' : 'assistant', content, speaker: index === 0 ? 'Zoë 😀' : null }),
        );
        await tenant.messages.append({ sessionId: 's-uni', messages, updatedAt: at(10) });

        const stored = await tenant.messages.list({ sessionId: 's-uni' });
        expect(stored).toEqual(messages);
        for (const [index, message] of stored.entries()) {
          expect(Buffer.from(message.content, 'utf8').equals(Buffer.from(texts[index]!, 'utf8'))).toBe(true);
          expect(message.tier1).toBe(messages[index]!.tier1);
        }
        expect(stored[2]!.content).toBe(decomposed);
        expect(stored[2]!.content).not.toBe(decomposed.normalize('NFC'));
        expect(stored[0]!.speaker).toBe('Zoë 😀');
        const session = await tenant.sessions.get({ sessionId: 's-uni' });
        expect(session?.title).toBe('日本語のタイトル 🎌');
        expect(session?.instructions).toBe('Réponds en français, s\u0327il te plaît.');
      });

      it('round-trips speaker and externalId, null or set', async () => {
        await tenant.sessions.create({ session: makeSession('s-speaker') });
        const messages = [
          makeMessage('s-speaker', { turn: 1, position: 0, role: 'user', content: 'Hey Mel, how was the race?', speaker: 'Caroline', externalId: 'D1:1' }),
          makeMessage('s-speaker', { turn: 1, position: 1, role: 'assistant', content: 'It went great, I finished in under an hour!', speaker: 'Melanie', externalId: 'D1:2' }),
          makeMessage('s-speaker', { turn: 2, position: 2, role: 'user', content: 'No names here.' }),
        ];
        await tenant.messages.append({ sessionId: 's-speaker', messages, updatedAt: at(10) });
        const stored = await tenant.messages.list({ sessionId: 's-speaker' });
        expect(stored.map((message) => [message.speaker, message.externalId, message.role])).toEqual([
          ['Caroline', 'D1:1', 'user'],
          ['Melanie', 'D1:2', 'assistant'],
          [null, null, 'user'],
        ]);
        expect(stored).toEqual(messages);
      });
    });

    describe('turns', () => {
      it('upsert inserts, then replaces the summary of the same turn', async () => {
        await seedSession(tenant, 's-tl', GARDEN.slice(0, 2));
        const pending = makeTurnSummary('s-tl', 1, { status: 'pending-retry', userSummary: '', assistantSummary: '' });
        await tenant.turns.upsert({ summary: pending });
        expect(await tenant.turns.get({ sessionId: 's-tl', turn: 1 })).toEqual(pending);

        const done = makeTurnSummary('s-tl', 1, {
          status: 'summarised',
          userSummary: 'User took up watercolor landscapes in spring.',
          assistantSummary: 'Suggested wet-on-wet for skies.',
          depth: 'medium',
          windowExtension: 1,
          tokens: 77,
          messageIds: [messageId('s-tl', 0), messageId('s-tl', 1)],
        });
        await tenant.turns.upsert({ summary: done });
        expect(await tenant.turns.get({ sessionId: 's-tl', turn: 1 })).toEqual(done);
        expect(await tenant.turns.list({ sessionId: 's-tl' })).toEqual([done]);
      });

      it('keeps a stale-memory mark once set, through later summaries of the turn', async () => {
        await seedSession(tenant, 's-tl', GARDEN.slice(0, 2));
        const pending = makeTurnSummary('s-tl', 1, { status: 'pending-retry', staleMemory: true });
        await tenant.turns.upsert({ summary: pending });
        expect((await tenant.turns.get({ sessionId: 's-tl', turn: 1 }))?.staleMemory).toBe(true);
        await tenant.turns.upsert({ summary: makeTurnSummary('s-tl', 1, { status: 'summarised' }) });
        expect(await tenant.turns.get({ sessionId: 's-tl', turn: 1 })).toEqual(makeTurnSummary('s-tl', 1, { status: 'summarised', staleMemory: true }));
        await seedSession(tenant, 's-fresh', GARDEN.slice(0, 2));
        await tenant.turns.upsert({ summary: makeTurnSummary('s-fresh', 1) });
        expect((await tenant.turns.get({ sessionId: 's-fresh', turn: 1 }))?.staleMemory).toBeUndefined();
      });

      it('get returns null for an unknown turn', async () => {
        await seedSession(tenant, 's-tl', GARDEN.slice(0, 1));
        expect(await tenant.turns.get({ sessionId: 's-tl', turn: 5 })).toBeNull();
        expect(await tenant.turns.get({ sessionId: 'other', turn: 1 })).toBeNull();
      });

      it('listBefore returns turns before a turn, newest first, up to limit; list is oldest first', async () => {
        await seedSession(tenant, 's-tl', GARDEN);
        const summaries = [1, 2, 3, 4].map((turn) => makeTurnSummary('s-tl', turn));
        for (const summary of [summaries[2]!, summaries[0]!, summaries[3]!, summaries[1]!]) await tenant.turns.upsert({ summary });

        expect(await tenant.turns.listBefore({ sessionId: 's-tl', beforeTurn: 4, limit: 10 })).toEqual([summaries[2], summaries[1], summaries[0]]);
        expect(await tenant.turns.listBefore({ sessionId: 's-tl', beforeTurn: 4, limit: 2 })).toEqual([summaries[2], summaries[1]]);
        expect(await tenant.turns.listBefore({ sessionId: 's-tl', beforeTurn: 1, limit: 10 })).toEqual([]);
        expect(await tenant.turns.list({ sessionId: 's-tl' })).toEqual(summaries);
      });

      it('listByStatus filters by status, within a session or across the tenant', async () => {
        await seedSession(tenant, 's-a', GARDEN.slice(0, 3));
        await seedSession(tenant, 's-b', GARDEN.slice(0, 2));
        const a1 = makeTurnSummary('s-a', 1, { status: 'pending-retry' });
        const a2 = makeTurnSummary('s-a', 2);
        const a3 = makeTurnSummary('s-a', 3, { status: 'pending-retry' });
        const b1 = makeTurnSummary('s-b', 1, { status: 'fallback-raw' });
        const b2 = makeTurnSummary('s-b', 2, { status: 'pending-retry' });
        for (const summary of [a1, a2, a3, b1, b2]) await tenant.turns.upsert({ summary });

        expect(await tenant.turns.listByStatus({ sessionId: 's-a', status: 'pending-retry', limit: 10 })).toEqual([a1, a3]);
        expect(await tenant.turns.listByStatus({ sessionId: 's-a', status: 'pending-retry', limit: 1 })).toEqual([a1]);
        expect(await tenant.turns.listByStatus({ sessionId: 's-a', status: 'fallback-raw', limit: 10 })).toEqual([]);
        expect(await tenant.turns.listByStatus({ sessionId: 's-b', status: 'fallback-raw', limit: 10 })).toEqual([b1]);

        const everywhere = await tenant.turns.listByStatus({ status: 'pending-retry', limit: 10 });
        const key = (summary: TurnSummary): string => `${summary.sessionId}#${summary.turn}`;
        expect(everywhere.map(key).sort()).toEqual([a1, a3, b2].map(key).sort());
        expect(everywhere).toEqual(expect.arrayContaining([a1, a3, b2]));
        expect(await tenant.turns.listByStatus({ status: 'pending-retry', limit: 2 })).toHaveLength(2);
        expect(await tenant.turns.listByStatus({ status: 'summarised', limit: 10 })).toEqual([a2]);
      });
    });

    describe('memory retries', () => {
      /** A session with `turns` exchanges, each stored with a pending-retry summary. */
      async function seedPending(repositories: TenantRepositories, sessionId: string, turns = 4): Promise<void> {
        await seedSession(repositories, sessionId, GARDEN.slice(0, turns));
        for (let turn = 1; turn <= turns; turn += 1) {
          await repositories.turns.upsert({ summary: makeTurnSummary(sessionId, turn, { status: 'pending-retry' }) });
        }
      }

      it('put queues a turn; a second put replaces attempts, next attempt, reason and last error, keeping createdAt', async () => {
        await seedPending(tenant, 's-r');
        expect(await tenant.retries.list({ sessionId: 's-r' })).toEqual([]);
        const first = makeRetry('s-r', 2);
        await tenant.retries.put({ retry: first });
        expect(await tenant.retries.list({ sessionId: 's-r' })).toEqual([first]);

        const second = makeRetry('s-r', 2, {
          attempts: 2,
          nextAttemptAt: at(60),
          reason: 'unavailable',
          lastError: 'connect ECONNREFUSED 127.0.0.1:11434',
          createdAt: at(55),
          updatedAt: at(55),
        });
        await tenant.retries.put({ retry: second });
        expect(await tenant.retries.list({ sessionId: 's-r' })).toEqual([{ ...second, createdAt: first.createdAt }]);
        expect(await tenant.retries.count()).toBe(1);
      });

      it('listDue returns entries due at now or earlier (inclusive), by session then turn, up to limit', async () => {
        await seedPending(tenant, 's-b', 3);
        await seedPending(tenant, 's-a', 4);
        const a1 = makeRetry('s-a', 1, { nextAttemptAt: at(5) });
        const a2 = makeRetry('s-a', 2, { nextAttemptAt: at(30) });
        const a3 = makeRetry('s-a', 3, { nextAttemptAt: at(10) });
        const a4 = makeRetry('s-a', 4, { nextAttemptAt: at(1) });
        const b1 = makeRetry('s-b', 1, { nextAttemptAt: at(10) });
        const b3 = makeRetry('s-b', 3, { nextAttemptAt: at(20) });
        for (const retry of [b3, a3, a1, b1, a4, a2]) await tenant.retries.put({ retry });

        // Session then turn order, not due-time order: a turn's diff builds on the turns before it.
        expect(await tenant.retries.listDue({ now: at(20), limit: 10 })).toEqual([a1, a3, a4, b1, b3]);
        expect(await tenant.retries.listDue({ now: at(10), limit: 10 })).toEqual([a1, a3, a4, b1]);
        expect(await tenant.retries.listDue({ now: at(30), limit: 10 })).toEqual([a1, a2, a3, a4, b1, b3]);
        expect(await tenant.retries.listDue({ now: at(0), limit: 10 })).toEqual([]);
        expect(await tenant.retries.listDue({ now: at(20), limit: 2 })).toEqual([a1, a3]);
        expect(await tenant.retries.listDue({ now: at(20), limit: 10, sessionId: 's-b' })).toEqual([b1, b3]);
        expect(await tenant.retries.listDue({ now: at(20), limit: 1, sessionId: 's-b' })).toEqual([b1]);
        expect(await tenant.retries.listDue({ now: at(10), limit: 10, sessionId: 's-a' })).toEqual([a1, a3, a4]);
        expect(await tenant.retries.listDue({ now: at(30), limit: 10, sessionId: 'nobody' })).toEqual([]);
      });

      it('claimDue gives each session with a due entry to one claimant, until it is released, lapses or goes with its session', async () => {
        await seedPending(tenant, 's-a', 2);
        await seedPending(tenant, 's-b', 2);
        await seedPending(tenant, 's-c', 2);
        await tenant.retries.put({ retry: makeRetry('s-a', 1, { nextAttemptAt: at(10) }) });
        await tenant.retries.put({ retry: makeRetry('s-b', 2, { nextAttemptAt: at(20) }) });
        await tenant.retries.put({ retry: makeRetry('s-c', 1, { nextAttemptAt: at(90) }) });

        expect(await tenant.retries.claimDue({ now: at(20), until: at(30), claimant: 'one', limit: 10 })).toEqual(['s-a', 's-b']);
        // Held by "one": nothing for "two", while "one" may renew its own claims.
        expect(await tenant.retries.claimDue({ now: at(21), until: at(31), claimant: 'two', limit: 10 })).toEqual([]);
        expect(await tenant.retries.claimDue({ now: at(21), until: at(40), claimant: 'one', limit: 1 })).toEqual(['s-a']);
        // Only the holder releases a claim.
        await tenant.retries.release({ sessionId: 's-b', claimant: 'two' });
        expect(await tenant.retries.claimDue({ now: at(22), until: at(32), claimant: 'two', limit: 10 })).toEqual([]);
        await tenant.retries.release({ sessionId: 's-b', claimant: 'one' });
        expect(await tenant.retries.claimDue({ now: at(22), until: at(32), claimant: 'two', limit: 10 })).toEqual(['s-b']);
        // A claim lapses at its time: "one" held s-a until 40.
        expect(await tenant.retries.claimDue({ now: at(40), until: at(50), claimant: 'two', limit: 10 })).toEqual(['s-a', 's-b']);
        // Entries and listing are unchanged by claims; another tenant claims nothing of this one.
        expect(await tenant.retries.count()).toBe(3);
        expect(await store.tenant('tenant-b-claims').retries.claimDue({ now: at(99), until: at(200), claimant: 'two', limit: 10 })).toEqual([]);
        // A session deleted and made again starts with no claim.
        await tenant.sessions.delete({ sessionId: 's-a' });
        await seedPending(tenant, 's-a', 1);
        await tenant.retries.put({ retry: makeRetry('s-a', 1, { nextAttemptAt: at(10) }) });
        expect(await tenant.retries.claimDue({ now: at(41), until: at(60), claimant: 'three', limit: 10 })).toEqual(['s-a']);
      });

      it('list returns every entry of one session, oldest turn first, due or not', async () => {
        await seedPending(tenant, 's-a');
        await seedPending(tenant, 's-b', 1);
        const entries = [4, 1, 3].map((turn) => makeRetry('s-a', turn, { nextAttemptAt: at(1000 - turn) }));
        for (const retry of entries) await tenant.retries.put({ retry });
        await tenant.retries.put({ retry: makeRetry('s-b', 1) });
        expect(await tenant.retries.list({ sessionId: 's-a' })).toEqual([entries[1], entries[2], entries[0]]);
        expect(await tenant.retries.list({ sessionId: 'nobody' })).toEqual([]);
      });

      it('nextDue is the earliest nextAttemptAt in the tenant, and null when the queue is empty', async () => {
        expect(await tenant.retries.nextDue()).toBeNull();
        await seedPending(tenant, 's-a', 2);
        await seedPending(tenant, 's-b', 1);
        await tenant.retries.put({ retry: makeRetry('s-a', 2, { nextAttemptAt: at(30) }) });
        await tenant.retries.put({ retry: makeRetry('s-b', 1, { nextAttemptAt: at(12) }) });
        await tenant.retries.put({ retry: makeRetry('s-a', 1, { nextAttemptAt: at(45) }) });
        expect(await tenant.retries.nextDue()).toBe(at(12));
        await tenant.retries.remove({ sessionId: 's-b', turn: 1 });
        expect(await tenant.retries.nextDue()).toBe(at(30));
        await tenant.retries.put({ retry: makeRetry('s-a', 2, { attempts: 2, nextAttemptAt: at(90) }) });
        expect(await tenant.retries.nextDue()).toBe(at(45));
        await tenant.retries.remove({ sessionId: 's-a', turn: 1 });
        await tenant.retries.remove({ sessionId: 's-a', turn: 2 });
        expect(await tenant.retries.nextDue()).toBeNull();
      });

      it('remove deletes one entry and is harmless when the entry is absent', async () => {
        await seedPending(tenant, 's-r', 2);
        await tenant.retries.put({ retry: makeRetry('s-r', 1) });
        await tenant.retries.put({ retry: makeRetry('s-r', 2) });
        await tenant.retries.remove({ sessionId: 's-r', turn: 1 });
        expect(await tenant.retries.list({ sessionId: 's-r' })).toEqual([makeRetry('s-r', 2)]);
        await tenant.retries.remove({ sessionId: 's-r', turn: 1 });
        await tenant.retries.remove({ sessionId: 's-r', turn: 99 });
        await tenant.retries.remove({ sessionId: 'nobody', turn: 1 });
        expect(await tenant.retries.list({ sessionId: 's-r' })).toEqual([makeRetry('s-r', 2)]);
      });

      it('count counts the whole tenant, or one session', async () => {
        expect(await tenant.retries.count()).toBe(0);
        await seedPending(tenant, 's-a', 3);
        await seedPending(tenant, 's-b', 2);
        for (const turn of [1, 2, 3]) await tenant.retries.put({ retry: makeRetry('s-a', turn) });
        await tenant.retries.put({ retry: makeRetry('s-b', 2) });
        await tenant.retries.put({ retry: makeRetry('s-a', 2, { attempts: 3 }) });
        expect(await tenant.retries.count()).toBe(4);
        expect(await tenant.retries.count({})).toBe(4);
        expect(await tenant.retries.count({ sessionId: 's-a' })).toBe(3);
        expect(await tenant.retries.count({ sessionId: 's-b' })).toBe(1);
        expect(await tenant.retries.count({ sessionId: 'nobody' })).toBe(0);
      });

      it('storing the turn summary again (the retry succeeded) keeps the entry until it is removed', async () => {
        await seedPending(tenant, 's-r', 1);
        await tenant.retries.put({ retry: makeRetry('s-r', 1) });
        await tenant.turns.upsert({ summary: makeTurnSummary('s-r', 1, { status: 'summarised' }) });
        expect(await tenant.retries.list({ sessionId: 's-r' })).toEqual([makeRetry('s-r', 1)]);
      });

      it('put refuses a turn that is not stored (unknown session, or no turn summary) with STORE_FAILURE', async () => {
        await seedSession(tenant, 's-r', GARDEN.slice(0, 2));
        await tenant.turns.upsert({ summary: makeTurnSummary('s-r', 1, { status: 'pending-retry' }) });
        // Turn 2 has messages but no summary; turn 9 does not exist at all.
        for (const retry of [makeRetry('s-none', 1), makeRetry('s-r', 2), makeRetry('s-r', 9)]) {
          const error: unknown = await tenant.retries.put({ retry }).then(
            () => null,
            (failure: unknown) => failure,
          );
          expect(isStrataError(error, 'STORE_FAILURE')).toBe(true);
          expect((error as Error).message).toContain(retry.sessionId);
        }
        expect(await tenant.retries.count()).toBe(0);
        expect(await tenant.retries.nextDue()).toBeNull();
      });

      it("keeps tenants apart: another tenant sees nothing, cannot remove and cannot queue into B's session", async () => {
        const alpha = tenant;
        const beta = store.tenant('tenant-beta');
        await seedPending(beta, 'beta-only', 2);
        const entry = makeRetry('beta-only', 1, { nextAttemptAt: at(3) });
        await beta.retries.put({ retry: entry });

        expect(await alpha.retries.listDue({ now: at(1000), limit: 10 })).toEqual([]);
        expect(await alpha.retries.listDue({ now: at(1000), limit: 10, sessionId: 'beta-only' })).toEqual([]);
        expect(await alpha.retries.list({ sessionId: 'beta-only' })).toEqual([]);
        expect(await alpha.retries.nextDue()).toBeNull();
        expect(await alpha.retries.count()).toBe(0);
        expect(await alpha.retries.count({ sessionId: 'beta-only' })).toBe(0);

        await alpha.retries.remove({ sessionId: 'beta-only', turn: 1 });
        await expect(alpha.retries.put({ retry: makeRetry('beta-only', 1, { attempts: 9, nextAttemptAt: at(999) }) })).rejects.toThrow();
        await expect(alpha.retries.put({ retry: makeRetry('beta-only', 2) })).rejects.toThrow();

        expect(await beta.retries.list({ sessionId: 'beta-only' })).toEqual([entry]);
        expect(await beta.retries.nextDue()).toBe(at(3));

        // The same session id in both tenants: each queue holds only its own entries.
        await seedPending(alpha, 'beta-only', 1);
        await alpha.retries.put({ retry: makeRetry('beta-only', 1, { lastError: 'alpha timed out' }) });
        expect((await alpha.retries.list({ sessionId: 'beta-only' })).map((retry) => retry.lastError)).toEqual(['alpha timed out']);
        expect(await beta.retries.list({ sessionId: 'beta-only' })).toEqual([entry]);
        await alpha.sessions.delete({ sessionId: 'beta-only' });
        expect(await beta.retries.list({ sessionId: 'beta-only' })).toEqual([entry]);
      });

      it('deleting a session removes its entries and leaves other sessions queued; a re-created session starts empty', async () => {
        await seedPending(tenant, 's-gone', 2);
        await seedPending(tenant, 's-kept', 2);
        for (const sessionId of ['s-gone', 's-kept']) {
          for (const turn of [1, 2]) await tenant.retries.put({ retry: makeRetry(sessionId, turn) });
        }
        expect(await tenant.sessions.delete({ sessionId: 's-gone' })).toBe(true);

        expect(await tenant.retries.list({ sessionId: 's-gone' })).toEqual([]);
        expect(await tenant.retries.count({ sessionId: 's-gone' })).toBe(0);
        expect(await tenant.retries.listDue({ now: at(1000), limit: 10 })).toEqual([makeRetry('s-kept', 1), makeRetry('s-kept', 2)]);
        expect(await tenant.retries.count()).toBe(2);

        await tenant.sessions.create({ session: makeSession('s-gone') });
        expect(await tenant.retries.list({ sessionId: 's-gone' })).toEqual([]);
      });

      it('commits with a transaction, and a rolled-back transaction leaves no entry and no change', async () => {
        await seedPending(tenant, 's-tx', 1);
        const kept = makeRetry('s-tx', 1);
        await tenant.transaction(async (repositories) => {
          await repositories.retries.put({ retry: kept });
          expect(await repositories.retries.count()).toBe(1);
        });
        expect(await tenant.retries.list({ sessionId: 's-tx' })).toEqual([kept]);

        const failure = new Error('memory manager timed out again');
        const attempt = tenant.transaction(async (repositories) => {
          const messages = makeExchange('s-tx', 2, 'Should the fence get a second coat?', 'Yes, after four hours.');
          await repositories.messages.append({ sessionId: 's-tx', messages, updatedAt: at(20) });
          await repositories.turns.upsert({ summary: makeTurnSummary('s-tx', 2, { status: 'pending-retry' }) });
          await repositories.retries.put({ retry: makeRetry('s-tx', 2) });
          await repositories.retries.put({ retry: makeRetry('s-tx', 1, { attempts: 2, nextAttemptAt: at(70), updatedAt: at(21) }) });
          expect(await repositories.retries.listDue({ now: at(1000), limit: 10 })).toHaveLength(2);
          throw failure;
        });
        await expect(attempt).rejects.toBe(failure);
        expect(await tenant.retries.list({ sessionId: 's-tx' })).toEqual([kept]);
        expect(await tenant.retries.nextDue()).toBe(kept.nextAttemptAt);

        const removal = tenant.transaction(async (repositories) => {
          await repositories.retries.remove({ sessionId: 's-tx', turn: 1 });
          throw failure;
        });
        await expect(removal).rejects.toBe(failure);
        expect(await tenant.retries.count()).toBe(1);
      });
    });

    describe('facts', () => {
      it('apply persists events and facts; list, listEvents and lastSequence read them back', async () => {
        const messages = await seedSession(tenant, 's-f', GARDEN.slice(0, 2));
        expect(await tenant.facts.lastSequence({ sessionId: 's-f' })).toBe(0);
        expect(await tenant.facts.list({ sessionId: 's-f' })).toEqual([]);
        expect(await tenant.facts.listEvents({ sessionId: 's-f' })).toEqual([]);

        const script = new FactScript('s-f');
        const batch = script
          .add(1, 'fact-001', 'hobby', 'hobby: watercolor landscapes', 'fact', [messages[0]!.id])
          .add(1, 'fact-002', 'started', 'started: last spring', 'fact', [messages[0]!.id])
          // A line its manager was not sure replaces the older one: the link is kept on the fact and its event.
          .add(1, 'fact-003', 'began', 'began: in March', 'fact', [messages[1]!.id], 'fact-002')
          .flush();
        await tenant.facts.apply(batch);

        expect(await tenant.facts.list({ sessionId: 's-f' })).toEqual(script.current());
        expect(await tenant.facts.listEvents({ sessionId: 's-f' })).toEqual(batch.events);
        expect((await tenant.facts.list({ sessionId: 's-f' })).find((fact) => fact.id === 'fact-003')?.mayReplace).toBe('fact-002');
        expect(await tenant.facts.lastSequence({ sessionId: 's-f' })).toBe(3);

        // An undo names the event it reverts, and the store keeps the link.
        const added = batch.events[2]!;
        const undo: FactEvent = { ...added, id: 's-f-undo', sequence: 4, op: 'remove', oldText: added.newText, newText: null, actor: 'user', reason: `undo of event ${added.id}`, undoes: added.id };
        await tenant.facts.apply({ sessionId: 's-f', events: [undo], upserts: [], removedIds: ['fact-003'] });
        expect((await tenant.facts.listEvents({ sessionId: 's-f' })).at(-1)).toEqual(undo);
      });

      it('listEvents is in sequence order and honours upToTurn', async () => {
        const messages = await seedSession(tenant, 's-f', GARDEN);
        const script = new FactScript('s-f');
        const turn1 = script.add(1, 'fact-001', 'hobby', 'hobby: watercolor', 'fact', [messages[0]!.id]).flush();
        const turn2 = script
          .add(2, 'fact-002', 'fence colour', 'fence colour: blue', 'goal', [messages[2]!.id])
          .reject(2, 'neighbour', 'neighbour: hates blue')
          .flush();
        const turn3 = script.update(3, 'fact-001', 'hobby: watercolor and balcony tomatoes', 'fact', [messages[4]!.id]).flush();

        // Applied out of turn order across calls would be odd; apply in order, but check ordering by sequence.
        await tenant.facts.apply(turn1);
        await tenant.facts.apply(turn2);
        await tenant.facts.apply(turn3);

        const events = await tenant.facts.listEvents({ sessionId: 's-f' });
        expect(events.map((event) => event.sequence)).toEqual([1, 2, 3, 4]);
        expect(events).toEqual([...turn1.events, ...turn2.events, ...turn3.events]);
        expect(await tenant.facts.listEvents({ sessionId: 's-f', upToTurn: 2 })).toEqual([...turn1.events, ...turn2.events]);
        expect(await tenant.facts.listEvents({ sessionId: 's-f', upToTurn: 0 })).toEqual([]);
        expect(await tenant.facts.lastSequence({ sessionId: 's-f' })).toBe(4);
      });

      it('replaying listEvents with replayFactEvents equals facts.list after adds, updates and removes', async () => {
        const messages = await seedSession(tenant, 's-f', GARDEN);
        const ids = messages.map((message) => message.id);
        const script = new FactScript('s-f');
        const snapshots = new Map<number, Fact[]>();

        await tenant.facts.apply(
          script
            .add(1, 'fact-001', 'hobby', 'hobby: watercolor landscapes', 'fact', [ids[0]!])
            .add(1, 'fact-002', 'medium advice', 'medium advice: wet-on-wet for skies', 'preference', [ids[1]!])
            .add(1, 'fact-003', 'budget', 'never spend more than 50 euros on paint', 'exception', [ids[0]!])
            .flush(),
        );
        snapshots.set(1, await tenant.facts.list({ sessionId: 's-f' }));

        await tenant.facts.apply(
          script
            .add(2, 'fact-004', 'fence colour', 'fence colour: blue', 'goal', [ids[2]!])
            .update(2, 'fact-001', 'hobby: watercolor landscapes and house painting', 'fact', [ids[2]!])
            .remove(2, 'fact-002', [ids[2]!])
            .flush(),
        );
        snapshots.set(2, await tenant.facts.list({ sessionId: 's-f' }));

        await tenant.facts.apply(
          script
            .add(3, 'fact-005', 'balcony', 'balcony: sunny', 'fact', [ids[4]!])
            .reject(3, 'tomato variety', 'tomato variety: beefsteak')
            .update(3, 'fact-004', 'fence colour: navy blue', 'constraint', [ids[5]!])
            .flush(),
        );
        snapshots.set(3, await tenant.facts.list({ sessionId: 's-f' }));

        await tenant.facts.apply(
          script
            .remove(4, 'fact-005', [ids[6]!])
            .update(4, 'fact-003', 'never spend more than 60 euros on paint', 'exception', [ids[7]!])
            .add(4, 'fact-006', 'watering', 'watering: every morning in July', 'fact', [ids[7]!])
            .flush(),
        );
        const current = await tenant.facts.list({ sessionId: 's-f' });
        snapshots.set(4, current);

        expect(current).toEqual(script.current());
        expect(current.map((fact) => fact.id)).toEqual(['fact-001', 'fact-003', 'fact-004', 'fact-006']);
        expect(current.find((fact) => fact.id === 'fact-003')?.pinned).toBe(true);

        const events = await tenant.facts.listEvents({ sessionId: 's-f' });
        expect(replayFactEvents(events)).toEqual(current);
        for (const [turn, snapshot] of snapshots) {
          expect(replayFactEvents(await tenant.facts.listEvents({ sessionId: 's-f', upToTurn: turn }))).toEqual(snapshot);
          expect(replayFactEvents(events, { atTurn: turn })).toEqual(snapshot);
        }
        expect(await tenant.facts.lastSequence({ sessionId: 's-f' })).toBe(events.length);
      });

      it('keeps facts and events of different sessions apart', async () => {
        const a = await seedSession(tenant, 's-fa', GARDEN.slice(0, 1));
        const b = await seedSession(tenant, 's-fb', GARDEN.slice(1, 2));
        const scriptA = new FactScript('s-fa');
        const scriptB = new FactScript('s-fb');
        await tenant.facts.apply(scriptA.add(1, 'fa-001', 'hobby', 'hobby: watercolor', 'fact', [a[0]!.id]).flush());
        await tenant.facts.apply(
          scriptB
            .add(1, 'fb-001', 'fence', 'fence: blue', 'goal', [b[0]!.id])
            .add(1, 'fb-002', 'paint', 'paint: exterior', 'fact', [b[1]!.id])
            .flush(),
        );
        expect(await tenant.facts.list({ sessionId: 's-fa' })).toEqual(scriptA.current());
        expect(await tenant.facts.list({ sessionId: 's-fb' })).toEqual(scriptB.current());
        expect(await tenant.facts.lastSequence({ sessionId: 's-fa' })).toBe(1);
        expect(await tenant.facts.lastSequence({ sessionId: 's-fb' })).toBe(2);
      });
    });

    describe('artifacts', () => {
      it('addVersion creates the artifact, then adds versions 1, 2, 3 under the same id', async () => {
        const messages = await seedSession(tenant, 's-art', GARDEN);
        const v1 = await tenant.artifacts.addVersion({
          sessionId: 's-art',
          artifactId: 'art-001',
          name: 'watering.py',
          kind: 'code',
          language: 'python',
          version: makeVersion(1, messages[1]!.id, 'def water():\n    return "morning"\n'),
        });
        expect(v1).toEqual({ ...makeVersion(1, messages[1]!.id, 'def water():\n    return "morning"\n'), artifactId: 'art-001', version: 1 });

        // A different proposed id for the same name keeps the existing artifact.
        const v2 = await tenant.artifacts.addVersion({
          sessionId: 's-art',
          artifactId: 'art-999',
          name: 'watering.py',
          kind: 'code',
          language: 'python',
          version: makeVersion(2, messages[3]!.id, 'def water(month):\n    return "morning" if month == 7 else "evening"\n'),
        });
        expect(v2).toMatchObject({ artifactId: 'art-001', version: 2, turn: 2 });

        const v3 = await tenant.artifacts.addVersion({
          sessionId: 's-art',
          artifactId: 'art-1000',
          name: 'watering.py',
          kind: 'code',
          language: 'python',
          version: makeVersion(3, messages[5]!.id, 'WATER_AT = "06:00"\n'),
        });
        expect(v3).toMatchObject({ artifactId: 'art-001', version: 3, turn: 3 });

        const artifacts = await tenant.artifacts.list({ sessionId: 's-art' });
        expect(artifacts).toEqual([
          { id: 'art-001', sessionId: 's-art', name: 'watering.py', kind: 'code', language: 'python', versions: [v1, v2, v3] },
        ]);
      });

      it('lists every artifact of the session with its versions in order', async () => {
        const messages = await seedSession(tenant, 's-art', GARDEN);
        const poem = await tenant.artifacts.addVersion({
          sessionId: 's-art',
          artifactId: 'art-poem',
          name: 'Ode to the fence',
          kind: 'draft',
          language: null,
          version: makeVersion(2, messages[3]!.id, 'O fence of blue, so tall and true'),
        });
        const script1 = await tenant.artifacts.addVersion({
          sessionId: 's-art',
          artifactId: 'art-sh',
          name: 'backup.sh',
          kind: 'code',
          language: 'bash',
          version: makeVersion(3, messages[5]!.id, '#!/bin/sh\ntar czf photos.tgz ~/photos\n'),
        });
        const poem2 = await tenant.artifacts.addVersion({
          sessionId: 's-art',
          artifactId: 'art-poem-2',
          name: 'Ode to the fence',
          kind: 'draft',
          language: null,
          version: makeVersion(4, messages[7]!.id, 'O fence of navy, stern and wavy'),
        });
        const artifacts = byName(await tenant.artifacts.list({ sessionId: 's-art' }));
        expect(artifacts).toEqual(
          byName([
            { id: 'art-poem', sessionId: 's-art', name: 'Ode to the fence', kind: 'draft', language: null, versions: [poem, poem2] },
            { id: 'art-sh', sessionId: 's-art', name: 'backup.sh', kind: 'code', language: 'bash', versions: [script1] },
          ]),
        );
        expect(await tenant.artifacts.list({ sessionId: 'no-such-session' })).toEqual([]);
        expect(byName(await tenant.artifacts.listLatest({ sessionId: 's-art' }))).toEqual(
          byName([
            { id: 'art-poem', sessionId: 's-art', name: 'Ode to the fence', kind: 'draft', language: null, versions: [poem2] },
            { id: 'art-sh', sessionId: 's-art', name: 'backup.sh', kind: 'code', language: 'bash', versions: [script1] },
          ]),
        );
      });

      it('restore() keeps ids and versions exactly; later versions continue the numbering', async () => {
        const messages = await seedSession(tenant, 's-rest', GARDEN);
        const artifact: Artifact = {
          id: 'art-imported-7',
          sessionId: 's-rest',
          name: 'shopping-list.md',
          kind: 'draft',
          language: 'markdown',
          versions: [
            { ...makeVersion(1, messages[1]!.id, '- seeds\n- brushes'), artifactId: 'art-imported-7', version: 1 },
            { ...makeVersion(3, messages[5]!.id, '- seeds\n- brushes\n- blue paint 🎨'), artifactId: 'art-imported-7', version: 2 },
          ],
        };
        await tenant.artifacts.restore({ artifact });
        expect(await tenant.artifacts.list({ sessionId: 's-rest' })).toEqual([artifact]);

        const next = await tenant.artifacts.addVersion({
          sessionId: 's-rest',
          artifactId: 'art-new',
          name: 'shopping-list.md',
          kind: 'draft',
          language: 'markdown',
          version: makeVersion(4, messages[7]!.id, '- seeds'),
        });
        expect(next).toMatchObject({ artifactId: 'art-imported-7', version: 3 });
      });
    });

    describe('search', () => {
      it("ranks a tenant's search by that tenant's data alone", async () => {
        await seedSession(tenant, 's-q', GARDEN);
        const before = await searchArchive(tenant.search, { sessionId: 's-q', query: 'cherry tomatoes balcony paint', limit: 10 });
        const other = store.tenant('tenant-b-noise');
        await other.sessions.create({ session: makeSession('noise') });
        const noise = Array.from({ length: 2100 }, (_, index) =>
          makeMessage('noise', {
            turn: Math.floor(index / 2) + 1,
            position: index,
            role: index % 2 === 0 ? 'user' : 'assistant',
            content: `tomatoes and paint, entry ${index}`,
          }),
        );
        await other.messages.append({ sessionId: 'noise', messages: noise, updatedAt: at(30) });
        expect(await searchArchive(tenant.search, { sessionId: 's-q', query: 'cherry tomatoes balcony paint', limit: 10 })).toEqual(before);
      });

      it('finds messages by content words', async () => {
        const messages = await seedSession(tenant, 's-q', GARDEN);
        const hits = await searchArchive(tenant.search, { sessionId: 's-q', query: 'cherry tomatoes balcony', limit: 10 });
        expect(hits.length).toBeGreaterThan(0);
        const ids = hits.map((hit) => hit.messageId);
        expect(ids).toContain(messages[4]!.id);
        expect(ids).toContain(messages[5]!.id);
        expect(ids).not.toContain(messages[0]!.id);
        for (const hit of hits) {
          const message = messages.find((candidate) => candidate.id === hit.messageId);
          expect(hit.turn).toBe(message?.turn);
          expect(Number.isFinite(hit.score)).toBe(true);
        }
        for (let index = 1; index < hits.length; index += 1) expect(hits[index - 1]!.score).toBeGreaterThanOrEqual(hits[index]!.score);
      });

      it('matches stemmed forms: "painted" finds "painting" and "paint"', async () => {
        const messages = await seedSession(tenant, 's-q', GARDEN);
        const ids = (await searchArchive(tenant.search, { sessionId: 's-q', query: 'painted', limit: 10 })).map((hit) => hit.messageId);
        expect(ids).toContain(messages[0]!.id); // "painting"
        expect(ids).toContain(messages[2]!.id); // "paint the garden fence"
        expect(ids).toContain(messages[3]!.id); // "exterior paint"
        expect(ids).not.toContain(messages[4]!.id);
      });

      it('respects maxTurn and limit', async () => {
        const messages = await seedSession(tenant, 's-q', GARDEN);
        const upTo1 = await searchArchive(tenant.search, { sessionId: 's-q', query: 'paint', limit: 10, maxTurn: 1 });
        expect(upTo1.map((hit) => hit.messageId)).toEqual([messages[0]!.id]);
        expect(upTo1.every((hit) => hit.turn <= 1)).toBe(true);

        const all = await searchArchive(tenant.search, { sessionId: 's-q', query: 'paint', limit: 10 });
        expect(all).toHaveLength(3);
        const limited = await searchArchive(tenant.search, { sessionId: 's-q', query: 'paint', limit: 2 });
        expect(limited).toHaveLength(2);
        expect(limited).toEqual(all.slice(0, 2));
        expect(await searchArchive(tenant.search, { sessionId: 's-q', query: 'paint', limit: 10, maxTurn: 0 })).toEqual([]);
      });

      it('gives, for any limit and maxTurn, the first hits of the whole ranking: best first, equal scores in conversation order', async () => {
        // Messages that score alike (the same words), a few that score better, another session between them.
        await tenant.sessions.create({ session: makeSession('s-ties') });
        await tenant.sessions.create({ session: makeSession('s-other') });
        const contents = ['The ferry to the island leaves at noon.', 'Ferry ferry: the island ferry is late again.', 'We walked to the harbour.'];
        const messages = Array.from({ length: 24 }, (_, position) =>
          makeMessage('s-ties', { turn: Math.floor(position / 2) + 1, position, role: position % 2 === 0 ? 'user' : 'assistant', content: contents[position % 5 === 0 ? 1 : position % 3 === 0 ? 2 : 0]! }),
        );
        for (const [start, end] of [[0, 10], [10, 24]] as const) {
          await tenant.messages.append({ sessionId: 's-ties', messages: messages.slice(start, end), updatedAt: at(10 + start) });
          await tenant.messages.append({ sessionId: 's-other', messages: [makeMessage('s-other', { turn: start + 1, position: start, role: 'user', content: 'The ferry to the island leaves at noon.' })], updatedAt: at(11 + start) });
        }
        const whole = await searchArchive(tenant.search, { sessionId: 's-ties', query: 'ferry island', limit: 100 });
        // (A limit without bound is the whole ranking.)
        expect(await searchArchive(tenant.search, { sessionId: 's-ties', query: 'ferry island', limit: Number.POSITIVE_INFINITY })).toEqual(whole);
        expect(whole.length).toBe(messages.filter((message) => message.content.includes('ferry')).length);
        const position = (id: string): number => messages.findIndex((message) => message.id === id);
        for (let index = 1; index < whole.length; index += 1) {
          const [before, after] = [whole[index - 1]!, whole[index]!];
          expect(before.score > after.score || (before.score === after.score && position(before.messageId) < position(after.messageId))).toBe(true);
        }
        for (const maxTurn of [undefined, 12, 7, 1]) {
          const ranking = whole.filter((hit) => maxTurn === undefined || hit.turn <= maxTurn);
          for (const limit of [1, 2, 3, 5, 8, 13]) {
            expect(await searchArchive(tenant.search, { sessionId: 's-ties', query: 'ferry island', limit, ...(maxTurn === undefined ? {} : { maxTurn }) })).toEqual(ranking.slice(0, limit));
          }
        }
      });

      it('ranks the more relevant message first', async () => {
        await tenant.sessions.create({ session: makeSession('s-rank') });
        const messages = [
          makeMessage('s-rank', { turn: 1, position: 0, role: 'user', content: 'Tell me about the history of the city, its bridges, its markets, its food, and maybe a little about kayaking on the river.' }),
          makeMessage('s-rank', { turn: 1, position: 1, role: 'assistant', content: 'Kayaking tips: rent a kayak near the quay, kayaking at dawn is calm, and kayaking guides are cheap.' }),
          makeMessage('s-rank', { turn: 2, position: 2, role: 'user', content: 'What about the museums downtown?' }),
        ];
        await tenant.messages.append({ sessionId: 's-rank', messages, updatedAt: at(10) });
        const hits = await searchArchive(tenant.search, { sessionId: 's-rank', query: 'kayaking', limit: 10 });
        expect(hits.map((hit) => hit.messageId)).toEqual([messages[1]!.id, messages[0]!.id]);
        expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score);
      });

      it('returns [] for a query of only stopwords or punctuation', async () => {
        await seedSession(tenant, 's-q', GARDEN);
        for (const query of ['the and of', 'Which is it, and when?', '?!... ---', '', '   ', '"" ** ()']) {
          expect(await searchArchive(tenant.search, { sessionId: 's-q', query, limit: 10 })).toEqual([]);
        }
      });

      it('does not throw on FTS syntax characters in the query', async () => {
        const messages = await seedSession(tenant, 's-q', GARDEN);
        const queries = [
          '"fence',
          'fence"',
          '"blue fence"',
          'fence*',
          '*',
          'NEAR(fence blue',
          'NEAR(fence, 2)',
          '-fence',
          'fence -blue',
          'content:fence',
          'speaker: fence',
          'fence AND NOT blue OR',
          '(fence',
          '^fence',
          '{content speaker}: fence',
          "fence's colour",
          'fence + blue = ?',
          'fence\u0000blue',
        ];
        for (const query of queries) {
          const hits = await searchArchive(tenant.search, { sessionId: 's-q', query, limit: 10 });
          expect(Array.isArray(hits)).toBe(true);
          if (query.toLowerCase().includes('fence')) {
            expect(hits.map((hit) => hit.messageId), query).toContain(messages[2]!.id);
          }
        }
      });

      it('finds the messages of a session deleted and stored again under the same ids', async () => {
        await seedSession(tenant, 's-q', GARDEN);
        expect(await searchArchive(tenant.search, { sessionId: 's-q', query: 'tomatoes', limit: 10 })).not.toEqual([]);
        // Another session written after it, so the messages stored again get other rowids.
        await seedSession(tenant, 's-other', GARDEN.slice(0, 1));
        await tenant.sessions.delete({ sessionId: 's-q' });
        const again = await seedSession(tenant, 's-q', GARDEN);
        const hits = await searchArchive(tenant.search, { sessionId: 's-q', query: 'cherry tomatoes balcony', limit: 10 });
        expect(hits.map((hit) => hit.messageId)).toContain(again[4]!.id);
        expect(hits.map((hit) => hit.messageId)).toContain(again[5]!.id);
      });

      it('counts the tenant\'s messages, and for each term the messages of any of its sessions holding it (stemmed)', async () => {
        expect(await tenant.search.documentCount()).toBe(0);
        expect(await tenant.search.termFrequencies({ terms: ['paint'] })).toEqual([0]);
        await seedSession(tenant, 's-q1', GARDEN.slice(0, 2));
        await seedSession(tenant, 's-q2', GARDEN.slice(2, 4));
        expect(await tenant.search.documentCount()).toBe(8);
        // "painting", "paint" ×2 (the neighbour's message and its reply); tomatoes twice; "zeppelin" nowhere.
        expect(await tenant.search.termFrequencies({ terms: ['paint', 'tomatoes', 'zeppelin'] })).toEqual([3, 2, 0]);
      });

      it('ranks only the given session\'s messages, however many the other sessions hold', async () => {
        const mine = await seedSession(tenant, 's-mine', GARDEN.slice(1, 2));
        for (let index = 0; index < 5; index += 1) await seedSession(tenant, `s-other-${index}`, GARDEN.slice(0, 2));
        const hits = await tenant.search.rank({ sessionId: 's-mine', terms: ['paint', 'fence'], limit: 10 });
        expect(hits.map((hit) => hit.messageId).sort()).toEqual([mine[0]!.id, mine[1]!.id].sort());
        expect(hits.every((hit) => hit.turn === 1 && hit.score > 0)).toBe(true);
        expect(await tenant.search.rank({ sessionId: 's-mine', terms: [], limit: 10 })).toEqual([]);
        expect(await tenant.search.rank({ sessionId: 's-mine', terms: ['paint'], limit: 0 })).toEqual([]);
        // Before the first turn, in an empty session, in an unknown one: nothing.
        expect(await tenant.search.rank({ sessionId: 's-mine', terms: ['paint'], limit: 10, maxTurn: 0 })).toEqual([]);
        await tenant.sessions.create({ session: makeSession('s-empty') });
        expect(await tenant.search.rank({ sessionId: 's-empty', terms: ['paint'], limit: 10 })).toEqual([]);
        expect(await tenant.search.rank({ sessionId: 's-unknown', terms: ['paint'], limit: 10 })).toEqual([]);
      });

      it('searches only the given session', async () => {
        await seedSession(tenant, 's-q1', GARDEN.slice(0, 2));
        const other = await seedSession(tenant, 's-q2', GARDEN.slice(2, 4));
        expect(await searchArchive(tenant.search, { sessionId: 's-q1', query: 'tomatoes', limit: 10 })).toEqual([]);
        const hits = await searchArchive(tenant.search, { sessionId: 's-q2', query: 'tomatoes', limit: 10 });
        expect(hits.map((hit) => hit.messageId).sort()).toEqual([other[0]!.id, other[1]!.id].sort());
      });
    });

    describe('transaction', () => {
      it('commits everything written inside and returns the result', async () => {
        await seedSession(tenant, 's-tx', GARDEN.slice(0, 1));
        const result = await tenant.transaction(async (repositories) => {
          const messages = makeExchange('s-tx', 2, 'Should I prime the fence first?', 'Yes, prime bare wood before you paint.');
          await repositories.messages.append({ sessionId: 's-tx', messages, updatedAt: at(20) });
          await repositories.turns.upsert({ summary: makeTurnSummary('s-tx', 2) });
          await repositories.facts.apply(new FactScript('s-tx').add(2, 'fact-tx', 'primer', 'primer: needed on bare wood', 'fact', [messages[1]!.id]).flush());
          await repositories.sessions.update({ sessionId: 's-tx', title: 'Fence project', updatedAt: at(21) });
          return 'done';
        });
        expect(result).toBe('done');
        expect(await tenant.sessions.get({ sessionId: 's-tx' })).toMatchObject({ title: 'Fence project', messageCount: 4, turnCount: 2 });
        expect(await tenant.turns.get({ sessionId: 's-tx', turn: 2 })).not.toBeNull();
        expect((await tenant.facts.list({ sessionId: 's-tx' })).map((fact) => fact.id)).toEqual(['fact-tx']);
        expect(await searchArchive(tenant.search, { sessionId: 's-tx', query: 'primer prime', limit: 5 })).toHaveLength(2);
      });

      it('commits and rolls back a transaction marked not durable like any other', async () => {
        await seedSession(tenant, 's-tx', GARDEN.slice(0, 1));
        await tenant.transaction(async (repositories) => {
          await repositories.turns.upsert({ summary: makeTurnSummary('s-tx', 1, { userSummary: 'Derived again.' }) });
        }, { durable: false });
        expect((await tenant.turns.get({ sessionId: 's-tx', turn: 1 }))?.userSummary).toBe('Derived again.');
        const attempt = tenant.transaction(async (repositories) => {
          await repositories.turns.upsert({ summary: makeTurnSummary('s-tx', 1, { userSummary: 'Never kept.' }) });
          throw new Error('abort');
        }, { durable: false });
        await expect(attempt).rejects.toThrow('abort');
        expect((await tenant.turns.get({ sessionId: 's-tx', turn: 1 }))?.userSummary).toBe('Derived again.');
        // A durable transaction after it still commits.
        await tenant.transaction(async (repositories) => {
          await repositories.sessions.update({ sessionId: 's-tx', title: 'After', updatedAt: at(30) });
        });
        expect((await tenant.sessions.get({ sessionId: 's-tx' }))?.title).toBe('After');
      });

      it('rolls back everything on a thrown error (session counters too) and rethrows the original error', async () => {
        const seeded = await seedSession(tenant, 's-tx', GARDEN.slice(0, 1));
        const before = await tenant.sessions.get({ sessionId: 's-tx' });
        const failure = new Error('memory manager exploded');
        const attempt = tenant.transaction(async (repositories) => {
          const messages = makeExchange('s-tx', 2, 'Zanzibar xylophone question', 'Zanzibar xylophone answer');
          await repositories.messages.append({ sessionId: 's-tx', messages, updatedAt: at(20) });
          await repositories.messages.updateTiers({
            sessionId: 's-tx',
            updates: [{ messageId: seeded[0]!.id, tier1: 'changed', tier2: 'changed', tokens: { tier1: 1, tier2: 1, tier3: 1 }, requiredTier: 1 }],
          });
          await repositories.turns.upsert({ summary: makeTurnSummary('s-tx', 2) });
          await repositories.facts.apply(new FactScript('s-tx').add(2, 'fact-rb', 'instrument', 'instrument: xylophone', 'fact', [messages[0]!.id]).flush());
          await repositories.artifacts.addVersion({
            sessionId: 's-tx',
            artifactId: 'art-rb',
            name: 'song.txt',
            kind: 'draft',
            language: null,
            version: makeVersion(2, messages[1]!.id, 'la la la'),
          });
          await repositories.sessions.create({ session: makeSession('s-tx-new') });
          await repositories.sessions.update({ sessionId: 's-tx', title: 'Renamed', updatedAt: at(22) });
          throw failure;
        });
        await expect(attempt).rejects.toBe(failure);

        expect(await tenant.sessions.get({ sessionId: 's-tx' })).toEqual(before);
        expect(await tenant.sessions.get({ sessionId: 's-tx-new' })).toBeNull();
        expect(await tenant.messages.list({ sessionId: 's-tx' })).toEqual(seeded);
        expect(await tenant.messages.last({ sessionId: 's-tx' })).toEqual({ turn: 1, position: 1 });
        expect(await tenant.turns.list({ sessionId: 's-tx' })).toEqual([]);
        expect(await tenant.facts.list({ sessionId: 's-tx' })).toEqual([]);
        expect(await tenant.facts.lastSequence({ sessionId: 's-tx' })).toBe(0);
        expect(await tenant.artifacts.list({ sessionId: 's-tx' })).toEqual([]);
        expect(await searchArchive(tenant.search, { sessionId: 's-tx', query: 'zanzibar xylophone', limit: 5 })).toEqual([]);

        // The store is still usable, and the rolled-back positions can be written again.
        await tenant.messages.append({ sessionId: 's-tx', messages: makeExchange('s-tx', 2, 'retry', 'ok'), updatedAt: at(30) });
        expect((await tenant.sessions.get({ sessionId: 's-tx' }))?.messageCount).toBe(4);
      });

      it('searches what the transaction wrote, and after a rollback finds what replaced it, not what was undone', async () => {
        await seedSession(tenant, 's-tx', GARDEN.slice(0, 1));
        // Searched once before, so whatever the store keeps about the session is warm.
        expect(await searchArchive(tenant.search, { sessionId: 's-tx', query: 'zanzibar', limit: 5 })).toEqual([]);
        const undone = makeExchange('s-tx', 2, 'Zanzibar xylophone question', 'Zanzibar xylophone answer');
        const attempt = tenant.transaction(async (repositories) => {
          await repositories.messages.append({ sessionId: 's-tx', messages: undone, updatedAt: at(20) });
          const inside = await searchArchive(repositories.search, { sessionId: 's-tx', query: 'zanzibar', limit: 5 });
          expect(inside.map((hit) => hit.messageId).sort()).toEqual(undone.map((message) => message.id).sort());
          throw new Error('abort');
        });
        await expect(attempt).rejects.toThrow('abort');
        // The same positions and turn written again by other messages (other ids), one of them about Zanzibar too.
        const replacement = [
          makeMessage('s-tx', { id: 'replacement-user', turn: 2, position: 2, role: 'user', content: 'Zanzibar ferry times?' }),
          makeMessage('s-tx', { id: 'replacement-assistant', turn: 2, position: 3, role: 'assistant', content: 'The ferry leaves at nine.' }),
        ];
        await tenant.messages.append({ sessionId: 's-tx', messages: replacement, updatedAt: at(30) });
        const hits = await searchArchive(tenant.search, { sessionId: 's-tx', query: 'zanzibar xylophone ferry', limit: 5 });
        expect(hits.map((hit) => hit.messageId).sort()).toEqual(replacement.map((message) => message.id).sort());
        expect(hits.map((hit) => hit.turn)).toEqual([2, 2]);
      });

      it('rolls back when a write inside fails, and rejects', async () => {
        await seedSession(tenant, 's-tx', GARDEN.slice(0, 1));
        const attempt = tenant.transaction(async (repositories) => {
          await repositories.sessions.update({ sessionId: 's-tx', title: 'Should not stick', updatedAt: at(20) });
          // The same id again: the store must refuse it.
          await repositories.sessions.create({ session: makeSession('s-tx') });
        });
        await expect(attempt).rejects.toThrow();
        expect((await tenant.sessions.get({ sessionId: 's-tx' }))?.title).toBe('Conversation s-tx');
      });

      it('a read outside an open transaction sees all of it or none of it, and a later read sees it committed', async () => {
        await seedSession(tenant, 's-tx', GARDEN.slice(0, 1));
        const entered = deferred();
        const gate = deferred();
        const transaction = tenant.transaction(async (repositories) => {
          await repositories.messages.append({ sessionId: 's-tx', messages: makeExchange('s-tx', 2, 'q', 'a'), updatedAt: at(20) });
          entered.resolve();
          await gate.promise;
          await repositories.sessions.update({ sessionId: 's-tx', title: 'Committed title', updatedAt: at(21) });
        });
        await entered.promise;
        // (An adapter may answer at once with the state before, or wait for the commit: both are isolated.)
        const outside = Promise.all([tenant.sessions.get({ sessionId: 's-tx' }), tenant.messages.list({ sessionId: 's-tx' })]);
        await sleep(10);
        gate.resolve();
        await transaction;
        const [seen, listed] = await outside;
        const before = { title: 'Conversation s-tx', messageCount: 2, turnCount: 1 };
        const after = { title: 'Committed title', messageCount: 4, turnCount: 2, updatedAt: at(21) };
        // Each read is whole on its own; two reads are two snapshots (one may come before the commit, one after).
        expect(seen).toMatchObject(seen?.title === before.title ? before : after);
        expect([2, 4]).toContain(listed.length);
        expect(await tenant.sessions.get({ sessionId: 's-tx' })).toMatchObject(after);
        expect(await tenant.messages.list({ sessionId: 's-tx' })).toHaveLength(4);
      });

      it('a read outside a transaction that then fails never sees its writes', async () => {
        await seedSession(tenant, 's-tx', GARDEN.slice(0, 1));
        const entered = deferred();
        const gate = deferred();
        const transaction = tenant.transaction(async (repositories) => {
          await repositories.sessions.update({ sessionId: 's-tx', title: 'Uncommitted', updatedAt: at(20) });
          await repositories.messages.append({ sessionId: 's-tx', messages: makeExchange('s-tx', 2, 'q', 'a'), updatedAt: at(20) });
          entered.resolve();
          await gate.promise;
          throw new Error('abort');
        });
        await entered.promise;
        const outside = Promise.all([tenant.sessions.get({ sessionId: 's-tx' }), tenant.messages.list({ sessionId: 's-tx' })]);
        gate.resolve();
        await expect(transaction).rejects.toThrow('abort');
        const [seen, listed] = await outside;
        expect(seen).toMatchObject({ title: 'Conversation s-tx', messageCount: 2 });
        expect(listed).toHaveLength(2);
      });

      it('concurrent transactions end as if run one after the other: no update is lost', async () => {
        await tenant.sessions.create({ session: makeSession('s-tx', { title: 'log' }) });
        const work = (label: string): Promise<string> =>
          tenant.transaction(async (repositories) => {
            const session = await repositories.sessions.get({ sessionId: 's-tx' });
            await sleep(15);
            await repositories.sessions.update({ sessionId: 's-tx', title: `${session?.title ?? '?'}+${label}`, updatedAt: at(5) });
            // The next turn, as the session's counters say: two transactions taking the same one would collide.
            const turn = (session?.turnCount ?? 0) + 1;
            await repositories.messages.append({ sessionId: 's-tx', messages: makeExchange('s-tx', turn, `${label} asks`, `${label} answered`), updatedAt: at(5) });
            return label;
          });
        const results = await Promise.all([work('a'), work('b'), work('c')]);
        expect(results).toEqual(['a', 'b', 'c']);
        // Every transaction saw the previous one's write, and each appended its exchange.
        const session = await tenant.sessions.get({ sessionId: 's-tx' });
        const title = session?.title ?? '';
        expect(title.startsWith('log+')).toBe(true);
        expect(title.split('+').slice(1).sort()).toEqual(['a', 'b', 'c']);
        expect(session?.messageCount).toBe(6);
      });
    });

    describe('tenant isolation', () => {
      it('keeps the same session id and message ids in two tenants separate', async () => {
        const alpha = tenant;
        const beta = store.tenant('tenant-beta');
        const alphaMessages = await seedSession(alpha, 'shared', GARDEN.slice(0, 2), { title: 'Alpha garden' });
        const betaMessages = await seedSession(beta, 'shared', [['Beta asks about submarines.', 'Beta hears about sonar.']], { title: 'Beta subs' });
        expect(alphaMessages[0]!.id).toBe(betaMessages[0]!.id);

        expect((await alpha.sessions.get({ sessionId: 'shared' }))?.title).toBe('Alpha garden');
        expect((await beta.sessions.get({ sessionId: 'shared' }))?.title).toBe('Beta subs');
        expect(await alpha.messages.list({ sessionId: 'shared' })).toEqual(alphaMessages);
        expect(await beta.messages.list({ sessionId: 'shared' })).toEqual(betaMessages);
        expect(await beta.messages.getMany({ sessionId: 'shared', messageIds: alphaMessages.map((message) => message.id) })).toEqual(betaMessages);
        expect((await alpha.sessions.get({ sessionId: 'shared' }))?.messageCount).toBe(4);
        expect((await beta.sessions.get({ sessionId: 'shared' }))?.messageCount).toBe(2);

        await alpha.turns.upsert({ summary: makeTurnSummary('shared', 1, { userSummary: 'alpha turn' }) });
        await beta.turns.upsert({ summary: makeTurnSummary('shared', 1, { userSummary: 'beta turn' }) });
        expect((await alpha.turns.get({ sessionId: 'shared', turn: 1 }))?.userSummary).toBe('alpha turn');
        expect((await beta.turns.get({ sessionId: 'shared', turn: 1 }))?.userSummary).toBe('beta turn');
        expect(await beta.turns.listByStatus({ status: 'summarised', limit: 10 })).toHaveLength(1);

        await alpha.facts.apply(new FactScript('shared').add(1, 'fact-001', 'hobby', 'hobby: watercolor', 'fact', [alphaMessages[0]!.id]).flush());
        await beta.facts.apply(new FactScript('shared').add(1, 'fact-001', 'vessel', 'vessel: submarine', 'fact', [betaMessages[0]!.id]).flush());
        expect((await alpha.facts.list({ sessionId: 'shared' })).map((fact) => fact.text)).toEqual(['hobby: watercolor']);
        expect((await beta.facts.list({ sessionId: 'shared' })).map((fact) => fact.text)).toEqual(['vessel: submarine']);
        expect(await alpha.facts.lastSequence({ sessionId: 'shared' })).toBe(1);

        await alpha.artifacts.addVersion({ sessionId: 'shared', artifactId: 'art-1', name: 'notes', kind: 'draft', language: null, version: makeVersion(1, alphaMessages[1]!.id, 'alpha notes') });
        const betaVersion = await beta.artifacts.addVersion({ sessionId: 'shared', artifactId: 'art-1', name: 'notes', kind: 'draft', language: null, version: makeVersion(1, betaMessages[1]!.id, 'beta notes') });
        expect(betaVersion.version).toBe(1);
        expect((await alpha.artifacts.list({ sessionId: 'shared' }))[0]?.versions.map((version) => version.content)).toEqual(['alpha notes']);
        expect((await beta.artifacts.list({ sessionId: 'shared' }))[0]?.versions.map((version) => version.content)).toEqual(['beta notes']);
      });

      it("tenant A cannot get, list, search, update or delete tenant B's data", async () => {
        const alpha = tenant;
        const beta = store.tenant('tenant-beta');
        const betaMessages = await seedSession(beta, 'beta-only', [['Submarine sonar pings at depth', 'Sonar uses sound propagation in water.']], { title: 'Beta secret' });
        await beta.turns.upsert({ summary: makeTurnSummary('beta-only', 1, { status: 'pending-retry' }) });
        await beta.facts.apply(new FactScript('beta-only').add(1, 'fact-b', 'topic', 'topic: sonar', 'fact', [betaMessages[0]!.id]).flush());
        await beta.artifacts.addVersion({ sessionId: 'beta-only', artifactId: 'art-b', name: 'sonar.md', kind: 'draft', language: null, version: makeVersion(1, betaMessages[1]!.id, 'ping') });

        // Reads
        expect(await alpha.sessions.get({ sessionId: 'beta-only' })).toBeNull();
        expect(await alpha.sessions.list({ limit: 100 })).toEqual([]);
        expect(await alpha.messages.list({ sessionId: 'beta-only' })).toEqual([]);
        expect(await alpha.messages.listByTurns({ sessionId: 'beta-only', fromTurn: 0, toTurn: 100 })).toEqual([]);
        expect(await alpha.messages.getMany({ sessionId: 'beta-only', messageIds: betaMessages.map((message) => message.id) })).toEqual([]);
        expect(await alpha.messages.countUpToTurn({ sessionId: 'beta-only', toTurn: 100 })).toBe(0);
        expect(await alpha.messages.last({ sessionId: 'beta-only' })).toEqual({ turn: 0, position: -1 });
        expect((await alpha.messages.sentTimes({ sessionId: 'beta-only', turns: [1] })).size).toBe(0);
        expect(await alpha.turns.list({ sessionId: 'beta-only' })).toEqual([]);
        expect(await alpha.turns.get({ sessionId: 'beta-only', turn: 1 })).toBeNull();
        expect(await alpha.turns.listBefore({ sessionId: 'beta-only', beforeTurn: 100, limit: 10 })).toEqual([]);
        expect(await alpha.turns.listByStatus({ status: 'pending-retry', limit: 10 })).toEqual([]);
        expect(await alpha.facts.list({ sessionId: 'beta-only' })).toEqual([]);
        expect(await alpha.facts.listEvents({ sessionId: 'beta-only' })).toEqual([]);
        expect(await alpha.facts.lastSequence({ sessionId: 'beta-only' })).toBe(0);
        expect(await alpha.artifacts.list({ sessionId: 'beta-only' })).toEqual([]);
        expect(await searchArchive(alpha.search, { sessionId: 'beta-only', query: 'submarine sonar', limit: 10 })).toEqual([]);

        // Writes
        expect(await alpha.sessions.update({ sessionId: 'beta-only', title: 'Hijacked', updatedAt: at(99) })).toBe(false);
        await alpha.messages.updateTiers({
          sessionId: 'beta-only',
          updates: [{ messageId: betaMessages[0]!.id, tier1: 'hijacked', tier2: 'hijacked', tokens: { tier1: 1, tier2: 1, tier3: 1 }, requiredTier: 1 }],
        });
        expect(await alpha.sessions.delete({ sessionId: 'beta-only' })).toBe(false);

        // Beta's data is intact.
        expect((await beta.sessions.get({ sessionId: 'beta-only' }))?.title).toBe('Beta secret');
        expect(await beta.messages.list({ sessionId: 'beta-only' })).toEqual(betaMessages);
        expect(await beta.turns.list({ sessionId: 'beta-only' })).toHaveLength(1);
        expect(await beta.facts.list({ sessionId: 'beta-only' })).toHaveLength(1);
        expect(await beta.artifacts.list({ sessionId: 'beta-only' })).toHaveLength(1);
        expect(await searchArchive(beta.search, { sessionId: 'beta-only', query: 'submarine', limit: 10 })).toHaveLength(1);
      });

      it("tenant A's writes to a session id that only tenant B has do not land in B", async () => {
        const alpha = tenant;
        const beta = store.tenant('tenant-beta');
        const betaMessages = await seedSession(beta, 'beta-only', GARDEN.slice(0, 1));
        const betaSession = await beta.sessions.get({ sessionId: 'beta-only' });

        // Whether the adapter refuses these writes or keeps them in tenant A, B must not see them.
        await alpha.messages
          .append({ sessionId: 'beta-only', messages: makeExchange('beta-only', 2, 'intruder', 'intruder'), updatedAt: at(50) })
          .catch(() => undefined);
        await alpha.turns.upsert({ summary: makeTurnSummary('beta-only', 1, { userSummary: 'intruder' }) }).catch(() => undefined);
        await alpha.facts
          .apply(new FactScript('beta-only').add(1, 'fact-x', 'intruder', 'intruder: yes', 'fact', []).flush())
          .catch(() => undefined);

        expect(await beta.sessions.get({ sessionId: 'beta-only' })).toEqual(betaSession);
        expect(await beta.messages.list({ sessionId: 'beta-only' })).toEqual(betaMessages);
        expect(await beta.turns.list({ sessionId: 'beta-only' })).toEqual([]);
        expect(await beta.facts.listEvents({ sessionId: 'beta-only' })).toEqual([]);
        expect(await searchArchive(beta.search, { sessionId: 'beta-only', query: 'intruder', limit: 10 })).toEqual([]);
      });

      it('deleting a session in one tenant leaves the same session id in another tenant intact', async () => {
        const beta = store.tenant('tenant-beta');
        await seedSession(tenant, 'shared', GARDEN.slice(0, 1));
        const betaMessages = await seedSession(beta, 'shared', GARDEN.slice(0, 1));
        expect(await tenant.sessions.delete({ sessionId: 'shared' })).toBe(true);
        expect(await beta.messages.list({ sessionId: 'shared' })).toEqual(betaMessages);
        expect(await searchArchive(beta.search, { sessionId: 'shared', query: 'watercolor', limit: 10 })).toHaveLength(2);
      });
    });

    describe('deleting a session', () => {
      async function seedEverything(repositories: TenantRepositories, sessionId: string): Promise<Message[]> {
        const messages = await seedSession(repositories, sessionId, GARDEN);
        for (const turn of [1, 2, 3, 4]) {
          await repositories.turns.upsert({ summary: makeTurnSummary(sessionId, turn, { status: turn === 4 ? 'pending-retry' : 'summarised' }) });
        }
        await repositories.facts.apply(
          new FactScript(sessionId)
            .add(1, `${sessionId}-fact-1`, 'hobby', 'hobby: watercolor', 'fact', [messages[0]!.id])
            .add(2, `${sessionId}-fact-2`, 'fence', 'fence: blue', 'goal', [messages[2]!.id])
            .flush(),
        );
        await repositories.artifacts.addVersion({
          sessionId,
          artifactId: `${sessionId}-art`,
          name: 'plan.md',
          kind: 'draft',
          language: 'markdown',
          version: makeVersion(2, messages[3]!.id, '1. sand\n2. prime\n3. paint'),
        });
        await repositories.artifacts.addVersion({
          sessionId,
          artifactId: `${sessionId}-art`,
          name: 'plan.md',
          kind: 'draft',
          language: 'markdown',
          version: makeVersion(3, messages[5]!.id, '1. sand\n2. paint'),
        });
        return messages;
      }

      it('removes its messages, turns, facts, events, artifacts and search hits, leaving other sessions intact', async () => {
        await seedEverything(tenant, 's-gone');
        const keptMessages = await seedEverything(tenant, 's-kept');
        const keptBefore = {
          session: await tenant.sessions.get({ sessionId: 's-kept' }),
          turns: await tenant.turns.list({ sessionId: 's-kept' }),
          facts: await tenant.facts.list({ sessionId: 's-kept' }),
          events: await tenant.facts.listEvents({ sessionId: 's-kept' }),
          artifacts: await tenant.artifacts.list({ sessionId: 's-kept' }),
          search: hitIds(await searchArchive(tenant.search, { sessionId: 's-kept', query: 'watercolor tomatoes', limit: 10 })),
        };

        expect(await tenant.sessions.delete({ sessionId: 's-gone' })).toBe(true);

        expect(await tenant.sessions.get({ sessionId: 's-gone' })).toBeNull();
        expect(await tenant.messages.list({ sessionId: 's-gone' })).toEqual([]);
        expect(await tenant.messages.last({ sessionId: 's-gone' })).toEqual({ turn: 0, position: -1 });
        expect(await tenant.messages.getMany({ sessionId: 's-gone', messageIds: [messageId('s-gone', 0)] })).toEqual([]);
        expect(await tenant.turns.list({ sessionId: 's-gone' })).toEqual([]);
        expect(await tenant.turns.listByStatus({ sessionId: 's-gone', status: 'pending-retry', limit: 10 })).toEqual([]);
        expect(await tenant.facts.list({ sessionId: 's-gone' })).toEqual([]);
        expect(await tenant.facts.listEvents({ sessionId: 's-gone' })).toEqual([]);
        expect(await tenant.facts.lastSequence({ sessionId: 's-gone' })).toBe(0);
        expect(await tenant.artifacts.list({ sessionId: 's-gone' })).toEqual([]);
        expect(await searchArchive(tenant.search, { sessionId: 's-gone', query: 'watercolor tomatoes paint', limit: 10 })).toEqual([]);
        expect((await tenant.sessions.list({ limit: 10 })).map((session) => session.id)).toEqual(['s-kept']);

        expect(await tenant.sessions.get({ sessionId: 's-kept' })).toEqual(keptBefore.session);
        expect(await tenant.messages.list({ sessionId: 's-kept' })).toEqual(keptMessages);
        expect(await tenant.turns.list({ sessionId: 's-kept' })).toEqual(keptBefore.turns);
        expect(await tenant.facts.list({ sessionId: 's-kept' })).toEqual(keptBefore.facts);
        expect(await tenant.facts.listEvents({ sessionId: 's-kept' })).toEqual(keptBefore.events);
        expect(await tenant.artifacts.list({ sessionId: 's-kept' })).toEqual(keptBefore.artifacts);
        // BM25 scores depend on the whole index, so compare the hits, not their scores.
        expect(hitIds(await searchArchive(tenant.search, { sessionId: 's-kept', query: 'watercolor tomatoes', limit: 10 }))).toEqual(keptBefore.search);
        expect(await tenant.turns.listByStatus({ status: 'pending-retry', limit: 10 })).toEqual([keptBefore.turns[3]]);
      });

      it('a session re-created with the same id starts empty', async () => {
        await seedEverything(tenant, 's-again');
        await tenant.sessions.delete({ sessionId: 's-again' });
        await tenant.sessions.create({ session: makeSession('s-again') });

        expect(await tenant.sessions.get({ sessionId: 's-again' })).toEqual(makeSession('s-again'));
        expect(await tenant.messages.list({ sessionId: 's-again' })).toEqual([]);
        expect(await tenant.turns.list({ sessionId: 's-again' })).toEqual([]);
        expect(await tenant.facts.listEvents({ sessionId: 's-again' })).toEqual([]);
        expect(await tenant.artifacts.list({ sessionId: 's-again' })).toEqual([]);
        expect(await searchArchive(tenant.search, { sessionId: 's-again', query: 'watercolor', limit: 10 })).toEqual([]);

        // The old ids can be reused, and new data is searchable on its own.
        const messages = makeExchange('s-again', 1, 'A fresh start with origami cranes.', 'Fold a square base first.');
        await tenant.messages.append({ sessionId: 's-again', messages, updatedAt: at(10) });
        expect((await searchArchive(tenant.search, { sessionId: 's-again', query: 'origami watercolor', limit: 10 })).map((hit) => hit.messageId)).toEqual([messages[0]!.id]);
        const version = await tenant.artifacts.addVersion({
          sessionId: 's-again',
          artifactId: 's-again-art',
          name: 'plan.md',
          kind: 'draft',
          language: 'markdown',
          version: makeVersion(1, messages[1]!.id, 'fold'),
        });
        expect(version.version).toBe(1);
        await tenant.facts.apply(new FactScript('s-again').add(1, 's-again-fact-1', 'craft', 'craft: origami', 'fact', [messages[0]!.id]).flush());
        expect(await tenant.facts.lastSequence({ sessionId: 's-again' })).toBe(1);
      });
    });
  });
}
