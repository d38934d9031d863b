/**
 * The local memory manager: deterministic, offline, rule-based. For each turn it derives tier 1 and
 * tier 2 of every message, the turn summary, the required tiers, a base-truth diff and the artifacts.
 */
import { mapPacked } from '../../core/packed-map.js';
import { routeTurn } from '../../core/routing.js';
import type { MemoryManager, MessageMemory, ProcessTurnOptions, TurnMemory } from '../memory-manager.js';
import { analyseMessage } from './analysis.js';
import { turnArtifacts } from './artifacts.js';
import { allowsFacts, buildDiff } from './base-truth-diff.js';
import { DateParserNeeded, dateReference, loadDateParser } from './entities.js';
import { extractStatements } from './fact-extraction.js';
import type { Statement, StatementContext } from './fact-extraction.js';
import { requiredTier } from './required-tier.js';
import { resolveSettings } from './settings.js';
import type { LocalManagerSettings, ResolvedSettings } from './settings.js';
import { warmUpTagger } from './tagging.js';
import { tierOne } from './tier-one.js';
import { tierTwo } from './tier-two.js';
import { ASSISTANT_SUMMARY_WORDS, USER_SUMMARY_WORDS, sideSummary } from './turn-summary.js';
import { messageUnits } from './units.js';

/** Longest word kept whole in tiers and summaries (a pasted blob or a long link is cut with an ellipsis). */
const MAX_WORD_CHARACTERS = 48;

const LONG_WORD = new RegExp(`\\S{${MAX_WORD_CHARACTERS + 1},}`, 'gu');

function tidy(text: string): string {
  // Cheap test first: a word this long is rare.
  let run = 0;
  let long = false;
  for (let index = 0; index < text.length && !long; index += 1) {
    const code = text.charCodeAt(index);
    run = code === 32 || code === 10 || code === 9 ? 0 : run + 1;
    long = run > MAX_WORD_CHARACTERS;
  }
  return long ? text.replace(LONG_WORD, (word) => `${word.slice(0, MAX_WORD_CHARACTERS)}…`) : text;
}

/** Derive everything the local manager produces for one turn (synchronous core of `processTurn`). */
function processTurnLocally(options: ProcessTurnOptions, settings: ResolvedSettings): TurnMemory {
  const reference = dateReference(options.timestamp);
  const taggingBudget = { sentences: settings.maxTaggedSentences };
  const analysed = mapPacked(options.messages, (message) =>
    analyseMessage(message, { maxAnalysedWords: settings.maxAnalysedWords, taggingBudget, tagger: settings.tagger, reference }),
  );
  const route = routeTurn(mapPacked(options.messages, (message) => message.content));
  const { drafts, codeNames } = turnArtifacts({
    messages: analysed,
    known: options.artifacts,
    revisionSimilarity: settings.revisionSimilarity,
    draftMinWords: settings.draftMinWords,
  });

  const statements: Statement[][] = mapPacked(analysed, (message) => {
    if (message.smallTalk) return [];
    const context: StatementContext = {
      messageId: message.message.id,
      speaker: message.message.speaker,
      maxValueWords: settings.maxFactWords,
      lastPerson: { name: null },
      forDiff: allowsFacts(message, settings.assistantFacts),
    };
    // (flatMap would give a holey list; see mapPacked.)
    const found: Statement[] = [];
    for (const sentence of message.sentences) found.push(...extractStatements(sentence, context));
    return found;
  });

  const units = mapPacked(analysed, (message) => messageUnits(message));

  const messages: MessageMemory[] = mapPacked(analysed, (message, index) => {
    const code = codeNames.get(message.message.id) ?? [];
    return {
      messageId: message.message.id,
      tier1: tidy(tierOne({ message, statements: statements[index] ?? [], code, share: settings.tierOneShare })),
      tier2: tidy(tierTwo({ message, units: units[index] ?? [], code, share: settings.tierTwoShare })),
      requiredTier: requiredTier(message, settings.verbatimMaxWords),
    };
  });

  const side = (role: 'user' | 'assistant', limit: number): string => {
    const indexes = analysed.flatMap((message, index) => (message.message.role === role ? [index] : []));
    const ofRole = indexes.flatMap((index) => analysed[index] ?? []);
    const code = ofRole.flatMap((message) => mapPacked(codeNames.get(message.message.id) ?? [], (block) => block.name));
    return sideSummary({ messages: ofRole, units: mapPacked(indexes, (index) => units[index] ?? []), code, limit });
  };

  const diff = buildDiff({ messages: analysed, statements, facts: options.facts, full: route.wantsDiff, settings });

  return {
    messages,
    userSummary: tidy(side('user', USER_SUMMARY_WORDS)),
    assistantSummary: tidy(side('assistant', ASSISTANT_SUMMARY_WORDS)),
    depth: route.depth,
    windowExtension: route.windowExtension,
    diff,
    artifacts: drafts,
  };
}

const warm = new Set<ResolvedSettings['tagger']>();

/**
 * The NLP libraries build their tables lazily on first use; pay that once per process, when idle after
 * the first manager is created, rather than in a recorded turn. The date parser is loaded only when a
 * turn first needs it (most dates — weekdays, "today", "tomorrow" — are read without it).
 */
function warmUp(tagger: ResolvedSettings['tagger']): void {
  if (warm.has(tagger)) return;
  warm.add(tagger);
  warmUpTagger(tagger);
  runLocally(
    {
      sessionId: 'warm-up',
      turn: 1,
      messages: [
        { id: 'warm-up-user', role: 'user', speaker: null, content: 'We must never deploy on Fridays; the deadline moved to Monday and I prefer Lisbon, actually.' },
        { id: 'warm-up-assistant', role: 'assistant', speaker: null, content: 'Noted.' },
      ],
      facts: [],
      artifacts: [],
      timestamp: '2024-01-01T00:00:00Z',
    },
    resolveSettings({ tagger }),
  );
}

/** `processTurnLocally`, or null when the turn needs the date parser and it is not loaded yet. */
function runLocally(options: ProcessTurnOptions, settings: ResolvedSettings): TurnMemory | null {
  try {
    return processTurnLocally(options, settings);
  } catch (error) {
    if (error instanceof DateParserNeeded) return null;
    throw error;
  }
}

/**
 * Create the local memory manager (`name: 'local'`): rule-based extraction with compromise
 * (tagging), chrono-node (dates) and the ICU sentence segmenter. No network, deterministic:
 * the same turn always gives the same memory.
 */
export function createLocalMemoryManager(settings?: LocalManagerSettings): MemoryManager {
  const resolved = resolveSettings(settings);
  // Warm up when the event loop is idle (a short-lived command that records nothing never pays for it).
  setImmediate(() => warmUp(resolved.tagger)).unref();
  return {
    name: 'local',
    async processTurn(options: ProcessTurnOptions): Promise<TurnMemory> {
      try {
        warmUp(resolved.tagger);
        const memory = runLocally(options, resolved);
        if (memory !== null) return memory;
        // The turn holds a date only the parser reads: load it once, then derive the turn again.
        await loadDateParser();
        return processTurnLocally(options, resolved);
      } catch (error) {
        throw error instanceof Error ? error : new Error(String(error));
      }
    },
  };
}
