import { beforeAll, describe, expect, it } from 'vitest';

import { analyseMessage } from '../../../src/managers/local/analysis.js';
import { loadDateParser } from '../../../src/managers/local/date-parser.js';
import { dateReference } from '../../../src/managers/local/dates.js';
import { classesOfLine } from '../../../src/managers/local/value-classes.js';

/** The specifics of a one-sentence message, as "type:text". */
function specificsOf(text: string): string[] {
  const analysed = analyseMessage(
    { id: 'm1', role: 'user', speaker: null, content: text, sentAt: '2026-03-01T10:00:00Z' },
    { maxAnalysedWords: 1500, maxReadWords: 5000, taggingBudget: { sentences: 6 }, tagger: 'fast', reference: dateReference('2026-03-01T10:00:00Z') },
  );
  return analysed.sentences.flatMap((sentence) => sentence.specifics.map((item) => `${item.type}:${item.text}`));
}

describe('the values a sentence holds', () => {
  beforeAll(async () => {
    await loadDateParser();
  });

  it('a temperature is a measure with its degrees: "25 °C", "180°C"', () => {
    expect(specificsOf('H1 now uses 25 °C.')).toContain('quantity:25 °C');
    expect(specificsOf('Bake it at 180°C for 20 minutes.')).toEqual(['quantity:180°C', 'quantity:20 minutes']);
  });

  it('a range of years is no count of what follows ("the 2010–2011 admissions"), a number of things is', () => {
    expect(specificsOf("So the 2010–2011 admissions aren't comparable.")).not.toContain('quantity:2010–2011 admissions');
    expect(specificsOf('We have 2000 users on the old plan.')).toContain('quantity:2000 users');
  });

  it('the number of an item in a list is no value: "(1) 28 °C is too high", "4) our causal language"', () => {
    expect(specificsOf('Main demands: (1) 28 °C is far too high a threshold, (2) adjust for PM2.5.')).not.toContain('number:1');
    expect(classesOfLine('heat causes admissions: 4) our causal language is not justified')).not.toContain('number');
    expect(classesOfLine('guests: 4 more confirmed')).toContain('number');
  });
});
