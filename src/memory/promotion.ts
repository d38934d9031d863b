/**
 * Promotion: a session's standing facts become the tenant's long-term memories (`core/promotion.ts`
 * decides which). Each promoted memory names its subject (the fact's key), so a later statement about it,
 * in this session or another, revises that memory as a new version with the reason, never a second
 * memory; a fact taken back in the session it came from deprecates it. Runs on a turn's fact events inside
 * the transaction that writes them, so the memory and the document change together.
 */
import type { LongTermMemory, MemorySource } from '../core/long-term-memory.js';
import { aboutWords, memoryValueOf, promotionOf, restates, saysChange, subjectOf, type Promotion } from '../core/promotion.js';
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

/** Subjects a key may take: its own, then numbered ones (`goal`, `goal-2` …) when conversations use it for different things. */
const SUBJECT_VARIANTS = 10;

/**
 * The memories under a subject and its numbered variants: the one this session's facts made (`own`), the
 * first (`first`), and the first free variant (`free`, null when all are taken).
 */
async function subjectFamily(repositories: TenantRepositories, subject: string, sessionId: string): Promise<{ own: LongTermMemory | null; first: LongTermMemory | null; free: string | null }> {
  let first: LongTermMemory | null = null;
  for (let number = 1; number <= SUBJECT_VARIANTS; number += 1) {
    const variant = number === 1 ? subject : `${subject}-${String(number)}`;
    const memory = await repositories.longTerm.find({ subject: variant });
    if (memory === null) return { own: null, first, free: variant };
    if (cameFrom(memory, sessionId)) return { own: memory, first, free: null };
    first ??= memory;
  }
  return { own: null, first, free: null };
}

/** A new memory for a promoted statement, linked to the memory another conversation holds under its key, if any. */
async function makeMemory(repositories: TenantRepositories, event: FactEvent, promotion: Promotion, subject: string, sibling: LongTermMemory | null, context: PromotionContext): Promise<void> {
  const at = context.now();
  const memory = await repositories.longTerm.create({
    memory: { id: context.newId(), name: null, subject, value: promotion.value, sources: sourceOf(event), at },
    by: 'system',
    reason: `promoted from ${origin(event)}: ${KIND_WORDS[event.kind]}`,
  });
  await repositories.longTerm.tag({ id: memory.id, tags: [promotion.tag], by: 'system', at });
  if (sibling !== null) {
    const reason = `both said under "${event.key}" in different conversations, neither saying it changes the other`;
    await repositories.longTerm.link({ edge: { fromId: memory.id, toId: sibling.id, type: 'relates-to', by: 'system', at, reason } });
  }
}

/**
 * An added or updated fact: the next version of the memory it continues, or a new memory. It continues
 * the memory its own session made under its key; another conversation's memory under the key only when it
 * restates it or says it changes it ("I'm charging €75 now"); else a memory that restates it under another key.
 */
async function promoteStatement(repositories: TenantRepositories, event: FactEvent, text: string, context: PromotionContext): Promise<void> {
  const subject = subjectOf(event.key);
  if (subject === '') return;
  const promotion = promotionOf({ key: event.key, kind: event.kind, text });
  // A statement that does not stand on its own changes a memory only as a correction of its own session's: most facts end here, unread.
  if (promotion === null && event.op !== 'update') return;
  const family = await subjectFamily(repositories, subject, event.sessionId);
  if (promotion === null) {
    if (family.own !== null) await continueMemory(repositories, family.own, event, text, context);
    return;
  }
  const continued = family.first !== null && (restates(family.first.value, text) || saysChange(text)) ? family.first : null;
  const existing = family.own ?? continued ?? (await restated(repositories, promotion));
  if (existing !== null) await continueMemory(repositories, existing, event, text, context);
  else if (family.free !== null) await makeMemory(repositories, event, promotion, family.free, family.first, context);
}

/** The memory's next version with the statement's text: a correction when its own session updated the fact, else a restatement. */
async function continueMemory(repositories: TenantRepositories, existing: LongTermMemory, event: FactEvent, text: string, context: PromotionContext): Promise<void> {
  const value = memoryValueOf(text);
  if (value === existing.value && !existing.deprecated) return;
  const correction = event.op === 'update' && cameFrom(existing, event.sessionId);
  const how = correction ? `corrected in ${origin(event)}: ${event.reason.replace(/^turn \d+: /u, '')}` : `restated in ${origin(event)}`;
  await repositories.longTerm.revise({ id: existing.id, value, deprecated: false, sources: sourceOf(event), by: 'system', reason: how, at: context.now() });
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
  const existing = (await subjectFamily(repositories, subject, event.sessionId)).own;
  if (existing === null || existing.deprecated || existing.value !== memoryValueOf(event.oldText)) return;
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
