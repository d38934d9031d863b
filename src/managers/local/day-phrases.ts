/**
 * Two ways people name a day that the date parser leaves as a bare weekday: "Saturday the 16th" (a
 * weekday with its day of the month) and "the Sunday after next" (that weekday a week after the next
 * one). Both resolve against the day the message was sent, in its own UTC offset; "Saturday the 16th" is
 * the first 16th from that day on that falls on a Saturday (within a year), else it stays unresolved.
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
const WITH_DAY_OF_MONTH = new RegExp(`\\b${WEEKDAY},?\\s+(?:the\\s+)?(\\d{1,2})(?:st|nd|rd|th)\\b`, 'iu');
const AFTER_NEXT = new RegExp(`\\b(?:the\\s+)?${WEEKDAY}\\s+after\\s+next\\b`, 'iu');

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

/** The first day from `from` on that is the `dayOfMonth` of its month and falls on `weekday`, within twelve months. */
function nextMatchingDay(from: Date, weekday: number, dayOfMonth: number): Date | null {
  for (let months = 0; months <= 12; months += 1) {
    const candidate = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth() + months, dayOfMonth));
    // (A 31st that month does not have rolls over into the next: not that day.)
    if (candidate.getUTCDate() !== dayOfMonth || candidate < from) continue;
    if (candidate.getUTCDay() === weekday) return candidate;
  }
  return null;
}

/**
 * "Saturday the 16th" or "the Sunday after next" in `piece`, resolved against the message's time when
 * `instant` is given; null when the piece holds neither.
 */
export function dayPhrase(piece: string, instant: Date | null, timezone: number): DayPhrase | null {
  const dated = WITH_DAY_OF_MONTH.exec(piece);
  if (dated !== null) {
    const weekday = WEEKDAY_INDEX.get((dated[1] ?? '').toLowerCase()) ?? -1;
    const dayOfMonth = Number(dated[2]);
    const day = instant === null || dayOfMonth < 1 || dayOfMonth > 31 ? null : nextMatchingDay(messageDay(instant, timezone), weekday, dayOfMonth);
    return { text: dated[0], index: dated.index, resolved: day === null ? null : dayText(day) };
  }
  const later = AFTER_NEXT.exec(piece);
  if (later === null) return null;
  let resolved: string | null = null;
  if (instant !== null) {
    const today = messageDay(instant, timezone);
    const weekday = WEEKDAY_INDEX.get((later[1] ?? '').toLowerCase()) ?? 0;
    // The next such weekday after today, then a week on.
    const ahead = ((weekday - today.getUTCDay() + 7) % 7 || 7) + 7;
    resolved = dayText(new Date(today.getTime() + ahead * 86_400_000));
  }
  return { text: later[0].replace(/^the\s+/iu, ''), index: later.index + (/^the\s+/iu.exec(later[0])?.[0].length ?? 0), resolved };
}
