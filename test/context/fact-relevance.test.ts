import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FactTerms } from '../../src/context/fact-relevance.js';
import { stemWord } from '../../src/core/text.js';
import type { Fact } from '../../src/core/types.js';

function fact(id: string, text: string): Fact {
  return {
    id,
    sessionId: 'session-1',
    key: text.split(':')[0] ?? text,
    text,
    kind: 'fact',
    pinned: false,
    sourceMessageIds: [`message-${id}`],
    createdTurn: 1,
    updatedTurn: 1,
    createdAt: '2026-03-01T09:00:00.000Z',
    updatedAt: '2026-03-01T09:00:00.000Z',
  };
}

describe('FactTerms', () => {
  const facts = [
    fact('a', 'valve supplier: Brennan Industrial in Leeds'),
    fact('b', 'gasket supplier: Okafor Seals in Lagos'),
    fact('c', 'pump supplier: Lindqvist Hydraulics in Malmö'),
    fact('d', 'painting class: Tuesdays at the community centre'),
  ];

  it('scores a fact by the query words it contains, rare words above common ones', () => {
    const scores = new FactTerms(facts).relevance('Which supplier makes our valves?');
    expect([...scores.keys()].sort()).toEqual(['a', 'b', 'c']);
    // "valve" appears in one fact, "supplier" in three: the valve fact leads.
    expect(scores.get('a')).toBeGreaterThan(scores.get('b') ?? 0);
    expect(scores.get('b')).toBe(scores.get('c'));
  });

  it('matches inflected forms and ignores stop words', () => {
    expect(stemWord('painting')).toBe(stemWord('paints'));
    expect(new FactTerms(facts).relevance('When does she paint?').has('d')).toBe(true);
    expect(new FactTerms(facts).relevance('what is it and when was that').size).toBe(0);
  });

  it('answers a document asked again (from its index) exactly as it answers the first query (by looking each fact up)', () => {
    const long = 'Which supplier in Leeds makes the valves, who seals the gaskets in Lagos, and does the pump come from Malmö before the painting class?';
    const queries = ['Which supplier makes our valves?', 'painting on Tuesdays', long, 'seals from Lagos', 'Leeds valve supplier', long, ''];
    const reused = new FactTerms(facts);
    for (const query of queries) {
      const fresh = new FactTerms(facts).relevance(query);
      expect([...reused.relevance(query)]).toEqual([...fresh]);
    }
  });

  it('gives nothing for an empty query or an empty document', () => {
    expect(new FactTerms(facts).relevance('   ').size).toBe(0);
    expect(new FactTerms([]).relevance('valves').size).toBe(0);
  });

  it('answers a first query (each fact looked up) as its index does, whatever the words, endings, capitals or letters', () => {
    // Words with endings the stem drops, capitals, letters beyond ASCII, a ligature NFKC unfolds, punctuation,
    // words holding another inside ("repainted", "painter"), a stop word whose stem is a word ("does", "doe").
    const vocabulary = ['paint', 'painting', 'Painted', 'paints', 'repainted', 'painter', '2paint', 'bury', 'buried', 'BURIES', 'city', 'cities', 'valve', 'VALVES', 'café', 'cafe', 'naïve', 'ﬁle', 'file', 'filed', 'Tuesday', 'the', 'is', 'does', 'doe', '2,400', 'x-ray', "o'brien"];
    const text = fc.array(fc.constantFrom(...vocabulary), { minLength: 1, maxLength: 8 }).chain((words) =>
      fc.constantFrom(' ', ', ', ': ', '-', '/').map((separator) => words.join(separator)),
    );
    fc.assert(
      fc.property(fc.array(text, { minLength: 1, maxLength: 12 }), text, (texts, query) => {
        const document = texts.map((value, index) => fact(`f${index}`, value));
        const looked = new FactTerms(document).relevance(query);
        // Asked twice, the document answers from an index of every fact's words.
        const indexed = new FactTerms(document);
        indexed.relevance('zzz');
        expect([...looked]).toEqual([...indexed.relevance(query)]);
      }),
      { numRuns: 600, seed: 11 },
    );
  });

  it('reads ahead, in slices with a pause between them, the words a query of many words needs, and answers as it would without', async () => {
    const many = Array.from({ length: 4500 }, (_, index) => fact(`f${index}`, `${['valve', 'pump', 'gasket'][index % 3] ?? ''} supplier ${index}: quote for the ${['kitchen', 'garage', 'boiler room'][index % 3] ?? ''}`));
    const remembered = new Map<string, ReadonlySet<string>>();
    const stemsOf = (item: Fact): ReadonlySet<string> => {
      const stems = new Set(item.text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((word) => word !== '' && word !== 'the' && word !== 'for').map(stemWord));
      remembered.set(item.id, stems);
      return stems;
    };
    const terms = new FactTerms(many, stemsOf, (item) => remembered.get(item.id));
    const query = 'Which supplier quoted for the pump in the garage, and the valves for the kitchen boiler?';
    let pauses = 0;
    await terms.prepare(query, async () => {
      pauses += 1;
    });
    // Three slices of at most 2,000 facts, every fact's words read ahead, then the scores.
    expect(pauses).toBe(4);
    expect(remembered.size).toBe(many.length);
    expect([...terms.relevance(query)]).toEqual([...new FactTerms(many, stemsOf).relevance(query)]);
    // Asked again, the document is indexed in the same slices, and answers as before.
    await terms.prepare('valve supplier', async () => {
      pauses += 1;
    });
    expect(pauses).toBe(8);
    expect([...terms.relevance('valve supplier')]).toEqual([...new FactTerms(many, stemsOf).relevance('valve supplier')]);
    await terms.prepare(query, async () => {
      pauses += 1;
    });
    expect(pauses).toBe(8);
    // A query of a few words on a document not asked before is looked up fact by fact: nothing to read ahead.
    let fewPauses = 0;
    await new FactTerms(many, stemsOf).prepare('valve supplier', async () => {
      fewPauses += 1;
    });
    expect(fewPauses).toBe(0);
  });
});
