/**
 * Evaluate one LoCoMo conversation: replay it into a fresh store, then for every QA item and budget
 * assemble the engine's package with query = the question, build both baselines from the same raw
 * turns with the same tokenizer, and score all three.
 */
import { checkGrounding } from '../../core/grounding.js';
import { normalizeText } from '../../core/text.js';
import type { ChatMessage, FactEvent } from '../../core/types.js';
import type { MemoryManager } from '../../managers/memory-manager.js';
import { createRecordedMemoryManager } from '../../managers/recorded/index.js';
import type { MemoryOptions } from '../../memory/create-memory.js';
import { createGptTokenizer } from '../../providers/tokenizer/gpt-tokenizer.js';
import type { TokenizerName } from '../../providers/tokenizer/tokenizer.js';
import { baselineTurns, bm25GreedyPackage, createBm25Index, recencyPackage } from './baselines.js';
import type { LocomoSample } from './dataset.js';
import { containableAnswer, containsPhrase, evidenceRecall, packageCredit, type ItemScore } from './metrics.js';
import { recordedScript, SESSION_SUMMARY_KEY } from './recorded.js';
import { replayConversation, replayTurns } from './replay.js';

/** The memory managers a LoCoMo run can replay with: the engine's own, or the dataset's recorded memory. */
export const LOCOMO_MANAGERS = ['local', 'recorded'] as const;
export type LocomoManagerName = (typeof LOCOMO_MANAGERS)[number];

export const SYSTEMS = ['strata', 'bm25-greedy', 'recency'] as const;
export type SystemName = (typeof SYSTEMS)[number];

/** The systems other than the engine: they pack the raw turns, so they do not depend on the manager. */
export const BASELINES = SYSTEMS.filter((system) => system !== 'strata');

/** Settings of a conversation's evaluation; plain data, so a worker thread can receive them. */
export interface EvaluateSettings {
  budgets: number[];
  manager: LocomoManagerName;
  tokenizer: TokenizerName;
  /** Environment and config file the memory reads its other settings from (default: none). */
  env?: Record<string, string | undefined>;
  configFile?: string;
  /** A PostgreSQL URL to replay in (a schema per conversation, dropped afterwards); default in-memory SQLite. */
  database?: string;
}

/** What the engine did with the facts the recorded manager proposed. */
export interface RecordedStats {
  proposed: { observations: number; sessionSummaries: number };
  /** Facts the engine added (observations / session-summary pieces). */
  added: { observations: number; sessionSummaries: number };
  /** Rejections by reason: `ungrounded`, `outside-exchange`, `too-long`, `other`. */
  rejected: { observations: Record<string, number>; sessionSummaries: Record<string, number> };
  /** Proposals merged into an existing fact (same text or key) instead of added. */
  merged: number;
  /** Ungrounded observation facts that would pass if the speakers' names counted as part of the exchange. */
  ungroundedOnlyForSpeakerNames: number;
  /** Session-summary facts grounded in the messages they cite, with the speakers' names and the session time. */
  sessionSummariesGroundedInSession: number;
  /** Observations with no usable evidence (not played back). */
  skippedObservations: number;
}

export interface ConversationResult {
  sampleId: string;
  qaItems: number;
  messages: number;
  turns: number;
  /** One score per QA item, budget and system (each from one package). */
  scores: ItemScore[];
  /** Facts in the base truth after the replay. */
  facts: number;
  recorded: RecordedStats | null;
  replayMs: number;
  assembleMs: number;
}

export type EvaluateProgress = { phase: 'replay' | 'assemble'; done: number; total: number };

function rejectionReason(reason: string): string {
  if (reason.startsWith('not grounded')) return 'ungrounded';
  if (reason.startsWith('cites messages outside')) return 'outside-exchange';
  if (reason.startsWith('fact text is')) return 'too-long';
  return 'other';
}

function recordedStats(
  events: readonly FactEvent[],
  script: ReturnType<typeof recordedScript>,
  sample: LocomoSample,
): RecordedStats {
  const sessionKey = normalizeText(SESSION_SUMMARY_KEY);
  const stats: RecordedStats = {
    proposed: { observations: script.observationFacts, sessionSummaries: script.sessionSummaryFacts },
    added: { observations: 0, sessionSummaries: 0 },
    rejected: { observations: {}, sessionSummaries: {} },
    merged: 0,
    ungroundedOnlyForSpeakerNames: 0,
    sessionSummariesGroundedInSession: 0,
    skippedObservations: script.skippedObservations,
  };
  for (const event of events) {
    const origin = event.key.startsWith(sessionKey) ? 'sessionSummaries' : 'observations';
    if (event.op === 'add') stats.added[origin] += 1;
    else if (event.op === 'reject') {
      const reason = rejectionReason(event.reason);
      stats.rejected[origin][reason] = (stats.rejected[origin][reason] ?? 0) + 1;
    } else if (event.op === 'warning' || event.op === 'update') stats.merged += 1;
  }
  // Diagnose the rejections: would an observation pass if the speakers' names were part of the exchange,
  // and is a session summary supported by the session it cites (its names, numbers and time)?
  const turns = replayTurns(sample);
  const messages = new Map(turns.flatMap((turn) => turn.messages.map((message) => [message.diaId, message])));
  const speakers = `${sample.speakerA} ${sample.speakerB}`;
  script.turns.forEach((turn, index) => {
    const exchange = turns[index]?.messages.map((message) => message.content).join('\n') ?? '';
    const turnSpeakers = [...new Set(turns[index]?.messages.map((message) => message.speaker) ?? [])].join(' ');
    const inTurn = new Set(turn.messages.map((message) => message.externalId));
    for (const fact of turn.facts ?? []) {
      if (fact.key === undefined) {
        // Facts citing other turns are rejected for that before grounding is checked.
        if (fact.sources.every((id) => inTurn.has(id)) && !checkGrounding(fact.text, exchange).grounded && checkGrounding(fact.text, `${turnSpeakers}\n${exchange}`).grounded) {
          stats.ungroundedOnlyForSpeakerNames += 1;
        }
        continue;
      }
      const cited = fact.sources.map((id) => messages.get(id));
      const time = sample.sessions.find((session) => session.index === cited[0]?.session)?.dateTime ?? '';
      const source = `${speakers} ${time}\n${cited.map((message) => message?.content ?? '').join('\n')}`;
      if (checkGrounding(fact.text, source).grounded) stats.sessionSummariesGroundedInSession += 1;
    }
  });
  return stats;
}

function packageText(messages: readonly ChatMessage[]): string {
  return normalizeText(messages.map((message) => message.content).join('\n'));
}

/** Replay and score one conversation. */
export async function evaluateConversation(
  sample: LocomoSample,
  settings: EvaluateSettings,
  onProgress: (progress: EvaluateProgress) => void = () => undefined,
): Promise<ConversationResult> {
  const tokenizer = createGptTokenizer({ encoding: settings.tokenizer });
  const script = settings.manager === 'recorded' ? recordedScript(sample) : null;
  // No manager given: the memory's default, the local manager.
  const manager: MemoryManager | undefined = script === null ? undefined : createRecordedMemoryManager({ turns: script.turns });
  const memoryOptions: Omit<MemoryOptions, 'path' | 'store' | 'manager' | 'tokenizer'> = {
    env: settings.env ?? {},
    ...(settings.configFile === undefined ? {} : { configFile: settings.configFile }),
    durability: 'normal',
  };
  const replayStart = performance.now();
  const replayed = await replayConversation(sample, {
    ...(manager === undefined ? {} : { manager }),
    tokenizer,
    memory: memoryOptions,
    ...(settings.database === undefined ? {} : { database: settings.database }),
    onTurn: (done, total) => onProgress({ phase: 'replay', done, total }),
  });
  const replayMs = performance.now() - replayStart;
  try {
    const assembleStart = performance.now();
    const turns = baselineTurns(
      replayed.messages.map((message) => ({ id: message.messageId, role: message.role, speaker: message.speaker, content: message.content })),
      tokenizer,
    );
    const index = createBm25Index(turns.map((turn) => turn.content));
    const transcript = packageText(turns.map((turn) => ({ role: turn.role, content: turn.content })));
    const diaIds = (ids: Iterable<string>): Set<string> => {
      const result = new Set<string>();
      for (const id of ids) {
        const diaId = replayed.diaIdOf.get(id);
        if (diaId !== undefined) result.add(diaId);
      }
      return result;
    };
    const scores: ItemScore[] = [];
    const total = sample.qa.length * settings.budgets.length;
    let done = 0;
    for (const item of sample.qa) {
      const answer = containableAnswer(item.answer, transcript);
      const score = (system: SystemName, budget: number, credited: Set<string>, sessionLevel: Set<string>, text: string, tokens: number): void => {
        scores.push({
          system,
          budget,
          category: item.category,
          evidenceRecall: evidenceRecall(item.evidence, credited),
          sessionLevelRecall: evidenceRecall(item.evidence, sessionLevel),
          answerContained: answer === null ? null : containsPhrase(text, answer),
          tokens,
        });
      };
      for (const budget of settings.budgets) {
        const pkg = await replayed.session.context({ budget, query: item.question });
        const credit = packageCredit(pkg.sections);
        score('strata', budget, diaIds(credit.credited), diaIds(credit.sessionLevel), answer === null ? '' : packageText(pkg.render()), pkg.tokens);
        for (const [system, baseline] of [
          ['bm25-greedy', bm25GreedyPackage(turns, index, item.question, budget)],
          ['recency', recencyPackage(turns, budget)],
        ] as const) {
          score(system, budget, diaIds(baseline.turns.map((turn) => turn.id)), new Set(), answer === null ? '' : packageText(baseline.render()), baseline.tokens);
        }
        done += 1;
        onProgress({ phase: 'assemble', done, total });
      }
    }
    const assembleMs = performance.now() - assembleStart;
    const recorded = script === null ? null : recordedStats(await replayed.session.factEvents(), script, sample);
    return {
      sampleId: sample.sampleId,
      qaItems: sample.qa.length,
      messages: replayed.messages.length,
      turns: new Set(replayed.messages.map((message) => message.turn)).size,
      scores,
      facts: (await replayed.session.facts()).length,
      recorded,
      replayMs,
      assembleMs,
    };
  } finally {
    await replayed.close();
  }
}
