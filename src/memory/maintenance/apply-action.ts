/**
 * Carrying out a maintenance action as its agent (`agent:<name>`), as a run applies it or as a person
 * approves it. What the agent read must still hold: a memory revised or deprecated since is left as it is,
 * and a tag goes only on memories still current.
 */
import type { MemoryAuthor } from '../../core/long-term-memory.js';
import type { MaintenanceAction } from '../../core/maintenance-run.js';
import type { LongTermRepository } from '../../store/long-term-store.js';

/** Apply the action (call it inside one transaction); why it could not be, or null when it was. */
export async function applyAction(repository: LongTermRepository, action: MaintenanceAction, at: string): Promise<string | null> {
  const by: MemoryAuthor = `agent:${action.agent}`;
  const [id = ''] = action.memoryIds;
  switch (action.kind) {
    case 'flag':
      return null;
    case 'tag': {
      let tagged = 0;
      for (const memoryId of action.memoryIds) {
        const memory = await repository.get({ id: memoryId });
        if (memory === null || memory.deprecated) continue;
        await repository.tag({ id: memoryId, tags: action.tags ?? [], by, at });
        tagged += 1;
      }
      return tagged > 0 ? null : 'every memory it would tag is gone or deprecated';
    }
    case 'link':
      return (await repository.link({ edge: { fromId: id, toId: action.toId ?? '', type: action.edgeType ?? 'relates-to', by, at, reason: action.reason } })) ? null : 'a memory it links is gone';
    case 'revise':
    case 'deprecate': {
      const memory = await repository.get({ id });
      if (memory === null) return 'the memory is gone';
      if (action.version !== undefined && memory.version !== action.version) {
        return `${memory.key} changed after the ${action.agent} read it (version ${String(action.version)}, now ${String(memory.version)}): left as it is`;
      }
      if (action.kind === 'deprecate' && memory.deprecated) return `${memory.key} is deprecated already`;
      const change = action.kind === 'deprecate' ? { deprecated: true } : action.value === undefined ? {} : { value: action.value };
      await repository.revise({ id, ...change, by, reason: action.reason, at });
      return null;
    }
  }
}
