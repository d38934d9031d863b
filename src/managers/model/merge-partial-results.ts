import type { DiffEntry, FactDiff, RemoveEntry } from '../../core/diff.js';
import { factKey, limitWords, normalizeText } from '../../core/text.js';
import type { ModelTiers, ParsedTurnOutput } from './parse-turn-output.js';
import { tierWordLimits, type SummaryLimits } from './turn-limits.js';

/** A message of the whole turn: its id and the words of its whole content. */
export interface WholeMessage {
  id: string;
  words: number;
}

type Change = { list: 'add' | 'update'; entry: DiffEntry } | { list: 'remove'; entry: RemoveEntry };

/** The key a change is about, normalised as the engine matches keys. */
function keyOf(change: Change): string {
  if (change.list === 'remove') return normalizeText(change.entry.key);
  return normalizeText(change.entry.key ?? factKey(change.entry.text));
}

/** Union of the parts' diffs; where several parts change one key, the latest part wins. */
function mergeDiffs(diffs: readonly FactDiff[]): FactDiff {
  const byKey = new Map<string, Change>();
  for (const diff of diffs) {
    const changes: Change[] = [
      ...diff.remove.map((entry) => ({ list: 'remove' as const, entry })),
      ...diff.update.map((entry) => ({ list: 'update' as const, entry })),
      ...diff.add.map((entry) => ({ list: 'add' as const, entry })),
    ];
    for (const change of changes) {
      const key = keyOf(change);
      // Re-inserted so the order of the result follows the latest change of each key.
      byKey.delete(key);
      byKey.set(key, change);
    }
  }
  const merged: FactDiff = { add: [], update: [], remove: [] };
  for (const change of byKey.values()) {
    if (change.list === 'remove') merged.remove.push(change.entry);
    else merged[change.list].push(change.entry);
  }
  return merged;
}

function joined(texts: readonly string[], separator: string, limit: number): string {
  return limitWords(texts.filter((text) => text.trim() !== '').join(separator), limit);
}

/**
 * Merge the results of the calls that summarised one turn in parts: each message's tiers are its
 * parts' tiers in order, cut again to the whole message's limits; each side's summary is its parts'
 * summaries in order, cut to the summary limit; the diffs are united, later parts winning per key.
 * With one part, only the white space of the summaries and tiers changes.
 */
export function mergePartialResults(parts: readonly ParsedTurnOutput[], messages: readonly WholeMessage[], limits: SummaryLimits): ParsedTurnOutput {
  const tiers: ModelTiers[] = messages.map((message) => {
    const pieces = parts.flatMap((part) => part.messages.filter((entry) => entry.messageId === message.id));
    const limit = tierWordLimits(message.words, limits);
    return {
      messageId: message.id,
      tier1: joined(pieces.map((piece) => piece.tier1), '; ', limit.tier1),
      tier2: joined(pieces.map((piece) => piece.tier2), ' ', limit.tier2),
    };
  });
  return {
    userSummary: joined(parts.map((part) => part.userSummary), ' ', limits.userSummaryWords),
    assistantSummary: joined(parts.map((part) => part.assistantSummary), ' ', limits.assistantSummaryWords),
    messages: tiers,
    diff: parts.length === 1 && parts[0] !== undefined ? parts[0].diff : mergeDiffs(parts.map((part) => part.diff)),
  };
}
