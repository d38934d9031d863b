/**
 * Dates moved by an amount: "they've pushed the deadline back a week" moves the deadline the document
 * holds (Friday May 8) to the day a week later, which the line then states: "(now 15 May 2026)".
 */
import { dateReference, dayName, firstDay } from './dates.js';
import { COUNT_WORDS } from './function-words.js';

const UNIT_DAYS: Readonly<Record<string, number>> = { day: 1, days: 1, week: 7, weeks: 7, fortnight: 14, fortnights: 14 };

/** "back a week", "forward two days", "by 3 days": the shift in days a clause names, or null. */
export function shiftDays(clause: string): number | null {
  const lower = clause.toLowerCase();
  if (!/\b(?:pushed|pushing|moved|moving|bumped|delayed|postponed|brought|pulled|shifted|slipped|slid)\b/u.test(lower)) return null;
  const amount = /\b(a|an|one|two|three|four|five|six|seven|eight|nine|ten|\d{1,2})\s+(days?|weeks?|fortnights?)\b/u.exec(lower);
  const count = amount?.[1];
  const unit = amount?.[2];
  if (count === undefined || unit === undefined) return null;
  const days = (COUNT_WORDS[count] ?? Number(count)) * (UNIT_DAYS[unit] ?? 0);
  if (!Number.isFinite(days) || days === 0) return null;
  const earlier = /\b(?:forward|earlier|up|brought)\b/u.test(lower) && !/\b(?:back|later|delayed|postponed)\b/u.test(lower);
  return earlier ? -days : days;
}

/**
 * The day `days` after the first day written in `line`, read against the message's time; null when the
 * line names no day. Throws `DateParserNeeded` when the date parser is not loaded yet.
 */
export function shiftedDay(line: string, days: number, sentAt: string | null): string | null {
  const reference = dateReference(sentAt ?? '');
  if (!reference.resolvable) return null;
  const day = firstDay(line.slice(line.indexOf(':') + 1), reference);
  return day === null ? null : dayName(new Date(day.getTime() + days * 86_400_000));
}
