import { beforeAll, describe, expect, it } from 'vitest';

import type { Fact } from '../../../src/core/types.js';
import { analyseMessage } from '../../../src/managers/local/analysis.js';
import { TurnDocument } from '../../../src/managers/local/claim-document.js';
import { messageClaims, type Claim } from '../../../src/managers/local/claims.js';
import { loadDateParser } from '../../../src/managers/local/date-parser.js';
import { dateReference } from '../../../src/managers/local/dates.js';
import { ordinalWords } from '../../../src/managers/local/ordinal-words.js';

/** The claims of one user message sent at `sentAt`. */
function claimsOf(content: string, sentAt: string): Claim[] {
  const analysed = analyseMessage(
    { id: 'm1', role: 'user', speaker: null, content, sentAt },
    { maxAnalysedWords: 1500, maxReadWords: 5000, taggingBudget: { sentences: 6 }, tagger: 'fast', reference: dateReference(sentAt) },
  );
  return messageClaims(analysed, { maxValueWords: 24 }).claims;
}

function fact(key: string, text: string): Fact {
  return { id: `f-${key}`, sessionId: 's', key, text: `${key}: ${text}`, kind: 'fact', pinned: false, sourceMessageIds: ['m0'], createdTurn: 1, updatedTurn: 1, createdAt: '2026-05-01T10:00:00Z', updatedAt: '2026-05-01T10:00:00Z' };
}

describe('the turn document', () => {
  beforeAll(async () => {
    await loadDateParser();
  });

  it('gives a new line of a subject a key no fact holds, with an ordinal word (no digit the exchange would have to ground) when the key with its class is taken too', () => {
    const [claim] = claimsOf("Dev's seen an advert for a hybrid battery warranty at £19 a month.", '2026-05-20T10:00:00Z');
    expect(claim?.key).toBe('dev');
    const document = new TurnDocument([fact('dev', 'named on the policy'), fact('dev cost', "I'd like the excess at £250")], ['Dev']);
    if (claim !== undefined) document.add(claim);
    const keys = document.lines().map((line) => line.key);
    expect(keys).toHaveLength(1);
    expect(keys[0]).not.toBe('dev');
    expect(keys[0]).not.toBe('dev cost');
    expect(keys[0]).toBe('dev cost second');
  });

  it('names the 25th line of a subject "twenty fifth", a key of a few words however many lines the subject has', () => {
    const [claim] = claimsOf("Dev's seen an advert for a hybrid battery warranty at £19 a month.", '2026-05-20T10:00:00Z');
    const taken = Array.from({ length: 23 }, (_, index) => fact(`dev cost ${ordinalWords(index + 2)}`, `£${index + 10} a month`));
    const document = new TurnDocument([fact('dev', 'named on the policy'), fact('dev cost', "I'd like the excess at £250"), ...taken], ['Dev']);
    if (claim !== undefined) document.add(claim);
    expect(document.lines().map((line) => line.key)).toEqual(['dev cost twenty fifth']);
  });
});

describe('people named with a title', () => {
  beforeAll(async () => {
    await loadDateParser();
  });

  it('a pronoun after "Dad … with Mr Patel" points back at Dad, the subject, and never at "Mr"', () => {
    const text = 'Dad has the dentist on Friday at Roundhay Dental with Mr Patel, a cracked molar that has to come out. It is a standard leaflet, I know. And the heart letter came this morning. He has been moved to Dr Okonkwo at the LGI.';
    const keys = claimsOf(text, '2026-03-10T10:00:00Z').map((claim) => claim.key ?? '');
    expect(keys.filter((key) => key.split(' ').includes('dad'))).toHaveLength(2);
    expect(keys.some((key) => key.split(' ').includes('mr'))).toBe(false);
  });
});
