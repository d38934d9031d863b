/**
 * The local tagger: a memory without tags gets the broad tag its words say (`rules`, `preferences`,
 * `goals`, `profile`), and a tag holding more current memories than the setting allows is split into
 * subtags named by what their members are about (`core/tag-refinement.ts`), put on or held for approval;
 * a subtag a person rejected is not proposed again.
 */
import { broadTagOf } from '../../core/promotion.js';
import { refineTag } from '../../core/tag-refinement.js';
import { compareText } from '../../core/text.js';
import type { AgentContext, MaintenanceAgent, PlannedAction } from './agent.js';

/** Members of one tag read for refinement at most. */
const MEMBERS = 2_000;

async function broadTags(memories: Parameters<MaintenanceAgent['plan']>[0], context: AgentContext): Promise<PlannedAction[]> {
  const actions: PlannedAction[] = [];
  for (const memory of memories) {
    if ((await context.repository.tags({ id: memory.id })).length > 0) continue;
    const tag = broadTagOf(memory.value);
    if (tag !== null) actions.push({ kind: 'tag', memoryIds: [memory.id], tags: [tag], reason: `untagged: by its words it belongs under "${tag}"` });
  }
  return actions;
}

/** The ids of the memories holding some subtag of `tag` (`tag/…`), from the tag counts: one read per subtag. */
async function holdingSubtag(context: AgentContext, tag: string, counts: ReadonlyArray<{ tag: string }>): Promise<Set<string>> {
  const holders = new Set<string>();
  for (const { tag: held } of counts) {
    if (!held.startsWith(`${tag}/`)) continue;
    for (const memory of await context.repository.tagged({ tags: [held], limit: MEMBERS })) holders.add(memory.id);
  }
  return holders;
}

/** Runs looked back over for subtags a person turned down. */
const REJECTIONS_FROM_RUNS = 100;

/** Subtags a person rejected in recent runs: not proposed again. */
async function rejectedSubtags(context: AgentContext): Promise<Set<string>> {
  const rejected = new Set<string>();
  for (const run of await context.repository.runs({ limit: REJECTIONS_FROM_RUNS })) {
    for (const action of run.actions) if (action.kind === 'tag' && action.status === 'rejected') for (const tag of action.tags ?? []) rejected.add(tag);
  }
  return rejected;
}

async function subtags(context: AgentContext): Promise<PlannedAction[]> {
  const actions: PlannedAction[] = [];
  const counts = await context.repository.tagCounts();
  const rejected = await rejectedSubtags(context);
  for (const { tag, memories } of counts) {
    if (memories <= context.refineTagsAbove) continue;
    const holders = await holdingSubtag(context, tag, counts);
    // Oldest first, so a subtag lists its memories in the order they were made.
    const tagged = (await context.repository.tagged({ tags: [tag], limit: MEMBERS })).sort((left, right) => compareText(left.createdAt, right.createdAt) || compareText(left.id, right.id));
    const members = tagged.map((memory) => ({ id: memory.id, value: memory.value, placed: holders.has(memory.id) }));
    for (const subtag of refineTag(tag, members, context.refineTagsAbove)) {
      if (rejected.has(subtag.tag)) continue;
      actions.push({ kind: 'tag', memoryIds: subtag.memoryIds, tags: [subtag.tag], reason: subtag.reason, hold: context.tagRefinement === 'approve' });
    }
  }
  return actions;
}

export const localTagger: MaintenanceAgent = {
  name: 'tagger',
  async plan(memories, context) {
    return [...(await broadTags(memories, context)), ...(await subtags(context))];
  },
};
