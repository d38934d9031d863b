/**
 * How a package shows when each line is true as of. Lines sit under a heading of the day they were said,
 * one heading wherever the day changes, so a dozen lines do not repeat the date a dozen times: message
 * lines (history, recalled) start with `[turn 12]` under `### 3 Mar 2026`; fact lines end with
 * `(turn 14)` under `#### 3 Mar 2026` within their kind's block. A pinned exception stands alone and
 * ends with `(turn 14, 3 Mar 2026)`. The day is the UTC day the line's message was sent; a line whose
 * time is unknown (imported without one) shows its turn alone.
 */

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A time stored as UTC ISO-8601 ("2026-03-03T09:00:00.000Z"): its day is read from its digits. */
const STORED_UTC = /^(\d{4})-(\d{2})-(\d{2})T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?Z$/u;

/** "3 Mar 2026" for an ISO-8601 time (its UTC day), or null when there is no valid time. */
export function dayOf(time: string | null): string | null {
  if (time === null) return null;
  const stored = STORED_UTC.exec(time);
  if (stored !== null) {
    const [year, month, day] = [Number(stored[1]), Number(stored[2]), Number(stored[3])];
    const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
    const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
    return days === undefined || day < 1 || day > days ? null : `${day} ${MONTHS[month - 1] ?? ''} ${stored[1]}`;
  }
  const date = new Date(time);
  if (Number.isNaN(date.getTime())) return null;
  return `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()] ?? ''} ${date.getUTCFullYear()}`;
}

/**
 * ` (turn 14)`: appended to a fact line, the turn it was last established in; ` (turn 14, 3 Mar 2026)`
 * with `dated`, for a line that no day heading stands over.
 */
export function factMark(turn: number, time: string | null, dated: boolean): string {
  const day = dated ? dayOf(time) : null;
  return day === null ? ` (turn ${turn})` : ` (turn ${turn}, ${day})`;
}

/** `[turn 12]`: the start of a line quoting or summing up a message of that turn. */
export function turnMark(turn: number): string {
  return `[turn ${turn}]`;
}

/** Heading levels of a day: over message lines, and over fact lines inside their kind's `###` block. */
export type DayLevel = 'messages' | 'facts';

/** The heading over the lines of one day: `### 3 Mar 2026` over messages, `#### 3 Mar 2026` over facts. */
export function dayHeading(day: string, level: DayLevel = 'messages'): string {
  return `${level === 'facts' ? '####' : '###'} ${day}`;
}

/**
 * The day headings a run of lines needs, by the index of the line each goes before: one wherever the
 * day changes. A line whose time is unknown neither starts nor ends a day's run (it shows its turn).
 */
export function dayHeadings(times: ReadonlyArray<string | null>, level: DayLevel = 'messages'): Map<number, string> {
  const headings = new Map<number, string>();
  let previous: string | null = null;
  times.forEach((time, index) => {
    const day = dayOf(time);
    if (day === null) return;
    if (day !== previous) headings.set(index, dayHeading(day, level));
    previous = day;
  });
  return headings;
}
