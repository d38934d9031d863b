import { beforeAll, describe, expect, it } from 'vitest';

import { checkGrounding } from '../../../src/core/grounding.js';
import { analyseMessage } from '../../../src/managers/local/analysis.js';
import { dateReference, loadDateParser } from '../../../src/managers/local/dates.js';
import { dayPhrase } from '../../../src/managers/local/day-phrases.js';
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

  it('"Saturday the 16th" is the first 16th from the message on that is a Saturday', () => {
    // Sent on Tuesday 28 April 2026: Saturday 16 May.
    expect(datesOf('The home check is Thursday next week and if that goes fine we can collect him on Saturday the 16th.', '2026-04-28T20:31:00Z')).toEqual([
      'Thursday next week → 7 May 2026',
      'Saturday the 16th → 16 May 2026',
    ]);
    // No 16th falls on a Monday within the month: the next one that does (16 November 2026).
    expect(dayPhrase('on Monday the 16th', new Date('2026-05-01T10:00:00Z'), 0)?.resolved).toBe('16 November 2026');
    // Said on the day itself, it is that day.
    expect(dayPhrase('Saturday the 16th', new Date('2026-05-16T08:00:00Z'), 0)?.resolved).toBe('16 May 2026');
    // Without the message's time it is found but not resolved.
    expect(dayPhrase('Saturday the 16th', null, 0)).toEqual({ text: 'Saturday the 16th', index: 0, resolved: null });
  });

  it('"the Sunday after next" is a week after the next Sunday, in the message\'s own offset', () => {
    // Wednesday 13 May 2026: next Sunday is the 17th, the one after the 24th.
    expect(datesOf('So collection has been pushed to the Sunday after next, a week and a day later than we planned.', '2026-05-13T18:40:00Z')).toEqual(['Sunday after next → 24 May 2026']);
    // Said on a Sunday: not that day, but two Sundays on.
    expect(dayPhrase('the Sunday after next', new Date('2026-05-17T09:00:00Z'), 0)?.resolved).toBe('31 May 2026');
    // 23:30 UTC on Saturday is already Sunday at UTC+02:00.
    expect(dayPhrase('the Sunday after next', new Date('2026-05-16T23:30:00Z'), 120)?.resolved).toBe('31 May 2026');
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
