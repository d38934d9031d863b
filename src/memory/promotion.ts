/**
 * Promotion: a session's standing facts become the tenant's long-term memories (`core/promotion.ts`
 * decides which). Each promoted memory names its subject (the fact's key), so a later statement about it,
 * in this session or another, revises that memory as a new version with the reason, never a second
 * memory; a fact taken back in the session it came from deprecates it. Runs on a turn's fact events inside
 * the transaction that writes them, so the memory and the document change together.
 */
import { mergeSources, type LongTermMemory, type MemorySource } from '../core/long-term-memory.js';
import { aboutWords, memoryValueOf, promotionOf, restates, subjectOf, type Promotion } from '../core/promotion.js';
import type { FactEvent, FactKind } from '../core/types.js';
import type { TenantRepositories } from '../store/store.js';

export interface PromotionContext {
  now: () => string;
  newId: () => string;
}

const KIND_WORDS: Readonly<Record<FactKind, string>> = {
  exception: 'a standing rule',
  constraint: 'a standing rule',
  preference: 'a preference',
  goal: 'a long-lived goal',
  fact: 'a fact about the user',
};

function sourceOf(event: FactEvent): MemorySource[] {
  return event.sourceMessageIds.length === 0 ? [] : [{ sessionId: event.sessionId, messageIds: [...event.sourceMessageIds] }];
}

function cameFrom(memory: LongTermMemory, sessionId: string): boolean {
  return memory.sources.some((source) => source.sessionId === sessionId);
}

/** Where an event's change came from, for a version's reason. */
function origin(event: FactEvent): string {
  return `session ${event.sessionId}, turn ${String(event.turn)}`;
}

/** An added or updated fact: a new memory, or the next version of the memory about its subject. */
async function promoteStatement(repositories: TenantRepositories, event: FactEvent, text: string, context: PromotionContext): Promise<void> {
  const subject = subjectOf(event.key);
  if (subject === '') return;
  const promotion = promotionOf({ key: event.key, kind: event.kind, text });
  const existing = (await repositories.longTerm.find({ subject })) ?? (promotion === null ? null : await restated(repositories, promotion));
  if (existing === null) {
    if (promotion === null) return;
    const at = context.now();
    const memory = await repositories.longTerm.create({
      memory: { id: context.newId(), name: null, subject, value: promotion.value, sources: sourceOf(event), at },
      by: 'system',
      reason: `promoted from ${origin(event)}: ${KIND_WORDS[event.kind]}`,
    });
    await repositories.longTerm.tag({ id: memory.id, tags: [promotion.tag], by: 'system', at });
    return;
  }
  // A statement that does not stand on its own changes the memory only as a correction in a session it came from.
  if (promotion === null && !(event.op === 'update' && cameFrom(existing, event.sessionId))) return;
  const value = memoryValueOf(text);
  const sources = sourceOf(event);
  if (value === existing.value && !existing.deprecated) return;
  const correction = event.op === 'update' && existing.subject === subject;
  const how = correction ? `corrected in ${origin(event)}: ${event.reason.replace(/^turn \d+: /u, '')}` : `restated in ${origin(event)}`;
  await repositories.longTerm.revise({ id: existing.id, value, deprecated: false, sources: mergeSources([], sources), by: 'system', reason: how, at: context.now() });
}

/** A current memory with the same broad tag that the promoted statement restates under another subject, if any. */
async function restated(repositories: TenantRepositories, promotion: Promotion): Promise<LongTermMemory | null> {
  const candidates = await repositories.longTerm.search({ terms: [...aboutWords(promotion.value).content], limit: 5 });
  for (const candidate of candidates) {
    if (candidate.subject === null || !restates(candidate.value, promotion.value)) continue;
    const tags = await repositories.longTerm.tags({ id: candidate.id });
    if (tags.some((tag) => tag.tag === promotion.tag)) return candidate;
  }
  return null;
}

/** A fact taken back in the session its memory came from: the memory is deprecated (kept, with its history). */
async function retract(repositories: TenantRepositories, event: FactEvent, context: PromotionContext): Promise<void> {
  const subject = subjectOf(event.key);
  if (subject === '' || event.oldText === null) return;
  const existing = await repositories.longTerm.find({ subject });
  if (existing === null || existing.deprecated || !cameFrom(existing, event.sessionId) || existing.value !== memoryValueOf(event.oldText)) return;
  await repositories.longTerm.revise({
    id: existing.id,
    deprecated: true,
    by: 'system',
    reason: `taken back in ${origin(event)}: ${event.reason.replace(/^turn \d+: /u, '')}`,
    at: context.now(),
  });
}

/**
 * Promote what a turn's fact events establish, in their order (call inside the transaction that writes
 * them). Consolidations restate facts and are left out; so are events without a fact.
 */
export async function promoteFactEvents(repositories: TenantRepositories, events: readonly FactEvent[], context: PromotionContext): Promise<void> {
  for (const event of events) {
    if (event.factId === null) continue;
    if ((event.op === 'add' || event.op === 'update') && event.newText !== null) await promoteStatement(repositories, event, event.newText, context);
    else if (event.op === 'remove') await retract(repositories, event, context);
  }
}
