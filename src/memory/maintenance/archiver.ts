/**
 * The local archiver: deprecates (never deletes) a memory that another current memory supersedes, by an
 * edge or by saying it again or saying it changed, and links the newer one `supersedes` the older. Only a
 * newer memory replaces an older one, and a duplicate only when it keeps every name, day and number.
 */
import { replacement } from '../../core/memory-comparison.js';
import { singularWord, type LongTermMemory } from '../../core/long-term-memory.js';
import { aboutWords } from '../../core/promotion.js';
import { cite, type AgentContext, type MaintenanceAgent, type PlannedAction } from './agent.js';

/**
 * Whether `newer` keeps every specific word of `older`: its names, days and numbers, and any content word
 * it writes with a capital even at the start of a sentence ("Ellie closes …").
 */
function keepsSpecifics(newer: string, older: string): boolean {
  const kept = aboutWords(newer).content;
  const { content, specific } = aboutWords(older);
  const capitalised = [...older.matchAll(/\p{Lu}[\p{L}\p{N}]*/gu)].map((match) => singularWord(match[0].toLowerCase())).filter((word) => content.has(word));
  return [...specific, ...capitalised].every((word) => kept.has(word));
}

function isNewer(memory: LongTermMemory, than: LongTermMemory): boolean {
  return memory.modifiedAt > than.modifiedAt;
}

async function supersededByEdge(memory: LongTermMemory, context: AgentContext): Promise<PlannedAction | null> {
  for (const edge of await context.repository.edges({ id: memory.id })) {
    if (edge.type !== 'supersedes' || edge.toId !== memory.id) continue;
    const newer = await context.repository.get({ id: edge.fromId });
    if (newer !== null && !newer.deprecated) return { kind: 'deprecate', memoryIds: [memory.id], reason: `superseded by ${cite(newer)}` };
  }
  return null;
}

async function replacedByNewer(memory: LongTermMemory, context: AgentContext): Promise<PlannedAction[]> {
  for (const other of await context.similar(memory)) {
    if (!isNewer(other, memory)) continue;
    const why = replacement(other.value, memory.value);
    if (why === null || (why === 'says the same' && !keepsSpecifics(other.value, memory.value))) continue;
    return [
      { kind: 'link', memoryIds: [other.id], toId: memory.id, edgeType: 'supersedes', reason: `newer, and ${why}` },
      { kind: 'deprecate', memoryIds: [memory.id], reason: `replaced by ${cite(other)}, which ${why}` },
    ];
  }
  return [];
}

export const localArchiver: MaintenanceAgent = {
  name: 'archiver',
  async plan(memories, context) {
    const actions: PlannedAction[] = [];
    const deprecated = new Set<string>();
    for (const memory of memories) {
      const byEdge = await supersededByEdge(memory, context);
      const planned = byEdge === null ? await replacedByNewer(memory, context) : [byEdge];
      // A memory this run deprecates replaces nothing.
      if (planned.some((action) => deprecated.has(action.memoryIds[0] ?? ''))) continue;
      for (const action of planned) if (action.kind === 'deprecate') deprecated.add(action.memoryIds[0] ?? '');
      actions.push(...planned);
    }
    return actions;
  },
};
