/**
 * The local corrector: a memory promoted from a session's fact is brought up to date when that session
 * holds a newer statement of the same subject than the memory (the fact changed after the memory last
 * did: promotion was off, or the new statement was tied to a moment and stayed in the session). Newer
 * evidence only: a memory changed since the fact is left alone.
 */
import type { LongTermMemory } from '../../core/long-term-memory.js';
import { memoryValueOf, restates, subjectOf } from '../../core/promotion.js';
import { contradiction } from '../../core/memory-comparison.js';
import { quoted } from '../../core/text.js';
import type { Fact } from '../../core/types.js';
import type { MaintenanceAgent, PlannedAction } from './agent.js';

/** The session's fact about the memory's subject: under the same subject, or under its base (`goal` for `goal-2`). */
function factAbout(memory: LongTermMemory, facts: readonly Fact[]): Fact | undefined {
  const subject = memory.subject ?? '';
  const exact = facts.find((fact) => subjectOf(fact.key) === subject);
  if (exact !== undefined) return exact;
  const base = /^(.+)-(?:[2-9]|10)$/u.exec(subject)?.[1];
  return base === undefined ? undefined : facts.find((fact) => subjectOf(fact.key) === base);
}

export const localCorrector: MaintenanceAgent = {
  name: 'corrector',
  async plan(memories, context) {
    const actions: PlannedAction[] = [];
    for (const memory of memories) {
      const source = memory.sources.at(-1);
      if (memory.subject === null || source === undefined) continue;
      const fact = factAbout(memory, await context.sessionFacts(source.sessionId));
      if (fact === undefined || fact.updatedAt <= memory.modifiedAt) continue;
      const value = memoryValueOf(fact.text);
      if (value === memory.value || (restates(value, memory.value) && contradiction(value, memory.value) === null)) continue;
      actions.push({
        kind: 'revise',
        memoryIds: [memory.id],
        version: memory.version,
        value,
        reason: `newer evidence: session ${source.sessionId}, turn ${String(fact.updatedTurn)} says ${quoted(fact.text, 80)}`,
      });
    }
    return actions;
  },
};
