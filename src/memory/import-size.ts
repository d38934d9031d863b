import { EXPORT_FORMAT } from './export-schema.js';

/**
 * How many turns an import of plain messages can hold at most, read from the raw value before it is
 * checked (0 for a Strata export, which is not analysed): a turn starts at a user message or at the
 * first message. Lets a large import start its worker thread while its input is still being checked.
 */
export function mostTurns(value: unknown): number {
  const record = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as { format?: unknown; messages?: unknown }) : undefined;
  if (record?.format === EXPORT_FORMAT) return 0;
  const list = Array.isArray(value) ? value : record?.messages;
  if (!Array.isArray(list) || list.length === 0) return 0;
  let users = 0;
  for (const message of list) {
    if (typeof message === 'object' && message !== null && (message as { role?: unknown }).role === 'user') users += 1;
  }
  return users + 1;
}
