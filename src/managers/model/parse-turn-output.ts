import type { DiffEntry, FactDiff, RemoveEntry } from '../../core/diff.js';
import { limitWords } from '../../core/text.js';
import type { Role } from '../../core/types.js';
import { parseJsonReply, type ReplyCheck } from './json-reply.js';
import { tierWordLimits, type SummaryLimits } from './turn-limits.js';
import { turnOutputSchema, type TurnOutput } from './turn-output-schema.js';

/** Longest fact line accepted from the model, in characters (the engine's own limit). */
export const MAX_FACT_CHARACTERS = 500;

/** What the reply to one call must match: the messages the call showed and the limits it asked for. */
export interface TurnOutputExpectation {
  /** The messages (or parts) of the call, with the words of the content the model saw. */
  messages: ReadonlyArray<{ id: string; role: Role; words: number }>;
  limits: SummaryLimits;
}

/** Tiers of one message as the model wrote them, trimmed to their limits. */
export interface ModelTiers {
  messageId: string;
  tier1: string;
  tier2: string;
}

/** A checked reply: summaries and tiers trimmed to their limits, the diff shaped as the engine's `FactDiff`. */
export interface ParsedTurnOutput {
  userSummary: string;
  assistantSummary: string;
  messages: ModelTiers[];
  diff: FactDiff;
}

type Problem = string | null;

function checkSources(ids: readonly string[], allowed: ReadonlySet<string>, where: string): Problem {
  if (ids.length === 0) return `${where} cites no message`;
  const unknown = ids.filter((id) => !allowed.has(id));
  return unknown.length === 0 ? null : `${where} cites unknown message ids: ${unknown.join(', ')}`;
}

/** A fact line of the reply: an add (which may name a fact it may replace) or an update (with its reason). */
type FactLine = Pick<TurnOutput['diff']['add'][number], 'key' | 'text' | 'kind' | 'sourceMessageIds'> & { reason?: string | null; mayReplace?: string | null };

function checkFactLine(line: FactLine, allowed: ReadonlySet<string>, where: string): Problem {
  const text = line.text.trim();
  if (text === '') return `${where} has an empty text`;
  if (text.length > MAX_FACT_CHARACTERS) return `${where} is ${text.length} characters; the limit is ${MAX_FACT_CHARACTERS}`;
  return checkSources(line.sourceMessageIds, allowed, where);
}

/** The first thing in a well-shaped reply that does not fit the call: unknown, repeated or missing ids, empty lines. */
function firstProblem(output: TurnOutput, expectation: TurnOutputExpectation): Problem {
  const allowed = new Set(expectation.messages.map((message) => message.id));
  const seen = new Set<string>();
  for (const entry of output.messages) {
    if (!allowed.has(entry.id)) return `messages has an unknown message id: ${entry.id}`;
    if (seen.has(entry.id)) return `messages has message ${entry.id} twice`;
    seen.add(entry.id);
  }
  const missing = [...allowed].filter((id) => !seen.has(id));
  if (missing.length > 0) return `messages lacks message ids: ${missing.join(', ')}`;
  for (const [list, lines] of [['add', output.diff.add], ['update', output.diff.update]] as const) {
    for (const [index, line] of lines.entries()) {
      const problem = checkFactLine(line, allowed, `diff.${list}.${index}`);
      if (problem !== null) return problem;
    }
  }
  for (const [index, entry] of output.diff.remove.entries()) {
    const where = `diff.remove.${index}`;
    if (entry.key.trim() === '') return `${where} has an empty key`;
    if (entry.reason.trim() === '') return `${where} gives no reason`;
    const problem = checkSources(entry.sourceMessageIds, allowed, where);
    if (problem !== null) return problem;
  }
  return null;
}

function toDiffEntry(line: FactLine): DiffEntry {
  const key = line.key.trim();
  const reason = line.reason?.trim() ?? '';
  const mayReplace = line.mayReplace?.trim() ?? '';
  return {
    text: line.text.trim(),
    kind: line.kind,
    ...(key === '' ? {} : { key }),
    sourceMessageIds: [...new Set(line.sourceMessageIds)],
    ...(reason === '' ? {} : { reason }),
    ...(mayReplace === '' ? {} : { mayReplace }),
  };
}

function toRemoveEntry(entry: TurnOutput['diff']['remove'][number]): RemoveEntry {
  return { key: entry.key.trim(), reason: entry.reason.trim(), sourceMessageIds: [...new Set(entry.sourceMessageIds)] };
}

/**
 * Check the memory model's answer for one call. A code fence around the JSON is tolerated; anything
 * else off the schema (bad JSON, a wrong type, an unknown field, an id the call did not show, an empty
 * fact line or reason) rejects the whole reply. Summaries and tiers longer than their limits are cut.
 * The engine still checks every diff entry is grounded in the exchange.
 */
export function parseTurnOutput(text: string, expectation: TurnOutputExpectation): ReplyCheck<ParsedTurnOutput> {
  const parsed = parseJsonReply(text, turnOutputSchema);
  if (!parsed.ok) return parsed;
  const output = parsed.value;
  const problem = firstProblem(output, expectation);
  if (problem !== null) return { ok: false, problem };
  const { limits } = expectation;
  const hasRole = (role: 'user' | 'assistant'): boolean => expectation.messages.some((message) => message.role === role);
  const wordsOf = new Map(expectation.messages.map((message) => [message.id, message.words]));
  return {
    ok: true,
    value: {
      // A side the call did not show has no summary, whatever the model wrote.
      userSummary: hasRole('user') ? limitWords(output.userSummary, limits.userSummaryWords) : '',
      assistantSummary: hasRole('assistant') ? limitWords(output.assistantSummary, limits.assistantSummaryWords) : '',
      messages: output.messages.map((entry) => {
        const limit = tierWordLimits(wordsOf.get(entry.id) ?? 0, limits);
        return { messageId: entry.id, tier1: limitWords(entry.tier1, limit.tier1), tier2: limitWords(entry.tier2, limit.tier2) };
      }),
      diff: {
        add: output.diff.add.map(toDiffEntry),
        update: output.diff.update.map(toDiffEntry),
        remove: output.diff.remove.map(toRemoveEntry),
      },
    },
  };
}
