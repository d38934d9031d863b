/**
 * The turn-log entry: what the user said (≤ 25 words) and what the assistant answered (≤ 30 words),
 * built from the most informative units of each side, names and numbers kept.
 */
import { mapPacked } from '../../core/packed-map.js';
import { countWords, limitWords } from '../../core/text.js';
import type { AnalysedMessage } from './analysis.js';
import { coreOf, selectUnits, withFields } from './units.js';
import type { Unit } from './units.js';

export const USER_SUMMARY_WORDS = 25;
export const ASSISTANT_SUMMARY_WORDS = 30;

export interface SideSummaryInput {
  messages: readonly AnalysedMessage[];
  /** The scored units of each message (same order as `messages`). */
  units: readonly (readonly Unit[])[];
  /** Artifact names made from the side's code blocks. */
  code: readonly string[];
  limit: number;
}


/** Summary of one side of the turn ('' when the side has no message or only empty ones). */
export function sideSummary(input: SideSummaryInput): string {
  const kept = mapPacked(input.messages, (message, index) => ({ message, units: input.units[index] ?? [] })).filter((item) => item.message.message.content.trim() !== '');
  const messages = mapPacked(kept, (item) => item.message);
  if (messages.length === 0) return '';
  const speakers = [...new Set(mapPacked(messages, (message) => message.message.speaker).filter((name): name is string => name !== null && name.trim() !== ''))];
  const prefix = speakers.length === 1 ? `${speakers[0]?.trim() ?? ''}:` : '';
  const codeNote = input.code.length === 0 ? '' : `[code: ${input.code.slice(0, 3).join(', ')}]`;
  const budget = input.limit - countWords(prefix) - countWords(codeNote);
  // Long sentences give their core clause, so a summary can hold several points.
  const units: Unit[] = kept.flatMap((item, index) => mapPacked(item.units, (unit) => coreOf(index === 0 ? unit : withFields(unit, { order: index * 10_000 + unit.order }), 14)));
  let chosen = selectUnits(units, Math.max(1, budget), { minCut: 5 });
  if (chosen.length === 0) chosen = selectUnits(units, Math.max(1, budget), { includeZero: true });
  const body = mapPacked(chosen, (unit) => unit.text).join(' ');
  const text = [prefix, body, codeNote].filter((part) => part !== '').join(' ');
  return limitWords(text, input.limit);
}
