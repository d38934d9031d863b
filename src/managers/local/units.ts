/**
 * Extractive units (sentences, or clauses of very long sentences) scored by how much they inform,
 * and the greedy selection under a word budget that tier 2 and the turn summary share.
 */
import { countWords } from '../../core/text.js';
import type { Role } from '../../core/types.js';
import type { AnalysedMessage, AnalysedSentence } from './analysis.js';
import type { CueKind } from './cues.js';
import { STOP_WORDS } from './function-words.js';
import { splitClauses } from './sentences.js';

export interface Unit {
  /** The unit's text, fillers removed. */
  text: string;
  words: number;
  score: number;
  /** Order of the unit within its message. */
  order: number;
  /** Holds a rule or a correction: kept in tier 2 even over the budget. */
  mustKeep: boolean;
  /** Word index inside `text` of the most telling word (cue or first specific), for cutting a long unit. */
  anchor: number;
}

const CUE_SCORE: Readonly<Record<CueKind, number>> = {
  exception: 7,
  constraint: 5,
  correction: 5,
  removal: 4,
  goal: 3,
  preference: 2.5,
};

const LEADING_FILLER =
  /^(?:(?:well|so|oh|ah|aw+|um+|uh+|hmm+|hey|hi|hello|okay|ok|alright|honestly|basically|anyway|anyways|yeah|yes|yep|wow|haha+|lol|btw|fyi|by the way|to be honest|just so you know)\b\s*[,!.…-]*\s+)+/iu;
const LEADING_HEDGE = /^(?:i think|i guess|i feel like|i suppose|i believe)\s+(?:that\s+)?(?=\S+\s+\S+)/iu;
const INLINE_FILLER = /,?\s+(?:you know|i mean|kind of|sort of|like),(?=\s)/giu;

/** Remove opening fillers and hedges; the rest of the text is kept verbatim. */
/** First letters of the fillers and hedges: a text starting otherwise has none to remove at its start. */
const FILLER_START = /^[\s]*[wsoauhkbfyltjiWSOAUHKBFYLTJI]/u;

export function withoutFillers(text: string): string {
  let cleaned = text;
  if (FILLER_START.test(text)) {
    cleaned = cleaned.replace(LEADING_FILLER, '');
    cleaned = cleaned.replace(LEADING_HEDGE, '');
  }
  if (cleaned.includes(',')) cleaned = cleaned.replace(INLINE_FILLER, '');
  cleaned = cleaned.trim();
  if (cleaned === '') return '';
  return cleaned.charAt(0).toUpperCase() + cleaned.slice(1);
}


function sentenceScore(sentence: AnalysedSentence, role: Role): number {
  if (sentence.smallTalk) return 0;
  let score = 1;
  let content = 0;
  for (const token of sentence.tokens) if (!STOP_WORDS.has(token.lower)) content += 1;
  score += Math.min(2, content / Math.max(4, sentence.tokens.length) * 2);
  let cueScore = 0;
  for (const cue of sentence.cues) if (!cue.weak) cueScore = Math.max(cueScore, CUE_SCORE[cue.kind]);
  // A bare keyword ("budget", "deadline") is weaker evidence of a rule than a modal ("must", "never").
  if (sentence.cues.every((cue) => cue.keyword || cue.weak)) cueScore = Math.min(cueScore, 3);
  score += cueScore;
  score += Math.min(4.5, sentence.specifics.length * 1.5);
  if (sentence.question) score += role === 'user' ? 2.5 : 1;
  return score;
}

function anchorOf(sentence: AnalysedSentence, pieceStart: number, pieceWords: number): number {
  const cue = sentence.cues.find((item) => !item.weak) ?? sentence.cues[0];
  const at = cue === undefined ? sentence.specifics[0]?.start : sentence.tokens[cue.start]?.start;
  if (at === undefined || at < pieceStart) return 0;
  return Math.min(Math.max(0, pieceWords - 1), countWords(sentence.text, pieceStart, at));
}

/** A copy of a unit with some fields replaced (an explicit literal: cheaper than a spread, one shape for all units). */
export function withFields(unit: Unit, fields: Partial<Unit>): Unit {
  return {
    text: fields.text ?? unit.text,
    words: fields.words ?? unit.words,
    score: fields.score ?? unit.score,
    order: fields.order ?? unit.order,
    mustKeep: fields.mustKeep ?? unit.mustKeep,
    anchor: fields.anchor ?? unit.anchor,
  };
}

/** The units of a message, scored. Very long sentences are split into clauses. */
export function messageUnits(message: AnalysedMessage, longSentenceWords = 35): Unit[] {
  const role = message.message.role;
  const units: Unit[] = [];
  let index = 0;
  for (const sentence of message.sentences) {
    const base = sentenceScore(sentence, role);
    const rule = (start: number, end: number): boolean =>
      sentence.cues.some((cue) => {
        const token = sentence.tokens[cue.start];
        if (token === undefined || token.start < start || token.start >= end || cue.weak) return false;
        // A keyword ("budget") makes a rule only with its value ("the budget is $45,000").
        if (cue.keyword) return sentence.specifics.some((item) => item.start >= start && item.start < end);
        return cue.kind === 'exception' || cue.kind === 'constraint' || cue.kind === 'correction' || cue.kind === 'removal';
      });
    const pieces = sentence.tokens.length > longSentenceWords ? splitClauses(sentence.text) : [sentence.text];
    let offset = 0;
    for (const piece of pieces) {
      const at = sentence.text.indexOf(piece, offset);
      const start = at < 0 ? offset : at;
      offset = start + piece.length;
      const text = withoutFillers(piece);
      if (text === '') continue;
      let score = base;
      if (pieces.length > 1) {
        // A clause of a long sentence scores by what it holds itself.
        const holdsCue = sentence.cues.some((cue) => {
          const token = sentence.tokens[cue.start];
          return token !== undefined && token.start >= start && token.start < offset;
        });
        const holdsSpecifics = sentence.specifics.filter((item) => item.start >= start && item.start < offset).length;
        score = (sentence.smallTalk ? 0 : 1) + (holdsCue ? base / 2 : 0) + holdsSpecifics * 1.5;
      }
      const words = countWords(text);
      units.push({
        text,
        words,
        score,
        order: index,
        mustKeep: !sentence.smallTalk && !sentence.question && rule(start, offset),
        anchor: anchorOf(sentence, start, words),
      });
      index += 1;
    }
  }
  if (units.length > 0 && units.some((unit) => unit.score > 0)) {
    const first = units.find((unit) => unit.score > 0);
    if (first !== undefined) first.score += 0.5;
  }
  return units;
}

/**
 * The core of a long unit for a summary: the clause holding its anchor, at most `limit` words.
 * Short units stay whole.
 */
export function coreOf(unit: Unit, limit: number): Unit {
  if (unit.words <= limit) return unit;
  const parts = unit.text.split(/\s+/u);
  let start = 0;
  for (let index = unit.anchor - 1; index >= 0; index -= 1) {
    if (/[,;:–—]$/u.test(parts[index] ?? '')) {
      start = index + 1;
      break;
    }
  }
  let end = parts.length;
  for (let index = Math.max(unit.anchor, start); index < parts.length; index += 1) {
    if (/[,;:–—]$/u.test(parts[index] ?? '')) {
      end = index + 1;
      break;
    }
  }
  let text = parts.slice(start, end).join(' ').replace(/[,;:–—]$/u, '');
  const words = end - start;
  if (words > limit) text = cutUnit(withFields(unit, { text, words, anchor: Math.max(0, unit.anchor - start) }), limit);
  else {
    if (start > 0) text = `…${text}`;
    if (end < parts.length) text = `${text}…`;
  }
  return withFields(unit, { text, words: countWords(text), anchor: 0 });
}

/** Cut a unit to `limit` words around its anchor; an ellipsis glued to the edge words marks each cut. */
function cutUnit(unit: Unit, limit: number): string {
  const parts = unit.text.split(/\s+/u);
  if (parts.length <= limit) return unit.text;
  const start = Math.max(0, Math.min(unit.anchor - 2, parts.length - limit));
  const end = start + limit;
  const body = parts.slice(start, end).join(' ');
  return `${start > 0 ? '…' : ''}${body}${end < parts.length ? '…' : ''}`;
}

/**
 * Pick the best units under a word budget (greedy by score, ties by order), and return them in
 * their original order. When even the best unit does not fit, it is cut around its anchor.
 * With `keepRules`, units stating a rule or a correction are added even over the budget.
 */
export function selectUnits(units: readonly Unit[], budget: number, options: { includeZero?: boolean; keepRules?: boolean; minCut?: number } = {}): Unit[] {
  const includeZero = options.includeZero ?? false;
  const keepRules = options.keepRules ?? false;
  const seen = new Set<string>();
  const ranked = units
    .filter((unit) => includeZero || unit.score > 0)
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .filter((unit) => {
      // A sentence said twice is kept once.
      if (seen.has(unit.text)) return false;
      seen.add(unit.text);
      return true;
    });
  const chosen: Unit[] = [];
  let used = 0;
  for (const unit of ranked) {
    // The best unit may overshoot a little rather than be cut.
    const allowance = chosen.length === 0 ? Math.floor(budget * 1.5) : budget;
    if (used + unit.words <= allowance) {
      chosen.push(unit);
      used += unit.words;
      continue;
    }
    const room = budget - used;
    if (room >= Math.min(options.minCut ?? 8, budget) && (chosen.length === 0 || unit.score >= (chosen[0]?.score ?? 0) * 0.75)) {
      const text = cutUnit(unit, room);
      chosen.push(withFields(unit, { text, words: countWords(text) }));
      used += countWords(text);
    }
  }
  if (keepRules) {
    // Rules stay even over the budget, up to twice the budget in all.
    const taken = new Set(chosen.map((unit) => unit.order));
    for (const unit of ranked) {
      if (!unit.mustKeep || taken.has(unit.order) || used + unit.words > budget * 2) continue;
      chosen.push(unit);
      taken.add(unit.order);
      used += unit.words;
    }
  }
  return chosen.sort((a, b) => a.order - b.order);
}
