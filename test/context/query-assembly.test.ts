import { afterEach, describe, expect, it } from 'vitest';
import type { ContextPackage } from '../../src/context/context-package.js';
import type { SessionHandle } from '../../src/memory/create-memory.js';
import { testMemory } from '../support/memory-fixtures.js';

const PARTS = [
  ['valve', 'Brennan Industrial', 'Leeds'],
  ['gasket', 'Okafor Seals', 'Lagos'],
  ['pump', 'Lindqvist Hydraulics', 'Malmö'],
  ['bearing', 'Tanaka Precision', 'Osaka'],
  ['filter', 'Moreau Filtration', 'Lyon'],
  ['hose', 'Castillo Rubber', 'Valencia'],
  ['sensor', 'Nakamura Devices', 'Kyoto'],
  ['motor', 'Schmidt Antriebe', 'Kassel'],
  ['coupling', 'Rossi Meccanica', 'Turin'],
  ['clamp', 'Novak Steel', 'Brno'],
  ['flange', 'Petrov Forge', 'Varna'],
  ['actuator', 'Haddad Controls', 'Amman'],
] as const;

/** A procurement conversation: one supplier decision per turn, each with a name and a city, then small talk. */
async function procurementSession(memory: ReturnType<typeof testMemory>['memory']): Promise<SessionHandle> {
  const session = await memory.sessions.create({ title: 'Suppliers' });
  for (const [part, supplier, city] of PARTS) {
    await session.record({
      user: `We picked ${supplier} from ${city} as the ${part} supplier, with a framework contract for 24 months.`,
      assistant: `Noted: ${supplier} in ${city} supplies the ${part} parts under a 24-month framework contract.`,
    });
  }
  for (let turn = 0; turn < 8; turn += 1) {
    await session.record({ user: `Status check number ${turn + 1}, anything new on the line?`, assistant: 'Nothing new; production runs as planned.' });
  }
  return session;
}

function texts(pkg: ContextPackage, section: string): string[] {
  return pkg.sections.find((candidate) => candidate.name === section)?.items.map((item) => item.text) ?? [];
}

describe('assembling with a query', () => {
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await cleanup?.();
    cleanup = undefined;
  });

  it('gives room to the facts and messages the query names when the document does not fit', async () => {
    const fixture = testMemory();
    cleanup = fixture.cleanup;
    const session = await procurementSession(fixture.memory);
    const facts = await session.facts();
    expect(facts.some((fact) => fact.text.includes('Brennan Industrial'))).toBe(true);

    const plain = await session.context({ budget: 300 });
    const asked = await session.context({ budget: 300, query: 'Which company supplies our valve parts?' });
    expect(plain.tokens).toBeLessThanOrEqual(300);
    expect(asked.tokens).toBeLessThanOrEqual(300);
    // Without a query the freshest facts win the small budget; the query brings the old valve decision back.
    expect(plain.render().some((message) => message.content.includes('Brennan'))).toBe(false);
    const mentioning = asked.sections.flatMap((section) => section.items).filter((item) => item.text.includes('Brennan'));
    expect(mentioning.length).toBeGreaterThan(0);
    // Traceable to the turn it came from.
    const valveTurn = (await session.messages()).filter((message) => message.content.includes('Brennan')).map((message) => message.id);
    expect(mentioning.flatMap((item) => item.sourceMessageIds).some((id) => valveTurn.includes(id))).toBe(true);
    // The latest exchange is still there, verbatim.
    expect(texts(asked, 'window').some((text) => text.includes('Status check number 8'))).toBe(true);
  });

  it('keeps the whole document when recall finds nothing and the budget has room for it', async () => {
    const fixture = testMemory();
    cleanup = fixture.cleanup;
    const session = await procurementSession(fixture.memory);
    const plain = await session.context({ budget: 6000 });
    const asked = await session.context({ budget: 6000, query: 'zebra xylophone quasar' });
    expect(texts(asked, 'recalled')).toEqual([]);
    expect(texts(asked, 'facts')).toEqual(texts(plain, 'facts'));
    expect(texts(asked, 'facts').length).toBe((await session.facts()).filter((fact) => !fact.pinned).length);
  });

  it('covers more hits in brief form at a small budget and shows the best hit in full when there is room', async () => {
    const fixture = testMemory();
    cleanup = fixture.cleanup;
    const session = await procurementSession(fixture.memory);
    const query = 'framework contract supplier parts';

    const small = await session.context({ budget: 500, query });
    const smallRecalled = small.sections.find((section) => section.name === 'recalled')?.items ?? [];
    expect(small.tokens).toBeLessThanOrEqual(500);
    expect(smallRecalled.length).toBeGreaterThan(0);
    expect(smallRecalled.some((item) => item.tier !== null && item.tier < 3)).toBe(true);
    // A brief line is shorter than the message it stands for, and still names it as its source.
    const messages = new Map((await session.messages()).map((message) => [message.id, message]));
    for (const item of smallRecalled.filter((entry) => entry.tier !== null && entry.tier < 3)) {
      const source = messages.get(item.sourceMessageIds[0] ?? '');
      expect(source).toBeDefined();
      // (The line's [turn N, date] mark and speaker take up to 15 tokens.)
      expect(item.tokens).toBeLessThan((source?.tokens.tier3 ?? 0) + 15);
    }

    const large = await session.context({ budget: 20000, query });
    const largeRecalled = large.sections.find((section) => section.name === 'recalled')?.items ?? [];
    expect(largeRecalled.length).toBeGreaterThanOrEqual(smallRecalled.length);
    expect(largeRecalled.every((item) => item.tier === 3)).toBe(true);
  });

  it('is deterministic for the same query and budget', async () => {
    const fixture = testMemory();
    cleanup = fixture.cleanup;
    const session = await procurementSession(fixture.memory);
    const first = await session.context({ budget: 700, query: 'pump supplier in Malmö' });
    const second = await session.context({ budget: 700, query: 'pump supplier in Malmö' });
    expect(second.toJSON()).toEqual(first.toJSON());
  });
});
