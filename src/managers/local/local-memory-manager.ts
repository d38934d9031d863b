/**
 * The local memory manager: deterministic, offline, rule-based. For each turn it derives tier 1 and
 * tier 2 of every message, the turn summary, the required tiers, a base-truth diff and the artifacts.
 */
import { routeTurn } from '../../core/routing.js';
import type { MemoryManager, MessageMemory, ProcessTurnOptions, TurnMemory } from '../memory-manager.js';
import { analyseMessage } from './analysis.js';
import { turnArtifacts } from './artifacts.js';
import { buildDiff } from './base-truth-diff.js';
import { dateReference } from './entities.js';
import { extractStatements } from './fact-extraction.js';
import type { Statement } from './fact-extraction.js';
import { requiredTier } from './required-tier.js';
import { resolveSettings } from './settings.js';
import type { LocalManagerSettings, ResolvedSettings } from './settings.js';
import { tierOne } from './tier-one.js';
import { tierTwo } from './tier-two.js';
import { ASSISTANT_SUMMARY_WORDS, USER_SUMMARY_WORDS, sideSummary } from './turn-summary.js';

/** Derive everything the local manager produces for one turn (synchronous core of `processTurn`). */
export function processTurnLocally(options: ProcessTurnOptions, settings: ResolvedSettings): TurnMemory {
  const reference = dateReference(options.timestamp);
  const analysed = options.messages.map((message) =>
    analyseMessage(message, { maxAnalysedWords: settings.maxAnalysedWords, tagger: settings.tagger, reference }),
  );
  const route = routeTurn(options.messages.map((message) => message.content));
  const { drafts, codeNames } = turnArtifacts({
    messages: analysed,
    known: options.artifacts,
    revisionSimilarity: settings.revisionSimilarity,
    draftMinWords: settings.draftMinWords,
  });

  const statements: Statement[][] = analysed.map((message) =>
    message.smallTalk
      ? []
      : message.sentences.flatMap((sentence) =>
          extractStatements(sentence, { messageId: message.message.id, speaker: message.message.speaker, maxValueWords: settings.maxFactWords }),
        ),
  );

  const messages: MessageMemory[] = analysed.map((message, index) => {
    const code = codeNames.get(message.message.id) ?? [];
    return {
      messageId: message.message.id,
      tier1: tierOne({ message, statements: statements[index] ?? [], code, share: settings.tierOneShare }),
      tier2: tierTwo({ message, code, share: settings.tierTwoShare }),
      requiredTier: requiredTier(message, settings.verbatimMaxWords),
    };
  });

  const side = (role: 'user' | 'assistant', limit: number): string => {
    const ofRole = analysed.filter((message) => message.message.role === role);
    const code = ofRole.flatMap((message) => (codeNames.get(message.message.id) ?? []).map((block) => block.name));
    return sideSummary({ messages: ofRole, code, limit });
  };

  const diff = buildDiff({ messages: analysed, statements, facts: options.facts, full: route.wantsDiff, settings });

  return {
    messages,
    userSummary: side('user', USER_SUMMARY_WORDS),
    assistantSummary: side('assistant', ASSISTANT_SUMMARY_WORDS),
    depth: route.depth,
    windowExtension: route.windowExtension,
    diff,
    artifacts: drafts,
  };
}

/**
 * Create the local memory manager (`name: 'local'`): rule-based extraction with compromise
 * (tagging), chrono-node (dates) and the ICU sentence segmenter. No network, deterministic:
 * the same turn always gives the same memory.
 */
export function createLocalMemoryManager(settings?: LocalManagerSettings): MemoryManager {
  const resolved = resolveSettings(settings);
  return {
    name: 'local',
    processTurn(options: ProcessTurnOptions): Promise<TurnMemory> {
      try {
        return Promise.resolve(processTurnLocally(options, resolved));
      } catch (error) {
        return Promise.reject(error instanceof Error ? error : new Error(String(error)));
      }
    },
  };
}
