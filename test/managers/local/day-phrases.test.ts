import { beforeAll, describe, expect, it } from 'vitest';

import { checkGrounding } from '../../../src/core/grounding.js';
import { analyseMessage } from '../../../src/managers/local/analysis.js';
import { loadDateParser } from '../../../src/managers/local/date-parser.js';
import { dateReference } from '../../../src/managers/local/dates.js';
import { dayPhrases } from '../../../src/managers/local/day-phrases.js';
import { Conversation } from './conversation.js';

/** The dates of a one-message text sent at `sentAt`, as "text → resolved". */
function datesOf(text: string, sentAt: string): string[] {
  const analysed = analyseMessage(
    { id: 'm1', role: 'user', speaker: null, content: text, sentAt },
    { maxAnalysedWords: 1500, maxReadWords: 5000, taggingBudget: { sentences: 6 }, tagger: 'fast', reference: dateReference(sentAt) },
  );
  return analysed.sentences.flatMap((sentence) => sentence.specifics.filter((item) => item.type === 'date').map((item) => `${item.text} → ${item.resolved ?? '?'}`));
}

describe('days named by a weekday', () => {
  beforeAll(async () => {
    await loadDateParser();
  });

  it('"Saturday the 16th" is the 16th nearest the message, before or after it, that is a Saturday', () => {
    const resolved = (text: string, at: string | null): Array<string | null> => dayPhrases(text, at === null ? null : new Date(at), 0).map((phrase) => phrase.resolved);
    // Sent on Tuesday 28 April 2026: Saturday 16 May.
    expect(datesOf('The home check is Thursday next week and if that goes fine we can collect him on Saturday the 16th.', '2026-04-28T20:31:00Z')).toEqual([
      'Thursday next week → 7 May 2026',
      'Saturday the 16th → 16 May 2026',
    ]);
    // Said after it, of a day gone: that day, not one a year on.
    expect(resolved('We collected him on Saturday the 16th.', '2026-05-20T09:00:00Z')).toEqual(['16 May 2026']);
    // Said on the day itself, it is that day.
    expect(resolved('Saturday the 16th', '2026-05-16T08:00:00Z')).toEqual(['16 May 2026']);
    // A weekday that fits no 16th within two months is a slip: no day months away.
    expect(resolved('on Saturday the 17th', '2026-05-01T10:00:00Z')).toEqual([null]);
    // Every phrase of a run, each its own day.
    expect(resolved('Friday the 15th and then Saturday the 16th', '2026-05-01T10:00:00Z')).toEqual(['15 May 2026', '16 May 2026']);
    // Without the message's time they are found but not resolved.
    expect(dayPhrases('Saturday the 16th', null, 0)).toEqual([{ text: 'Saturday the 16th', index: 0, resolved: null }]);
    // A day with its month is the parser's: "Saturday the 12th of September 2027".
    expect(dayPhrases('on Saturday the 12th of September 2027', new Date('2026-05-01T10:00:00Z'), 0)).toEqual([]);
    expect(datesOf('The wedding is on Saturday the 12th of September 2027.', '2026-05-01T10:00:00Z').join(' ')).toContain('12th of September 2027');
  });

  it('reads the rest of a sentence after "Saturday the 16th" apart: a time right after it is no part of the day', () => {
    expect(datesOf('We meet Saturday the 16th evening at 7pm.', '2026-05-04T10:00:00Z')).toEqual(['Saturday the 16th → 16 May 2026', 'evening at 7pm → ?']);
    expect(datesOf('Friday the 8th noon works.', '2026-05-04T10:00:00Z')).toEqual(['Friday the 8th → 8 May 2026', 'noon → ?']);
  });

  it('"the Sunday after next" is a week after the next Sunday', () => {
    // Wednesday 13 May 2026: next Sunday is the 17th, the one after the 24th.
    expect(datesOf('So collection has been pushed to the Sunday after next, a week and a day later than we planned.', '2026-05-13T18:40:00Z')).toEqual(['Sunday after next → 24 May 2026']);
    // Said on a Sunday: not that day, but two Sundays on.
    expect(dayPhrases('the Sunday after next', new Date('2026-05-17T09:00:00Z'), 0)[0]?.resolved).toBe('31 May 2026');
    // Said on a Saturday: the next Sunday is tomorrow, the one after a week on.
    expect(dayPhrases('the Sunday after next', new Date('2026-05-16T09:00:00Z'), 0)[0]?.resolved).toBe('24 May 2026');
  });

  it('a line giving the day "Saturday the 16th" resolves to is grounded by the message\'s time', () => {
    const line = 'home check: we can collect him on Saturday the 16th (16 May 2026)';
    expect(checkGrounding(line, 'we can collect him on Saturday the 16th', ['2026-04-28T20:31:00Z']).grounded).toBe(true);
    // A day a year and more away is not.
    expect(checkGrounding(line, 'we can collect him on Saturday the 16th', ['2024-01-02T10:00:00Z']).grounded).toBe(false);
  });

  it('"collection has been pushed to the Sunday after next" may replace the line that would collect him on the 16th', async () => {
    const conversation = new Conversation();
    await conversation.say({ user: 'The home check is Thursday next week and if that goes fine we can collect him on Saturday the 16th.', assistant: 'Exciting!' }, '2026-04-28T20:31:00Z');
    const planned = conversation.facts.find((fact) => fact.text.includes('16 May 2026'));
    expect(planned).toBeDefined();
    await conversation.say({ user: 'Bad news: he has kennel cough, so collection has been pushed to the Sunday after next.', assistant: 'Oh no.' }, '2026-05-13T18:40:00Z');
    const moved = conversation.facts.find((fact) => fact.text.includes('24 May 2026'));
    expect(moved?.mayReplace).toBe(planned?.id);
  });
});
