import { afterEach, describe, expect, it } from 'vitest';
import { formatFacts } from '../../src/cli/format.js';
import type { SessionHandle } from '../../src/memory/create-memory.js';
import type { Memory } from '../../src/memory/create-memory.js';
import { testMemory } from '../support/memory-fixtures.js';

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

const KICKOFF = 'The kickoff meeting with the client is on 3 March.';
/** Is the workshop the kickoff? Nothing in the message says so. */
const WORKSHOP = 'Actually the client workshop moved, it is now on 10 March.';

async function doubtedSession(): Promise<{ memory: Memory; session: SessionHandle }> {
  const fixture = testMemory();
  cleanup = fixture.cleanup;
  const session = await fixture.memory.sessions.create({ title: 'Client project' });
  await session.record({ user: KICKOFF, assistant: 'Noted: 3 March.' });
  await session.record({ user: WORKSHOP, assistant: 'Noted: 10 March.' });
  return { memory: fixture.memory, session };
}

/** The lines of the package's memory (its system message). */
async function memoryLines(session: SessionHandle): Promise<string[]> {
  return (await session.context({ budget: 2000 })).render()[0]?.content.split('\n') ?? [];
}

describe('a fact that may have been superseded', () => {
  it('is kept beside the newer line when the manager cannot tell they are one thing, and the package never shows it alone', async () => {
    const { session } = await doubtedSession();
    const facts = await session.facts();
    const kickoff = facts.find((fact) => fact.text.includes('3 March'));
    const workshop = facts.find((fact) => fact.text.includes('10 March'));
    expect(kickoff?.text).toBe('kickoff: meeting with the client is on 3 March');
    expect(workshop?.mayReplace).toBe(kickoff?.id);
    const added = (await session.factEvents()).find((event) => event.factId === workshop?.id);
    expect(added).toMatchObject({ op: 'add', mayReplace: kickoff?.id, reason: 'added; it may replace "kickoff" (turn 1), which is kept' });

    const lines = await memoryLines(session);
    const dated = lines.filter((line) => line.includes('March'));
    expect(dated).toHaveLength(1);
    expect(dated[0]).toMatch(/^- client workshop: .*10 March \[may replace turn 1: "kickoff: meeting with the client is on 3 March"\] \(turn 2\)$/u);
    // The line carries both facts' sources.
    const item = (await session.context({ budget: 2000 })).sections.flatMap((section) => section.items).find((entry) => entry.text.includes('may replace'));
    expect(item?.sourceMessageIds).toEqual(expect.arrayContaining([...(kickoff?.sourceMessageIds ?? []), ...(workshop?.sourceMessageIds ?? [])]));
    // Listings say it too.
    expect(formatFacts(facts)).toContain(`- kickoff: meeting with the client is on 3 March (turn 1) — possibly superseded by "client workshop" (turn 2)`);
    expect(await session.export({ format: 'markdown' })).toContain('- kickoff: meeting with the client is on 3 March _(turn 1)_ — possibly superseded by "client workshop" (turn 2)');
  });

  it('is settled by a person: removing the older fact leaves the newer alone; restating it shows both as current', async () => {
    const { session } = await doubtedSession();
    const kickoff = (await session.facts()).find((fact) => fact.text.includes('3 March'));
    await session.facts.edit({ fact: kickoff?.id ?? '', text: 'kickoff: meeting with the client on 3 March, separate from the workshop', reason: 'two meetings' });
    let lines = await memoryLines(session);
    expect(lines.some((line) => line.includes('may replace'))).toBe(false);
    expect(lines.filter((line) => line.includes('March'))).toHaveLength(2);
    expect(formatFacts(await session.facts())).not.toContain('possibly superseded');

    await session.facts.remove({ fact: kickoff?.id ?? '', reason: 'the workshop is the kickoff' });
    lines = await memoryLines(session);
    expect(lines.filter((line) => line.includes('March'))).toEqual([expect.stringMatching(/^- client workshop: .*10 March \(turn 2\)$/u)]);
  });

  it('stands alone again when the newer line goes', async () => {
    const { session } = await doubtedSession();
    const workshop = (await session.facts()).find((fact) => fact.text.includes('10 March'));
    await session.facts.remove({ fact: workshop?.id ?? '', reason: 'the workshop was cancelled' });
    const lines = await memoryLines(session);
    expect(lines.filter((line) => line.includes('March'))).toEqual([expect.stringMatching(/^- kickoff: meeting with the client is on 3 March \(turn 1\)$/u)]);
  });

  it('survives an export and an import under new ids, the link following the new ids', async () => {
    const { memory, session } = await doubtedSession();
    const exported = await session.export({ format: 'json' });
    const imported = await memory.sessions.import({ data: exported, newIds: true });
    const copy = await memory.sessions.open(imported.sessionId);
    const facts = await copy.facts();
    const kickoff = facts.find((fact) => fact.text.includes('3 March'));
    const workshop = facts.find((fact) => fact.text.includes('10 March'));
    expect(kickoff?.id).not.toBe((await session.facts()).find((fact) => fact.text.includes('3 March'))?.id);
    expect(workshop?.mayReplace).toBe(kickoff?.id);
    expect(await memoryLines(copy)).toEqual(await memoryLines(session));
  });
});
