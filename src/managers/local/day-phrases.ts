/**
 * Two ways people name a day that the date parser leaves as a bare weekday: "Saturday the 16th" (a
 * weekday with its day of the month) and "the Sunday after next" (that weekday a week after the next
 * one). Both resolve against the UTC day the message was sent. "Saturday the 16th" is the 16th nearest
 * that day, before or after it, that falls on a Saturday, within two months of it; else it stays
 * unresolved (a weekday that does not fit the date is a slip, not a day months away). A day followed by
 * its month ("Saturday the 12th of September 2027") is left to the parser.
 */

const WEEKDAY_INDEX: ReadonlyMap<string, number> = new Map([
  ['sunday', 0],
  ['monday', 1],
  ['tuesday', 2],
  ['wednesday', 3],
  ['thursday', 4],
  ['friday', 5],
  ['saturday', 6],
]);

export const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

const WEEKDAY = '(sunday|monday|tuesday|wednesday|thursday|friday|saturday)';
const MONTH_AFTER = '(?!,?\\s+(?:of\\s+)?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\\b)';
const WITH_DAY_OF_MONTH = new RegExp(`\\b${WEEKDAY},?\\s+(?:the\\s+)?(\\d{1,2})(?:st|nd|rd|th)\\b${MONTH_AFTER}`, 'giu');
const AFTER_NEXT = new RegExp(`\\b(?:the\\s+)?${WEEKDAY}\\s+after\\s+next\\b`, 'giu');

/** How far from the message's day "Saturday the 16th" may lie. */
const NEAR_DAYS = 62;

/** A day phrase found in a piece of a sentence: its text, where it starts in the piece, and the day it names (null when none fits). */
export interface DayPhrase {
  text: string;
  index: number;
  resolved: string | null;
}

/** The message's own calendar day, as a UTC date at midnight. */
function messageDay(instant: Date, timezone: number): Date {
  const local = new Date(instant.getTime() + timezone * 60_000);
  return new Date(Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate()));
}

/** "16 May 2026" for a UTC date. */
export function dayText(date: Date): string {
  return `${date.getUTCDate()} ${MONTH_NAMES[date.getUTCMonth()] ?? ''} ${date.getUTCFullYear()}`;
}

/** The day nearest `from` (within `NEAR_DAYS`) that is the `dayOfMonth` of its month and falls on `weekday`, or null. */
function nearestMatchingDay(from: Date, weekday: number, dayOfMonth: number): Date | null {
  let best: Date | null = null;
  for (let months = -2; months <= 2; months += 1) {
    const candidate = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth() + months, dayOfMonth));
    // (A 31st that month does not have rolls over into the next: not that day.)
    if (candidate.getUTCDate() !== dayOfMonth || candidate.getUTCDay() !== weekday) continue;
    const distance = Math.abs(candidate.getTime() - from.getTime());
    if (distance > NEAR_DAYS * 86_400_000) continue;
    if (best === null || distance < Math.abs(best.getTime() - from.getTime())) best = candidate;
  }
  return best;
}

/**
 * Every "Saturday the 16th" and "the Sunday after next" in `piece`, in order, resolved against the
 * message's time when `instant` is given.
 */
export function dayPhrases(piece: string, instant: Date | null, timezone: number): DayPhrase[] {
  const today = instant === null ? null : messageDay(instant, timezone);
  const found: DayPhrase[] = [];
  for (const dated of piece.matchAll(WITH_DAY_OF_MONTH)) {
    const weekday = WEEKDAY_INDEX.get((dated[1] ?? '').toLowerCase()) ?? -1;
    const dayOfMonth = Number(dated[2]);
    const day = today === null || dayOfMonth < 1 || dayOfMonth > 31 ? null : nearestMatchingDay(today, weekday, dayOfMonth);
    found.push({ text: dated[0], index: dated.index, resolved: day === null ? null : dayText(day) });
  }
  for (const later of piece.matchAll(AFTER_NEXT)) {
    let resolved: string | null = null;
    if (today !== null) {
      const weekday = WEEKDAY_INDEX.get((later[1] ?? '').toLowerCase()) ?? 0;
      // The next such weekday after today, then a week on.
      const ahead = ((weekday - today.getUTCDay() + 7) % 7 || 7) + 7;
      resolved = dayText(new Date(today.getTime() + ahead * 86_400_000));
    }
    const lead = /^the\s+/iu.exec(later[0])?.[0].length ?? 0;
    found.push({ text: later[0].slice(lead), index: later.index + lead, resolved });
  }
  return found.sort((a, b) => a.index - b.index);
}
