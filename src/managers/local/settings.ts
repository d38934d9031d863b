import { StrataError } from '../../core/errors.js';
import type { TaggerMode } from './tagging.js';

/** Settings of the local (rule-based, offline) memory manager. Every field is optional. */
export interface LocalManagerSettings {
  /**
   * Words of one message that may get NLP analysis (compromise tagging and date parsing).
   * Sentences with cue words ("must", "never", "prefer", "actually" …) are analysed first, then the
   * other sentences with digits, names or date words, in order; the rest gets cheap lexicon tagging.
   * Default 1500.
   */
  maxAnalysedWords?: number;
  /**
   * Words of one message read at all (for facts, tiers and summaries). Of a longer message, a pasted
   * document or log, its beginning and its last sixth of this many words are read, so a turn's work
   * stays bounded; all of it stays stored and searchable. Default 3000.
   */
  maxReadWords?: number;
  /**
   * Most sentences of one turn that compromise tags (rules first, then corrections, goals,
   * preferences); the others get lexicon tagging. Bounds the cost of long turns. Default 6.
   */
  maxTaggedSentences?: number;
  /**
   * `fast` (default): compromise's lexicon and pre-tagger, about 0.15 ms per analysed sentence.
   * `accurate`: the full compromise pipeline, about 0.6 ms per analysed sentence.
   */
  tagger?: TaggerMode;
  /**
   * Which assistant messages may add facts: `named` (default) only when the message has a speaker
   * name (a conversation between people); `always`; `never`. User messages always may.
   */
  assistantFacts?: 'named' | 'always' | 'never';
  /** Most fact lines (adds and updates) one turn may propose; the strongest are kept. Default 12. */
  maxFactsPerTurn?: number;
  /**
   * Facts a turn's claims are compared with, besides the rules and requirements (which always are): the
   * most recently established ones. Older plain facts stay in the document and in the package, but a
   * turn no longer changes them; a claim about one gets a line of its own, and a change that names one
   * fact among several ("Jonas is out") looks among the working facts only. Keeps a turn's work bounded
   * however long the conversation grows. Default 1000.
   */
  workingFacts?: number;
  /** Longest value of a fact line, in words (the key comes on top). Default 24. */
  maxFactWords?: number;
  /** Share of a message's words that tier 1 (`key = value` pairs) aims at (at least 15 words). Default 0.2. */
  tierOneShare?: number;
  /** Share of a message's words that tier 2 (the brief summary) aims at (at least 15 words). Default 0.35. */
  tierTwoShare?: number;
  /**
   * A message stating a hard constraint or an exception gets required tier 3 (its exact wording is
   * kept) when it has at most this many words. Default 40.
   */
  verbatimMaxWords?: number;
  /** Word similarity (0–1) above which an unnamed code block continues a known artifact. Default 0.5. */
  revisionSimilarity?: number;
  /** Least words of an assistant prose reply, written on request, to become a `draft` artifact. Default 120. */
  draftMinWords?: number;
  /**
   * Bytes the manager's memos of text analysis may hold together (word classes, the key words and values
   * of fact lines, which recur turn after turn); past it, the oldest go. 0 keeps none. Default 16 MiB.
   */
  cacheBytes?: number;
  /**
   * Longest the manager works on in one go, in milliseconds, before it lets other work run (a turn of
   * the event loop): a long message's analysis, a large document's first turn and a consolidation are
   * done in slices. 0 lets other work in after every slice. Default 20.
   */
  sliceMs?: number;
}

export type ResolvedSettings = Required<LocalManagerSettings>;

export const DEFAULT_SETTINGS: ResolvedSettings = {
  maxAnalysedWords: 1500,
  maxReadWords: 3000,
  maxTaggedSentences: 6,
  tagger: 'fast',
  assistantFacts: 'named',
  maxFactsPerTurn: 12,
  workingFacts: 1000,
  maxFactWords: 24,
  tierOneShare: 0.2,
  tierTwoShare: 0.35,
  verbatimMaxWords: 40,
  revisionSimilarity: 0.5,
  draftMinWords: 120,
  cacheBytes: 16 * 1024 * 1024,
  sliceMs: 20,
};

function checkNumber(name: keyof LocalManagerSettings, value: number, min: number, max: number, integer: boolean): void {
  if (!Number.isFinite(value) || value < min || value > max || (integer && !Number.isInteger(value))) {
    throw new StrataError(
      'INVALID_CONFIG',
      `local memory manager: ${name} must be ${integer ? 'an integer' : 'a number'} from ${min} to ${max}; got ${String(value)}`,
      { details: { option: name } },
    );
  }
}

/** Apply the defaults and validate the settings. */
export function resolveSettings(settings: LocalManagerSettings = {}): ResolvedSettings {
  const resolved: ResolvedSettings = { ...DEFAULT_SETTINGS };
  for (const [name, value] of Object.entries(settings) as [keyof LocalManagerSettings, unknown][]) {
    if (value !== undefined) Object.assign(resolved, { [name]: value });
  }
  checkNumber('maxAnalysedWords', resolved.maxAnalysedWords, 0, 1_000_000, true);
  checkNumber('maxReadWords', resolved.maxReadWords, 1, 10_000_000, true);
  checkNumber('maxTaggedSentences', resolved.maxTaggedSentences, 0, 10_000, true);
  checkNumber('maxFactsPerTurn', resolved.maxFactsPerTurn, 0, 1_000, true);
  checkNumber('workingFacts', resolved.workingFacts, 1, 10_000_000, true);
  checkNumber('maxFactWords', resolved.maxFactWords, 3, 200, true);
  checkNumber('tierOneShare', resolved.tierOneShare, 0.01, 1, false);
  checkNumber('tierTwoShare', resolved.tierTwoShare, 0.01, 1, false);
  checkNumber('verbatimMaxWords', resolved.verbatimMaxWords, 0, 100_000, true);
  checkNumber('revisionSimilarity', resolved.revisionSimilarity, 0, 1, false);
  checkNumber('draftMinWords', resolved.draftMinWords, 1, 1_000_000, true);
  checkNumber('cacheBytes', resolved.cacheBytes, 0, 2 ** 40, true);
  checkNumber('sliceMs', resolved.sliceMs, 0, 10_000, false);
  if (resolved.tagger !== 'fast' && resolved.tagger !== 'accurate') {
    throw new StrataError('INVALID_CONFIG', `local memory manager: tagger must be 'fast' or 'accurate'; got ${String(resolved.tagger)}`, {
      details: { option: 'tagger' },
    });
  }
  if (!['named', 'always', 'never'].includes(resolved.assistantFacts)) {
    throw new StrataError(
      'INVALID_CONFIG',
      `local memory manager: assistantFacts must be 'named', 'always' or 'never'; got ${String(resolved.assistantFacts)}`,
      { details: { option: 'assistantFacts' } },
    );
  }
  return resolved;
}
