/** How figures and times read in the app: one place, so every view says them the same way. */
const NUMBER = new Intl.NumberFormat('en-GB');
const DAY = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric' });
const MOMENT = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });

export const formatNumber = (value: number): string => NUMBER.format(value);

export const formatPercent = (share: number): string => `${(share * 100).toFixed(1)} %`;

/** A day ("3 Mar 2026"), or an empty string for no time. */
export function formatDay(iso: string | null | undefined): string {
  if (iso === null || iso === undefined) return '';
  const time = Date.parse(iso);
  return Number.isNaN(time) ? '' : DAY.format(time);
}

/** A day and a time of day, or an empty string for no time. */
export function formatMoment(iso: string | null | undefined): string {
  if (iso === null || iso === undefined) return '';
  const time = Date.parse(iso);
  return Number.isNaN(time) ? '' : MOMENT.format(time);
}

export const plural = (count: number, one: string, many = `${one}s`): string => `${formatNumber(count)} ${count === 1 ? one : many}`;
