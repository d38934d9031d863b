import { StrataError } from '../../core/errors.js';

/** Parse a JSON list of ids stored by this adapter, failing loudly on corruption. */
export function parseIdList(json: string, column: string): string[] {
  const value: unknown = JSON.parse(json);
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) {
    throw new StrataError('STORE_FAILURE', `Column ${column} holds ${json.slice(0, 80)}, not a list of ids; the database is corrupt.`);
  }
  return value;
}

export function placeholders(count: number): string {
  return Array.from({ length: count }, () => '?').join(', ');
}
