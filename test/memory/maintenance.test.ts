/**
 * Maintenance of long-term memory through the public API (`memory.memories.tend`): each local agent's
 * change is a version, tag or edge attributed to it with its reason, the run is kept with what it did,
 * the run's bounds hold, and what the tagger holds for approval waits for a person.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { isStrataError } from '../../src/core/errors.js';
import type { MemoryOptions } from '../../src/memory/create-memory.js';
import type { LongTermMemory, MaintenanceRun, Memory } from '../../src/index.js';
import { applyAction } from '../../src/memory/maintenance/apply-action.js';
import { leansOnItsConversation } from '../../src/memory/maintenance/reviewer.js';
import { createInMemoryStore } from '../support/in-memory-store.js';
import { sequentialIds, testMemory } from '../support/memory-fixtures.js';

let cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups) await cleanup();
  cleanups = [];
});

/** A memory whose clock moves a second a call, and jumps when told. */
function tendedMemory(options: MemoryOptions = {}): { memory: Memory; jump: (days: number) => void } {
  let time = Date.parse('2026-03-01T09:00:00.000Z');
  const made = testMemory({
    clock: () => {
      time += 1000;
      return new Date(time);
    },
    ...options,
  });
  cleanups.push(made.cleanup);
  return { memory: made.memory, jump: (days) => (time += days * 86_400_000) };
}

const actionsOf = (run: MaintenanceRun, agent: string): MaintenanceRun['actions'] => run.actions.filter((action) => action.agent === agent);

describe('maintenance of long-term memory', () => {
  it('archives a memory a newer one replaces (a change, or a duplicate keeping every name), never one about another day', async () => {
    const { memory } = tendedMemory();
    const old = await memory.memories.add({ value: 'My rate is €65 an hour for consulting work.' });
    const saturday = await memory.memories.add({ value: 'Never schedule anything on a Saturday: it is family day.' });
    const changed = await memory.memories.add({ value: 'My rate is now €75 an hour for consulting work.' });
    await memory.memories.add({ value: 'Never schedule anything on a Sunday: it is family day.' });
    const run = await memory.memories.tend({ agents: ['archiver'] });

    expect(actionsOf(run, 'archiver').map((action) => [action.kind, action.memoryIds, action.status])).toEqual([
      ['link', [changed.id], 'applied'],
      ['deprecate', [old.id], 'applied'],
    ]);
    expect((await memory.memories.get(old.id)).deprecated).toBe(true);
    expect((await memory.memories.get(saturday.id)).deprecated).toBe(false);
    const last = (await memory.memories.history(old.id)).at(-1);
    expect(last?.by).toBe('agent:archiver');
    expect(last?.reason).toBe('replaced by M3 ("My rate is now €75 an hour for consulting work."), which says it changes this (both say rate, hour, consulting but give 75 and 65)');
    expect(await memory.memories.edges(old.id)).toEqual([expect.objectContaining({ fromId: changed.id, toId: old.id, type: 'supersedes', by: 'agent:archiver' })]);
    expect(await memory.memories.run(run.id)).toEqual(run);
  });

  it('leaves a memory a person restored after the archiver deprecated it, and the one that superseded it', async () => {
    const { memory } = tendedMemory();
    const old = await memory.memories.add({ value: 'My rate is €65 an hour for consulting work.' });
    const changed = await memory.memories.add({ value: 'My rate is now €75 an hour for consulting work.' });
    await memory.memories.tend({ agents: ['archiver'] });
    expect((await memory.memories.get(old.id)).deprecated).toBe(true);
    await memory.memories.deprecate(old.id, { deprecated: false, reason: 'both rates hold: €65 for old clients' });
    const again = await memory.memories.tend({ agents: ['archiver'] });
    expect(again.actions).toEqual([]);
    // With the edge taken away too, the restore does not make the older memory the newer statement.
    await memory.memories.unlink(changed.id, old.id, 'supersedes');
    expect((await memory.memories.tend({ agents: ['archiver'] })).actions).toEqual([]);
    expect((await memory.memories.get(old.id)).deprecated).toBe(false);
    expect((await memory.memories.get(changed.id)).deprecated).toBe(false);
  });

  it('keeps an older memory whose restatement loses a name, and archives one restated whole', async () => {
    const { memory } = tendedMemory();
    const named = await memory.memories.add({ value: 'Ellie closes the café on Tuesdays.' });
    const whole = await memory.memories.add({ value: 'The café opens at seven every weekday.' });
    await memory.memories.add({ value: 'The café closes on Tuesdays.' });
    await memory.memories.add({ value: 'Every weekday the café opens at seven.' });
    await memory.memories.tend({ agents: ['archiver'] });
    expect((await memory.memories.get(named.id)).deprecated).toBe(false);
    expect((await memory.memories.get(whole.id)).deprecated).toBe(true);
  });

  it('condenses a verbose memory, keeping the original as a version that undo brings back', async () => {
    const { memory } = tendedMemory();
    const verbose =
      'Basically, Ellie prefers oat milk in her flat white, you know, and an almond croissant on Fridays. By the way, Ellie prefers oat milk in her flat white. In order to keep her happy, keep oat milk in stock on Tuesdays.';
    const made = await memory.memories.add({ value: verbose });
    const run = await memory.memories.tend({ agents: ['condenser'] });
    const condensed = await memory.memories.get(made.id);
    expect(condensed.value).toBe('Ellie prefers oat milk in her flat white, and an almond croissant on Fridays. To keep her happy, keep oat milk in stock on Tuesdays.');
    expect(actionsOf(run, 'condenser')[0]?.reason).toMatch(/^condensed from 216 to 132 characters \(filler and 1 repeated sentence left out/u);
    const versions = await memory.memories.history(made.id);
    expect(versions.map((version) => [version.value, version.by])).toEqual([
      [verbose, 'user'],
      [condensed.value, 'agent:condenser'],
    ]);
    expect((await memory.memories.undo(made.id)).value).toBe(verbose);
    // A short memory, or one whose shorter form would lose a number, is left as it is.
    const again = await memory.memories.tend({ agents: ['condenser'] });
    expect(actionsOf(again, 'condenser')).toHaveLength(1);
  });

  it('links memories that contradict each other or share a name, and the reviewer flags the contradiction on both', async () => {
    const { memory } = tendedMemory();
    const low = await memory.memories.add({ value: 'The staging server runs in eu-west with 4 cores.', tags: ['infrastructure'] });
    const high = await memory.memories.add({ value: 'The staging server runs in eu-west with 8 cores.', tags: ['infrastructure'] });
    const sam = await memory.memories.add({ value: 'I live in Leeds with my partner Sam.', tags: ['profile'] });
    const allergy = await memory.memories.add({ value: 'Sam is allergic to peanuts.', tags: ['profile'] });
    const run = await memory.memories.tend({ agents: ['linker', 'reviewer'] });

    const links = actionsOf(run, 'linker').map((action) => [action.memoryIds[0], action.toId, action.edgeType]);
    expect(links).toEqual([
      [low.id, high.id, 'contradicts'],
      [sam.id, allergy.id, 'relates-to'],
    ]);
    expect((await memory.memories.edges(low.id))[0]?.reason).toBe('both say staging, server, runs but give 4 and 8: M2 ("The staging server runs in eu-west with 8 cores.")');
    const flagged = actionsOf(run, 'reviewer').map((action) => [action.memoryIds[0], action.reason]);
    expect(flagged).toEqual([
      [low.id, 'contradicts M2 ("The staging server runs in eu-west with 8 cores."): keep one, or say which holds when'],
      [high.id, 'contradicts M1 ("The staging server runs in eu-west with 4 cores."): keep one, or say which holds when'],
    ]);
    // Every memory examined is marked reviewed and tended; a second run links nothing again.
    const reviewed = await memory.memories.get(sam.id);
    expect(reviewed.reviewedAt).toBe(run.startedAt);
    expect(reviewed.tendedAt).toBe(run.startedAt);
    expect(actionsOf(await memory.memories.tend({ agents: ['linker'] }), 'linker')).toEqual([]);
  });

  it('tags untagged memories broadly, splits a crowded tag into subtags by what its members are about, and flags what stays untagged', async () => {
    const { memory } = tendedMemory({ refineTagsAbove: 6 });
    const plain = await memory.memories.add({ value: 'The boiler code is 4471.' });
    const goal = await memory.memories.add({ value: 'One day I want to run a second café in York.' });
    const members: LongTermMemory[] = [];
    for (const what of ['invoices', 'invoices', 'invoices', 'invoices', 'deliveries', 'deliveries', 'deliveries', 'rotas']) {
      members.push(await memory.memories.add({ value: `Never send ${what} without checking them with Ellie (${String(members.length + 1)}).`, tags: ['rules'] }));
    }
    const run = await memory.memories.tend({ agents: ['tagger', 'reviewer'] });

    expect(await memory.memories.tagsOf(goal.id)).toEqual(['goals']);
    expect(await memory.memories.tagsOf(plain.id)).toEqual([]);
    const subtags = actionsOf(run, 'tagger').filter((action) => action.tags?.[0]?.startsWith('rules/'));
    expect(subtags.map((action) => [action.tags, action.memoryIds.length, action.status])).toEqual([
      [['rules/invoices'], 4, 'applied'],
      [['rules/deliveries'], 3, 'applied'],
    ]);
    expect(subtags[0]?.reason).toBe('"rules" holds 8 memories without a subtag; 4 of them are about "invoices"');
    expect(await memory.memories.tagsOf(members[0]!.id)).toEqual(['rules', 'rules/invoices']);
    expect((await memory.memories.tags()).find((count) => count.tag === 'rules/invoices')?.memories).toBe(4);
    expect(actionsOf(run, 'reviewer').map((action) => [action.memoryIds[0], action.reason])).toEqual([[plain.id, 'has no tag: tag it so it can be found by tag']]);
  });

  it('holds subtags for approval when asked: approving puts them on, rejecting changes nothing, and only a proposal is settled', async () => {
    const { memory } = tendedMemory({ refineTagsAbove: 3, tagRefinement: 'approve' });
    const members: LongTermMemory[] = [];
    for (const what of ['invoices', 'invoices', 'invoices', 'deliveries', 'deliveries', 'deliveries']) members.push(await memory.memories.add({ value: `Never send ${what} late.`, tags: ['rules'] }));
    const run = await memory.memories.tend({ agents: ['tagger'] });
    expect(run.actions.map((action) => [action.tags, action.status])).toEqual([
      [['rules/deliveries'], 'proposed'],
      [['rules/invoices'], 'proposed'],
    ]);
    expect(await memory.memories.tagsOf(members[0]!.id)).toEqual(['rules']);

    const approved = await memory.memories.approve(run.id, 1);
    expect(approved.actions.map((action) => action.status)).toEqual(['proposed', 'approved']);
    expect(await memory.memories.tagsOf(members[0]!.id)).toEqual(['rules', 'rules/invoices']);
    expect((await memory.memories.tags()).find((count) => count.tag === 'rules/invoices')?.memories).toBe(3);
    const rejected = await memory.memories.reject(run.id, 0);
    expect(rejected.actions.map((action) => action.status)).toEqual(['rejected', 'approved']);
    expect(await memory.memories.tagsOf(members[3]!.id)).toEqual(['rules']);
    expect(await memory.memories.run(run.id)).toEqual(rejected);

    const again = await memory.memories.approve(run.id, 1).catch((error: unknown) => error);
    expect(isStrataError(again, 'INVALID_INPUT') && again.message).toBe(`Action 1 of run "${run.id}" is approved, not proposed: only proposals are approved or rejected.`);
    expect(isStrataError(await memory.memories.approve(run.id, 2).catch((error: unknown) => error), 'INVALID_INPUT')).toBe(true);
    expect(isStrataError(await memory.memories.reject('no-such-run', 0).catch((error: unknown) => error), 'NOT_FOUND')).toBe(true);
    expect(await memory.memories.run(run.id)).toEqual(rejected);
    // A rejected subtag is not proposed again.
    const next = await memory.memories.tend({ agents: ['tagger'] });
    expect(next.actions.flatMap((action) => action.tags ?? [])).not.toContain('rules/deliveries');
  });

  it('examines the memories tended least recently first, stops changing at its limit, and says what it left out', async () => {
    const { memory } = tendedMemory();
    const made: LongTermMemory[] = [];
    for (const value of ['Never book trains before 9 am.', 'I prefer aisle seats.', 'One day I want to learn Welsh.', 'Always copy Ellie into supplier emails.']) made.push(await memory.memories.add({ value }));
    const first = await memory.memories.tend({ agents: ['tagger'], limit: 2, maxChanges: 1 });
    expect(first.examined).toBe(2);
    expect(first.actions.map((action) => action.memoryIds)).toEqual([[made[0]!.id]]);
    expect(first.leftOut).toBe(1);
    expect(first.limits).toEqual({ memories: 2, changes: 1 });
    // The memory whose action was left out is not marked tended: the next run starts with it, then the first one not examined.
    expect((await memory.memories.get(made[0]!.id)).tendedAt).toBe(first.startedAt);
    expect((await memory.memories.get(made[1]!.id)).tendedAt).toBeNull();
    const second = await memory.memories.tend({ agents: ['tagger'], limit: 2 });
    expect(second.actions.map((action) => action.memoryIds[0])).toEqual([made[1]!.id, made[2]!.id]);
    expect((await memory.memories.runs()).map((run) => run.id)).toEqual([second.id, first.id]);
    expect((await memory.memories.runs({ limit: 1, offset: 1 })).map((run) => run.id)).toEqual([first.id]);
  });

  it('flags a memory that says too little without its conversation', async () => {
    const { memory } = tendedMemory();
    const pointing = await memory.memories.add({ value: 'She said no, leave everything else as it is.', tags: ['notes'] });
    await memory.memories.add({ value: 'Garage door code: 4471', tags: ['house'] });
    await memory.memories.add({ value: "Don't schedule anything on a Saturday, ever", tags: ['rules'] });
    const run = await memory.memories.tend({ agents: ['reviewer'] });
    expect(run.actions.map((action) => [action.memoryIds[0], action.reason])).toEqual([
      [pointing.id, 'leans on its conversation ("She" refers to something it does not say): say who or what, or deprecate it'],
    ]);
    // A promoted memory is read after its key, a label the manager made.
    expect(leansOnItsConversation({ value: 'janet leave: she said no, leave everything else as it is', subject: 'janet-leave' })).toMatch(/^leans on its conversation \("she"/u);
    expect(leansOnItsConversation({ value: 'island: 7 feet now', subject: 'island' })).toBe('says too little to stand alone: add what it is about, or deprecate it');
    expect(leansOnItsConversation({ value: "schedule: Don't schedule anything on a Saturday, ever", subject: 'schedule' })).toBeNull();
  });

  it('asks about a memory not recalled for 90 days', async () => {
    const { memory, jump } = tendedMemory();
    const old = await memory.memories.add({ value: 'The alarm code is 2231.', tags: ['house'] });
    jump(120);
    const fresh = await memory.memories.add({ value: 'The wifi password is on the fridge.', tags: ['house'] });
    const run = await memory.memories.tend({ agents: ['reviewer'] });
    expect(run.actions.map((action) => [action.memoryIds[0], action.reason])).toEqual([[old.id, 'not recalled for 120 days: is it still true?']]);
    expect((await memory.memories.get(fresh.id)).reviewedAt).toBe(run.startedAt);
  });

  it('corrects a promoted memory from newer evidence in its session, as a version saying where it came from', async () => {
    const first = testMemory();
    const session = await first.memory.sessions.create({ title: 'Rates' });
    await session.record({ user: 'My rate is €65 an hour.', assistant: 'Noted.' });
    await first.memory.close();
    // The same database, written by a process that does not promote: the session's rate changes, the memory does not.
    const { memory, jump } = tendedMemory({ path: first.path, promote: false, newId: sequentialIds('again') });
    cleanups.push(first.cleanup);
    jump(1);
    const reopened = await memory.sessions.open(session.id);
    await reopened.record({ user: "Actually my rate changes: I'm charging €75 an hour now.", assistant: 'Noted: €75 an hour.' });
    const [promoted] = await memory.memories.list();
    expect(promoted?.value).toBe('rate: €65 an hour');
    const fact = (await reopened.facts()).find((held) => held.key === 'rate');
    expect(fact?.text).toMatch(/75/u);

    const run = await memory.memories.tend({ agents: ['corrector'] });
    expect(run.actions.map((action) => [action.kind, action.memoryIds[0], action.value])).toEqual([['revise', promoted?.id, fact?.text]]);
    const last = (await memory.memories.history(promoted!.id)).at(-1);
    expect(last?.by).toBe('agent:corrector');
    expect(last?.reason).toBe(`newer evidence: session ${session.id}, turn 2 says "${String(fact?.text)}"`);
    expect(actionsOf(await memory.memories.tend({ agents: ['corrector'] }), 'corrector')).toEqual([]);
  });

  it('refuses bad options with INVALID_INPUT, changing nothing', async () => {
    const { memory } = tendedMemory();
    await memory.memories.add({ value: 'I prefer aisle seats.' });
    for (const options of [{ agents: ['nobody'] }, { agents: 'tagger' }, { limit: 0 }, { maxChanges: -1 }, { limit: 1.5 }, null, 'all']) {
      const failure = await Promise.resolve()
        .then(() => memory.memories.tend(options as never))
        .catch((error: unknown) => error);
      expect(isStrataError(failure, 'INVALID_INPUT'), JSON.stringify(options)).toBe(true);
    }
    expect(await memory.memories.runs()).toEqual([]);
    expect((await memory.memories.list())[0]?.tendedAt).toBeNull();
  });
});

describe('applying a maintenance action', () => {
  it('leaves a memory changed after the agent read it, and tags only memories still current', async () => {
    const memories = createInMemoryStore().tenant('acme').longTerm;
    const at = '2026-05-01T10:00:00.000Z';
    const made = await memories.create({ memory: { id: 'm1', name: null, value: 'A long value to condense.', sources: [], at }, by: 'user', reason: 'told' });
    await memories.create({ memory: { id: 'm2', name: null, value: 'Another memory.', sources: [], at }, by: 'user', reason: 'told' });
    await memories.revise({ id: 'm1', value: 'The person changed it meanwhile.', by: 'user', reason: 'edited', at });
    const revise = { agent: 'condenser' as const, kind: 'revise' as const, memoryIds: ['m1'], version: made.version, value: 'Condensed.', reason: 'condensed', status: 'applied' as const };
    expect(await applyAction(memories, revise, at)).toBe('M1 changed after the condenser read it (version 1, now 2): left as it is');
    expect((await memories.get({ id: 'm1' }))?.value).toBe('The person changed it meanwhile.');
    await memories.revise({ id: 'm2', deprecated: true, by: 'user', reason: 'old', at });
    const tag = { agent: 'tagger' as const, kind: 'tag' as const, memoryIds: ['m1', 'm2'], tags: ['notes'], reason: 'refined', status: 'proposed' as const };
    expect(await applyAction(memories, tag, at)).toBeNull();
    expect((await memories.tags({ id: 'm1' })).map((held) => held.tag)).toEqual(['notes']);
    expect(await memories.tags({ id: 'm2' })).toEqual([]);
    expect(await applyAction(memories, { ...tag, memoryIds: ['m2'] }, at)).toBe('every memory it would tag is gone or deprecated');
  });
});
