/**
 * The detail protocol's input to the public API, checked: a request the chat model made
 * (`session.requestDetail`) and the records of a turn's requests (`record({ detailRequests })`).
 */
import type { DetailRequest } from '../core/detail-markers.js';
import { describeValue } from '../core/describe-value.js';
import { StrataError } from '../core/errors.js';
import type { DetailRequestRecord, Tier } from '../core/types.js';
import { isOptions } from './session-input.js';

/** Most records kept with one turn: a turn has a few rounds, each a few requests. */
export const MOST_DETAIL_RECORDS = 50;
const OUTCOMES: ReadonlySet<string> = new Set(['raised', 'unchanged', 'searched', 'ignored', 'over-limit']);

function text(value: unknown, name: string, most: number): string {
  const trimmed = typeof value === 'string' ? value.trim() : '';
  if (trimmed === '' || trimmed.length > most) throw new StrataError('INVALID_INPUT', `${name} must be text of 1–${String(most)} characters (got ${describeValue(value)}).`);
  return trimmed;
}

function tierOf(value: unknown, name: string): Tier {
  if (value === 1 || value === 2 || value === 3) return value;
  throw new StrataError('INVALID_INPUT', `${name} must be 1 (key = value pairs), 2 (a brief summary) or 3 (the full text) (got ${describeValue(value)}).`);
}

/** A request of the model: `{ kind: 'tier', tier: 1 | 2 | 3, ref }` or `{ kind: 'search', query }`. */
export function checkDetailRequest(value: unknown): DetailRequest {
  if (!isOptions(value)) throw new StrataError('INVALID_INPUT', `requestDetail() takes { kind: 'tier', tier, ref } or { kind: 'search', query } (got ${describeValue(value)}).`);
  if (value.kind === 'search') return { kind: 'search', query: text(value.query, 'The search query', 500) };
  if (value.kind === 'tier') return { kind: 'tier', tier: tierOf(value.tier, 'The tier'), ref: text(value.ref, 'The message ref (such as 12u, or an id)', 256) };
  throw new StrataError('INVALID_INPUT', `A detail request's kind must be "tier" or "search" (got ${describeValue(value.kind)}).`);
}

/** The round a request came in: a whole number from 1 (default 1). */
export function checkRound(options: unknown): number {
  if (options === undefined) return 1;
  if (!isOptions(options)) throw new StrataError('INVALID_INPUT', `requestDetail() options must be { round? } (got ${describeValue(options)}).`);
  const { round } = options;
  if (round === undefined) return 1;
  if (typeof round === 'number' && Number.isSafeInteger(round) && round >= 1 && round <= 100) return round;
  throw new StrataError('INVALID_INPUT', `round must be a whole number from 1 to 100 (got ${describeValue(round)}).`);
}

function checkRecord(value: unknown, index: number): DetailRequestRecord {
  const name = `detailRequests[${String(index)}]`;
  if (!isOptions(value)) throw new StrataError('INVALID_INPUT', `${name} must be a record as requestDetail() returns it (got ${describeValue(value)}).`);
  const { kind, outcome, messageId } = value;
  if (kind !== 'tier' && kind !== 'search') throw new StrataError('INVALID_INPUT', `${name}.kind must be "tier" or "search" (got ${describeValue(kind)}).`);
  if (typeof outcome !== 'string' || !OUTCOMES.has(outcome)) throw new StrataError('INVALID_INPUT', `${name}.outcome must be one of ${[...OUTCOMES].join(', ')} (got ${describeValue(outcome)}).`);
  return {
    round: checkRound({ round: value.round }),
    kind,
    target: text(value.target, `${name}.target`, 500),
    ...(kind === 'tier' && value.tier !== undefined ? { tier: tierOf(value.tier, `${name}.tier`) } : {}),
    ...(messageId === undefined ? {} : { messageId: text(messageId, `${name}.messageId`, 256) }),
    outcome: outcome as DetailRequestRecord['outcome'],
  };
}

/** The records of a turn's requests, checked (undefined: none). */
export function checkDetailRecords(value: unknown): DetailRequestRecord[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.length > MOST_DETAIL_RECORDS) throw new StrataError('INVALID_INPUT', `detailRequests must be a list of at most ${String(MOST_DETAIL_RECORDS)} records (got ${describeValue(value)}).`);
  return value.map((record, index) => checkRecord(record, index));
}
