import { InvalidArgumentError } from 'commander';

/**
 * Parse a whole decimal number strictly: digits only, no sign, fraction, exponent or trailing text.
 * Returns null when the text is not such a number.
 */
export function parseWholeNumber(text: string): number | null {
  if (!/^\d+$/u.test(text)) return null;
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : null;
}

/**
 * A commander argument parser for an integer option with a lower bound. Bad values become a usage
 * error (exit 2) that commander prefixes with the option, e.g.
 * `option '--budget <tokens>' argument '12abc' is invalid. Expected a whole number ≥ 1`.
 */
export function integerOption(min: number): (text: string) => number {
  return (text: string): number => {
    const value = parseWholeNumber(text);
    if (value === null || value < min) throw new InvalidArgumentError(`Expected a whole number ≥ ${min}`);
    return value;
  };
}

/** A repeatable option's values in order: `--tag a --tag b` → ['a', 'b'] (commander's argParser with a [] default). */
export function collect(value: string, previous: readonly string[]): string[] {
  return [...previous, value];
}
