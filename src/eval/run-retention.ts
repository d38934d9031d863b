import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StrataError } from '../core/errors.js';
import { createMemory } from '../memory/create-memory.js';
import type { TokenizerName } from '../providers/tokenizer/tokenizer.js';
import type { FactTier, LoadedConversation } from './key-fact-conversation.js';
import { reproducibleSources } from './reproducible.js';
import { originalTokenCount, scoreRetention, staleRate, weightedScore, type FactResult, type FactStatus, type RetentionScore } from './retention.js';

/** The retention of one conversation. */
export interface ConversationRetention extends RetentionScore {
  id: string;
  file: string;
  description: string;
  /** Turns and messages replayed. */
  turns: number;
  messages: number;
}

/** Facts of one tier over every conversation. */
export interface TierRetention {
  tier: FactTier;
  facts: number;
  preserved: number;
  partial: number;
  missing: number;
  /** Mean fact score of the tier (0–1). */
  score: number;
}

export interface RetentionRun {
  tokenizer: TokenizerName;
  /** The `--budget` override, or null when each file's budget was used. */
  budgetOverride: number | null;
  /** Mean of the conversations' scores. */
  meanScore: number;
  /** Mean of the conversations' memory-only scores (the package without its verbatim window). */
  memoryOnlyScore: number;
  /** Stale facts asserted / stale facts, over every conversation (0 when none lists any). */
  staleRate: number;
  /** Mean token reduction of the conversations. */
  meanTokenReduction: number;
  /** Share of packages within their budget (0–1). */
  budgetCompliance: number;
  /** Mean of tokens / budget. */
  meanFill: number;
  byTier: TierRetention[];
  conversations: ConversationRetention[];
}

export interface RetentionRunOptions {
  /** Replaces every file's budget. */
  budget?: number;
  /** Token encoding (default o200k_base). */
  tokenizer?: TokenizerName;
  /** Called before each conversation is replayed. */
  onConversation?: (progress: { index: number; total: number; id: string }) => void;
}

/** Fixed start of the replay clock: one second per reading, so a run is reproducible. */
const REPLAY_START = Date.parse('2026-01-05T09:00:00.000Z');

/**
 * Replay one conversation into a fresh temporary store, assemble its package with no query at the
 * budget (the file's, or `options.budget`), and score it. The store is deleted afterwards.
 *
 * The memory gets `path`, an empty `env` and an empty config file of its own, so no STRATA_* variable
 * and no `./strata.config.json` can change the result (every setting is the default), plus a stepping
 * clock and sequential ids, so the same files give the same figures on every run and machine.
 */
export async function evaluateConversation(loaded: LoadedConversation, options: Omit<RetentionRunOptions, 'onConversation'> = {}): Promise<ConversationRetention> {
  const { file, conversation } = loaded;
  const budget = options.budget ?? conversation.budget;
  if (!Number.isSafeInteger(budget) || budget < 1) throw new StrataError('INVALID_INPUT', `The budget must be a whole number ≥ 1 (got ${String(budget)}).`);
  const folder = mkdtempSync(join(tmpdir(), 'strata-eval-'));
  try {
    const configFile = join(folder, 'settings.json');
    writeFileSync(configFile, '{}\n', 'utf8');
    const sources = reproducibleSources({ prefix: 'eval', width: 6, stepMs: 1000, start: REPLAY_START });
    const memory = createMemory({
      path: join(folder, 'eval.db'),
      env: {},
      configFile,
      tokenizer: options.tokenizer ?? 'o200k_base',
      durability: 'normal',
      clock: sources.clock,
      newId: sources.newId,
    });
    try {
      const messages = conversation.messages.map(({ role, content }) => ({ role, content }));
      // Timestamps the file carries are kept, so relative dates resolve against each message's own time.
      const stored = conversation.messages.map(({ role, content, timestamp }) => (timestamp === undefined ? { role, content } : { role, content, timestamp }));
      const imported = await memory.sessions.import({ data: { messages: stored }, source: file, title: conversation.id.slice(0, 300) });
      const session = await memory.sessions.open(imported.sessionId);
      const pkg = await session.context({ budget });
      const score = scoreRetention({
        facts: conversation.keyFacts,
        staleFacts: conversation.staleFacts,
        pkg,
        originalTokens: originalTokenCount(memory.tokenizer, messages),
      });
      return { id: conversation.id, file, description: conversation.description, turns: imported.turns, messages: imported.messages, ...score };
    } finally {
      await memory.close();
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length;
}

/** Per-tier counts and mean fact score over all conversations. */
export function tierRetention(facts: readonly FactResult[]): TierRetention[] {
  return ([1, 2, 3] as const).map((tier) => {
    const ofTier = facts.filter((fact) => fact.tier === tier);
    const count = (status: FactStatus): number => ofTier.filter((fact) => fact.status === status).length;
    return {
      tier,
      facts: ofTier.length,
      preserved: count('preserved'),
      partial: count('partial'),
      missing: count('missing'),
      score: ofTier.length === 0 ? 0 : weightedScore(ofTier.map((fact) => ({ score: fact.score, weight: 1 }))),
    };
  });
}

/** Evaluate every conversation in turn (each in its own temporary store). */
export async function runRetention(conversations: readonly LoadedConversation[], options: RetentionRunOptions = {}): Promise<RetentionRun> {
  const results: ConversationRetention[] = [];
  for (const [index, loaded] of conversations.entries()) {
    options.onConversation?.({ index, total: conversations.length, id: loaded.conversation.id });
    results.push(await evaluateConversation(loaded, options));
  }
  return {
    tokenizer: options.tokenizer ?? 'o200k_base',
    budgetOverride: options.budget ?? null,
    meanScore: mean(results.map((result) => result.score)),
    memoryOnlyScore: mean(results.map((result) => result.memoryOnlyScore)),
    staleRate: staleRate(results.flatMap((result) => result.stale)),
    meanTokenReduction: mean(results.map((result) => result.tokenReduction)),
    budgetCompliance: mean(results.map((result) => (result.budgetCompliant ? 1 : 0))),
    meanFill: mean(results.map((result) => result.fill)),
    byTier: tierRetention(results.flatMap((result) => result.facts)),
    conversations: results,
  };
}
