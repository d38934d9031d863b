/**
 * Tier 2: a brief extractive summary of a message — the sentences that inform most (numbers,
 * names, dates, rules, corrections, questions that set the task), about 30–40 % of its words,
 * greetings and fillers dropped. Words are never invented: every kept piece is copied.
 */
import { mapPacked } from '../../core/packed-map.js';
import type { AnalysedMessage } from './analysis.js';
import { selectUnits, withoutFillers } from './units.js';
import type { Unit } from './units.js';

export interface TierTwoInput {
  message: AnalysedMessage;
  /** The message's scored units. */
  units: readonly Unit[];
  /** Names and languages of the artifacts made from the message's code blocks. */
  code: readonly { name: string; language: string | null; lines: number }[];
  share: number;
}

/** Messages up to this many words (a short exchange, as the size routing counts) keep every informative sentence. */
const SHORT_MESSAGE_WORDS = 40;

function codeNote(code: TierTwoInput['code']): string {
  const notes = mapPacked(code, (block) => `[code: ${block.name}${block.language === null ? '' : ` (${block.language})`}, ${block.lines} line${block.lines === 1 ? '' : 's'}]`);
  return notes.join(' ');
}

/** Tier 2 of a message. */
export function tierTwo(input: TierTwoInput): string {
  const { message } = input;
  if (message.message.content.trim() === '') return '';
  const units = input.units;
  const note = codeNote(input.code);
  let summary: string;
  if (message.smallTalk || units.every((unit) => unit.score === 0)) {
    const cleaned = mapPacked(units, (unit) => unit.text).join(' ');
    const parts = cleaned.split(/\s+/u).filter((part) => part !== '');
    const limit = Math.max(8, Math.round(message.words * 0.5));
    summary = parts.length <= limit ? cleaned : `${parts.slice(0, limit).join(' ')}…`;
    if (summary === '') summary = withoutFillers(message.prose.trim()) || message.prose.trim();
  } else {
    const budget = message.words <= SHORT_MESSAGE_WORDS ? Number.POSITIVE_INFINITY : Math.max(15, Math.round(message.words * input.share));
    summary = mapPacked(selectUnits(units, budget, { keepRules: true }), (unit) => unit.text).join(' ');
  }
  const text = [summary, note].filter((part) => part !== '').join(' ').trim();
  if (text !== '') return text;
  // Nothing readable (an empty fence, punctuation only): the raw start of the message.
  const raw = message.message.content.trim().split(/\s+/u);
  return raw.length <= 12 ? raw.join(' ') : `${raw.slice(0, 12).join(' ')}…`;
}
