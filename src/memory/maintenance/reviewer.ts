/**
 * The local reviewer: reads each memory as a person tending them would and flags what needs one: a
 * memory contradicted by a current one, one that says too little without its conversation ("she said
 * no"), one with no tag (found only by its words), one not recalled for `STALE_DAYS` (is it still true?). The run marks every memory it examined as reviewed.
 */
import type { LongTermMemory } from '../../core/long-term-memory.js';
import { aboutWords } from '../../core/promotion.js';
import { cite, type AgentContext, type MaintenanceAgent, type PlannedAction } from './agent.js';

/** Days without being recalled after which a memory is asked about. */
export const STALE_DAYS = 90;

const DAY_MS = 86_400_000;

/** A statement opening on a word that points back into its conversation ("she said no", "that works"). */
const POINTS_BACK = /^(?:he|she|they|it|that|this|these|those|him|her|them)\b/iu;

/**
 * Why a memory leans on the conversation it came from, or null: its statement (after a promoted memory's
 * `key:`, a label the manager made) opens on a word pointing back, or holds one content word at most
 * ("would love that", "7 feet now"); a memory made by hand is read whole ("Garage door code: 4471").
 * Read alone in another conversation, it says too little.
 */
export function leansOnItsConversation(memory: Pick<LongTermMemory, 'value' | 'subject'>): string | null {
  const statement = memory.subject === null ? memory.value : memory.value.slice(memory.value.indexOf(':') + 1).trim();
  if (POINTS_BACK.test(statement)) return `leans on its conversation ("${statement.split(/\s+/u)[0] ?? ''}" refers to something it does not say): say who or what, or deprecate it`;
  if (aboutWords(statement).content.size < 2) return 'says too little to stand alone: add what it is about, or deprecate it';
  return null;
}

async function concerns(memory: LongTermMemory, context: AgentContext): Promise<string[]> {
  const found: string[] = [];
  for (const edge of await context.repository.edges({ id: memory.id })) {
    if (edge.type !== 'contradicts') continue;
    const other = await context.repository.get({ id: edge.fromId === memory.id ? edge.toId : edge.fromId });
    if (other !== null && !other.deprecated) found.push(`contradicts ${cite(other)}: keep one, or say which holds when`);
  }
  const leaning = leansOnItsConversation(memory);
  if (leaning !== null) found.push(leaning);
  if ((await context.repository.tags({ id: memory.id })).length === 0) found.push('has no tag: tag it so it can be found by tag');
  const staleBefore = Date.parse(context.now) - STALE_DAYS * DAY_MS;
  const lastUse = Date.parse(memory.accessedAt ?? memory.createdAt);
  if (lastUse < staleBefore) found.push(`not recalled for ${String(Math.floor((Date.parse(context.now) - lastUse) / DAY_MS))} days: is it still true?`);
  return found;
}

export const localReviewer: MaintenanceAgent = {
  name: 'reviewer',
  async plan(memories, context) {
    const actions: PlannedAction[] = [];
    for (const memory of memories) {
      const found = await concerns(memory, context);
      if (found.length > 0) actions.push({ kind: 'flag', memoryIds: [memory.id], reason: found.join('; ') });
    }
    return actions;
  },
};
