/** Counts in words, as every face of Strata writes them. */

const NUMBER_FORMAT = new Intl.NumberFormat('en-US');

/** 12345 → "12,345". */
export function formatNumber(value: number): string {
  return NUMBER_FORMAT.format(value);
}

/** "1 turn", "3 turns", "1,204 tokens". */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${formatNumber(count)} ${count === 1 ? singular : pluralForm}`;
}
