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

  it('shows the best hits in full, later hits in brief form, and every hit in full when there is room', async () => {
    const fixture = testMemory();
    cleanup = fixture.cleanup;
    const session = await fixture.memory.sessions.create({ title: 'Suppliers, at length' });
    for (const [part, supplier, city] of PARTS) {
      await session.record({
        user:
          `About the ${part} supplier: we went with ${supplier} from ${city} under a framework contract. The site visit went well, ` +
          'the quality team liked what they saw on the line, the samples passed every test we ran, and their lead times beat the ' +
          'other bids by a week or two. Legal still wants one more look at the liability clause before anyone signs.',
        assistant: `Noted: ${supplier} in ${city} for the ${part} parts, framework contract pending the liability review.`,
      });
    }
    for (let turn = 0; turn < 8; turn += 1) await session.record({ user: `Status check number ${turn + 1}.`, assistant: 'Nothing new.' });
    const query = 'framework contract supplier';

    const small = await session.context({ budget: 500, query });
    const smallRecalled = small.sections.find((section) => section.name === 'recalled')?.items ?? [];
    expect(small.tokens).toBeLessThanOrEqual(500);
    expect(smallRecalled.length).toBeGreaterThan(0);
    const full = smallRecalled.filter((item) => item.tier === 3);
    const brief = smallRecalled.filter((item) => item.tier !== null && item.tier < 3);
    expect(full.length).toBeGreaterThan(0);
    expect(brief.length).toBeGreaterThan(0);
    // A brief line is shorter than the message it stands for, and still names it as its source.
    const messages = new Map((await session.messages()).map((message) => [message.id, message]));
    for (const item of brief) {
      const source = messages.get(item.sourceMessageIds[0] ?? '');
      expect(source).toBeDefined();
      // (The line's [turn N] mark and speaker take a few tokens.)
      expect(item.tokens).toBeLessThan((source?.tokens.tier3 ?? 0) + 6);
    }

    const large = await session.context({ budget: 20000, query });
    const largeRecalled = large.sections.find((section) => section.name === 'recalled')?.items ?? [];
    expect(largeRecalled.length).toBeGreaterThanOrEqual(smallRecalled.length);
    expect(largeRecalled.every((item) => item.tier === 3)).toBe(true);
  });

  it('recalls the reply to a message that asks what the query asks, though the reply shares no word with it', async () => {
    const fixture = testMemory();
    cleanup = fixture.cleanup;
    const session = await fixture.memory.sessions.create({ title: 'Friends' });
    await session.record({ user: { content: 'Love the necklace, any special meaning to it?', speaker: 'Mel' }, assistant: { content: 'A gift from my grandma: love, faith and strength.', speaker: 'Caro' } });
    for (let turn = 0; turn < 12; turn += 1) {
      await session.record({ user: `Painting day ${turn + 1} went well.`, assistant: 'Glad to hear it, keep going.' });
    }
    const pkg = await session.context({ budget: 400, query: "What does Caro's necklace mean?" });
    const recalled = texts(pkg, 'recalled');
    expect(recalled.some((text) => text.includes('any special meaning'))).toBe(true);
    expect(recalled.some((text) => text.includes('love, faith and strength'))).toBe(true);
    // In conversation order, question first.
    expect(recalled.findIndex((text) => text.includes('faith'))).toBeGreaterThan(recalled.findIndex((text) => text.includes('necklace')));
  });

  it('gives the fact the query asks about room before constraints it does not name', async () => {
    const fixture = testMemory();
    cleanup = fixture.cleanup;
    const session = await fixture.memory.sessions.create({ title: 'Migration' });
    const rules = ['The API has to respond within 200 ms.', 'Customer data has to stay in Germany.', 'Either Maya or Tomas has to approve a deploy.', 'Our PCI scope has to stay at SAQ A.'];
    for (const rule of rules) await session.record({ user: rule, assistant: 'Noted.' });
    await session.record({ user: 'The cutover is Saturday, April 12, after the quarter-end freeze.', assistant: 'April 12 it is.' });
    for (let turn = 0; turn < 8; turn += 1) await session.record({ user: `Status check number ${turn + 1}.`, assistant: 'All quiet.' });
    const pkg = await session.context({ budget: 180, query: 'When is the cutover?' });
    expect(pkg.tokens).toBeLessThanOrEqual(180);
    const facts = texts(pkg, 'facts');
    expect(facts.some((text) => text.includes('April 12'))).toBe(true);
    // Room is short: some constraint the query does not name is left out, the cutover is not.
    expect(facts.length).toBeLessThan(rules.length + 1);
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
