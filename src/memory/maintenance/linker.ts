/**
 * The local linker: links a memory to others about the same thing, found by its words: `contradicts`
 * when they disagree (other numbers, or one denies the other, `core/memory-comparison.ts`), `relates-to`
 * when they share most of their words, or a name or a day. A pair already linked, either way, is left as it is.
 */
import type { LongTermMemory } from '../../core/long-term-memory.js';
import { compareStatements, contradiction, sameTopic } from '../../core/memory-comparison.js';
import { cite, type AgentContext, type MaintenanceAgent, type PlannedAction } from './agent.js';

/** New links made from a memory in a run, at most. */
const LINKS_PER_MEMORY = 3;

const pairKey = (left: string, right: string): string => (left < right ? `${left} ${right}` : `${right} ${left}`);

/** The link from `memory` to `other`, or null when they bear too little on each other. */
function linkBetween(memory: LongTermMemory, other: LongTermMemory): PlannedAction | null {
  const conflict = contradiction(memory.value, other.value);
  if (conflict !== null) return { kind: 'link', memoryIds: [memory.id], toId: other.id, edgeType: 'contradicts', reason: `${conflict}: ${cite(other)}` };
  const comparison = compareStatements(memory.value, other.value);
  if (!sameTopic(comparison) && !comparison.sharesSpecific) return null;
  return { kind: 'link', memoryIds: [memory.id], toId: other.id, edgeType: 'relates-to', reason: `both are about ${comparison.shared.slice(0, 4).join(', ')}` };
}

async function linksOf(memory: LongTermMemory, context: AgentContext, linked: Set<string>): Promise<PlannedAction[]> {
  const others = await context.similar(memory);
  if (others.length === 0) return [];
  for (const edge of await context.repository.edges({ id: memory.id })) linked.add(pairKey(edge.fromId, edge.toId));
  const links: PlannedAction[] = [];
  for (const other of others) {
    if (links.length === LINKS_PER_MEMORY) break;
    if (linked.has(pairKey(memory.id, other.id))) continue;
    const link = linkBetween(memory, other);
    if (link === null) continue;
    linked.add(pairKey(memory.id, other.id));
    links.push(link);
  }
  return links;
}

export const localLinker: MaintenanceAgent = {
  name: 'linker',
  async plan(memories, context) {
    const linked = new Set<string>();
    const actions: PlannedAction[] = [];
    for (const memory of memories) actions.push(...(await linksOf(memory, context, linked)));
    return actions;
  },
};
