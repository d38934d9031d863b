/**
 * What deriving a turn cost and gave: counted per session, logged (a warning for a fallback), and every
 * `snapshotEveryTurns` turns the whole base-truth document logged as a snapshot.
 */
import type { EngineParts } from './engine-parts.js';
import type { DerivedTurn } from './write-path.js';

/** Count and log what deriving a turn cost and gave; write a base-truth snapshot every N turns. */
export async function accountTurn(parts: Pick<EngineParts, 'counters' | 'logger' | 'settings' | 'repositories'>, derived: DerivedTurn, options: { retried: boolean }): Promise<void> {
  const { counters, logger, settings, repositories } = parts;
  const { sessionId, turn, usage } = derived;
  counters.add(sessionId, {
    memoryModelCalls: usage?.calls ?? 0,
    memoryModelRetries: usage?.retries ?? 0,
    fallbacks: derived.failure !== null && !options.retried ? 1 : 0,
    retryAttempts: options.retried ? 1 : 0,
    retriesSucceeded: options.retried && derived.status === 'summarised' ? 1 : 0,
    tokens: { memoryPrompt: usage?.promptTokens ?? 0, memoryCompletion: usage?.completionTokens ?? 0 },
  });
  if (derived.failure !== null) {
    logger.warn(
      { sessionId, turn, status: derived.status, code: derived.failure.code, retry: derived.retry !== null, retried: options.retried },
      options.retried ? 'retried turn memory failed again' : 'turn memory fell back to the raw exchange',
    );
    return;
  }
  logger.debug({ sessionId, turn, status: derived.status, factEvents: derived.events.length, modelCalls: usage?.calls ?? 0 }, options.retried ? 'flagged turn summarised' : 'turn memory written');
  if (settings.snapshotEveryTurns > 0 && turn % settings.snapshotEveryTurns === 0 && logger.isLevelEnabled?.('info') !== false) {
    const facts = await repositories.facts.list({ sessionId });
    logger.info(
      { sessionId, turn, facts: facts.map((fact) => ({ id: fact.id, key: fact.key, kind: fact.kind, pinned: fact.pinned, text: fact.text, sourceMessageIds: fact.sourceMessageIds })) },
      'base-truth snapshot',
    );
  }
}
