/**
 * The local archiver: deprecates (never deletes) a memory that another current memory supersedes, by an
 * edge or by its words (a newer memory saying the same, or saying it changed, `core/memory-comparison.ts`),
 * and links the newer one `supersedes` the older. A person has the last word: a memory they restored
 * after the archiver deprecated it is left alone, and two memories already linked `supersedes` are only
 * read by that edge.
 */
import type { LongTermMemory, MemoryVersion } from '../../core/long-term-memory.js';
import { replacement } from '../../core/memory-comparison.js';
import { cite, type AgentContext, type MaintenanceAgent, type PlannedAction } from './agent.js';

/** Whether a person (or anyone but an agent) made it current again after the archiver deprecated it. */
function restoredByPerson(versions: readonly MemoryVersion[]): boolean {
  const archived = versions.findLastIndex((version) => version.by === 'agent:archiver' && version.deprecated);
  return archived !== -1 && versions.slice(archived + 1).some((version) => !version.by.startsWith('agent:') && !version.deprecated);
}

/** When the memory's value was last set (a deprecation or a restore leaves it as it was). */
function valueSetAt(versions: readonly MemoryVersion[]): string {
  let at = versions[0]?.at ?? '';
  for (let index = 1; index < versions.length; index += 1) {
    if (versions[index]?.value !== versions[index - 1]?.value) at = versions[index]?.at ?? at;
  }
  return at;
}

async function supersededByEdge(memory: LongTermMemory, context: AgentContext, superseding: readonly string[]): Promise<PlannedAction | null> {
  for (const id of superseding) {
    const newer = await context.repository.get({ id });
    if (newer !== null && !newer.deprecated) return { kind: 'deprecate', memoryIds: [memory.id], version: memory.version, reason: `superseded by ${cite(newer)}` };
  }
  return null;
}

async function replacedByNewer(memory: LongTermMemory, context: AgentContext, linked: ReadonlySet<string>, own: () => Promise<MemoryVersion[]>): Promise<PlannedAction[]> {
  for (const other of await context.similar(memory)) {
    if (linked.has(other.id)) continue;
    const why = replacement(other.value, memory.value);
    if (why === null) continue;
    if (valueSetAt(await context.repository.versions({ id: other.id })) <= valueSetAt(await own())) continue;
    return [
      { kind: 'link', memoryIds: [other.id], toId: memory.id, edgeType: 'supersedes', reason: `newer, and ${why}` },
      { kind: 'deprecate', memoryIds: [memory.id], version: memory.version, reason: `replaced by ${cite(other)}, which ${why}` },
    ];
  }
  return [];
}

async function planFor(memory: LongTermMemory, context: AgentContext): Promise<PlannedAction[]> {
  // Its versions are read once, and only when a rule needs them.
  let versions: Promise<MemoryVersion[]> | undefined;
  const own = (): Promise<MemoryVersion[]> => (versions ??= context.repository.versions({ id: memory.id }));
  const edges = (await context.repository.edges({ id: memory.id })).filter((edge) => edge.type === 'supersedes');
  if (edges.length > 0 && restoredByPerson(await own())) return [];
  const superseding = edges.filter((edge) => edge.toId === memory.id).map((edge) => edge.fromId);
  const byEdge = await supersededByEdge(memory, context, superseding);
  if (byEdge !== null) return [byEdge];
  const linked = new Set(edges.flatMap((edge) => [edge.fromId, edge.toId]));
  const byWords = await replacedByNewer(memory, context, linked, own);
  if (byWords.length > 0 && restoredByPerson(await own())) return [];
  return byWords;
}

export const localArchiver: MaintenanceAgent = {
  name: 'archiver',
  async plan(memories, context) {
    const actions: PlannedAction[] = [];
    const deprecated = new Set<string>();
    for (const memory of memories) {
      const planned = await planFor(memory, context);
      // A memory this run deprecates replaces nothing.
      if (planned.some((action) => action.kind === 'link' && deprecated.has(action.memoryIds[0] ?? ''))) continue;
      for (const action of planned) if (action.kind === 'deprecate') deprecated.add(action.memoryIds[0] ?? '');
      actions.push(...planned);
    }
    return actions;
  },
};
