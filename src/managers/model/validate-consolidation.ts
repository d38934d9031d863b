/**
 * Validation of a consolidation proposal, all or nothing: a proposal with any problem is rejected whole
 * and the document stays as it was. Pure.
 */
import { checkGrounding } from '../../core/grounding.js';
import type { Fact, FactKind } from '../../core/types.js';
import type { ConsolidationChange, ConsolidationProposal } from '../consolidation.js';

export type ConsolidationValidation = { valid: true; changes: ConsolidationChange[] } | { valid: false; problems: string[] };

export interface ValidateConsolidationOptions {
  /** The document the proposal was made for. */
  facts: readonly Fact[];
  proposal: ConsolidationProposal;
  /** Longest accepted fact line in characters (default 500, the engine's limit). */
  maxTextLength?: number;
}

function tidy(text: string): string {
  return text.trim().replace(/\s+/gu, ' ');
}

/**
 * Check a proposal against the document: every id exists and is used once; no pinned exception is
 * removed, or merged or rewritten into another kind; every removal has a reason; every merged or
 * rewritten text is grounded in the facts it replaces (its numbers and names appear there) and is not
 * empty or too long. Returns the changes in the order remove → update → merge, or every problem found.
 */
export function validateConsolidation(options: ValidateConsolidationOptions): ConsolidationValidation {
  const maxLength = options.maxTextLength ?? 500;
  const byId = new Map(options.facts.map((fact) => [fact.id, fact]));
  const problems: string[] = [];
  const used = new Set<string>();

  /** The facts behind ids, noting unknown and repeated ids. */
  const resolve = (ids: readonly string[], where: string): Fact[] => {
    const found: Fact[] = [];
    for (const id of ids) {
      const fact = byId.get(id);
      if (fact === undefined) problems.push(`${where} names a fact that does not exist: ${id}`);
      else if (used.has(id)) problems.push(`${where} uses fact ${id} again; each fact may change once`);
      else found.push(fact);
      used.add(id);
    }
    return found;
  };

  /** The checked new text, or null after recording why it cannot be used. */
  const newText = (raw: string, sources: readonly Fact[], kind: FactKind, where: string): string | null => {
    const before = problems.length;
    const text = tidy(raw);
    if (text === '') problems.push(`${where} has an empty text`);
    else if (text.length > maxLength) problems.push(`${where} is ${text.length} characters; the limit is ${maxLength}`);
    const pinned = sources.filter((fact) => fact.pinned);
    if (pinned.length > 0 && kind !== 'exception') {
      problems.push(`${where} would turn pinned exception ${pinned.map((fact) => `"${fact.key}"`).join(', ')} into a ${kind}`);
    }
    const grounding = checkGrounding(text, sources.map((fact) => fact.text).join('\n'));
    if (text !== '' && !grounding.grounded) problems.push(`${where} is not grounded in the facts it replaces: ${grounding.missing.join(', ')} not found there`);
    return problems.length === before ? text : null;
  };

  const removals: ConsolidationChange[] = [];
  for (const [index, entry] of options.proposal.remove.entries()) {
    const where = `remove ${index + 1}`;
    const [fact] = resolve([entry.id], where);
    const reason = tidy(entry.reason);
    if (fact === undefined) continue;
    if (fact.pinned) problems.push(`${where} removes pinned exception "${fact.key}"; exceptions are never removed`);
    if (reason === '') problems.push(`${where} removes "${fact.key}" without a reason`);
    removals.push({ op: 'consolidate', factId: fact.id, key: fact.key, kind: fact.kind, oldText: fact.text, newText: null, reason, sourceMessageIds: fact.sourceMessageIds });
  }

  const updates: ConsolidationChange[] = [];
  for (const [index, entry] of options.proposal.update.entries()) {
    const where = `update ${index + 1}`;
    const [fact] = resolve([entry.id], where);
    if (fact === undefined) continue;
    const text = newText(entry.text, [fact], entry.kind, where);
    if (text === null || (text === fact.text && entry.kind === fact.kind)) continue;
    const reason = tidy(entry.reason) || 'restated';
    updates.push({ op: 'consolidate', factId: fact.id, key: fact.key, kind: entry.kind, oldText: fact.text, newText: text, reason, sourceMessageIds: fact.sourceMessageIds });
  }

  const merges: ConsolidationChange[] = [];
  for (const [index, entry] of options.proposal.merge.entries()) {
    const where = `merge ${index + 1}`;
    const facts = resolve(entry.ids, where);
    if (entry.ids.length < 2) problems.push(`${where} names ${entry.ids.length} fact; a merge joins two or more`);
    // Grounding is judged against the facts merged: only when every id names one.
    if (facts.length < 2 || facts.length < entry.ids.length) continue;
    const [survivor, ...merged] = facts;
    const text = newText(entry.text, facts, entry.kind, where);
    if (survivor === undefined || text === null) continue;
    const reason = tidy(entry.reason) || 'redundant facts';
    const sources = [...new Set(facts.flatMap((fact) => fact.sourceMessageIds))];
    merges.push({ op: 'consolidate', factId: survivor.id, key: survivor.key, kind: entry.kind, oldText: survivor.text, newText: text, reason: `merged ${facts.length} facts: ${reason}`, sourceMessageIds: sources });
    for (const fact of merged) {
      merges.push({ op: 'consolidate', factId: fact.id, key: fact.key, kind: fact.kind, oldText: fact.text, newText: null, reason: `merged into "${survivor.key}": ${reason}`, sourceMessageIds: fact.sourceMessageIds });
    }
  }

  return problems.length > 0 ? { valid: false, problems } : { valid: true, changes: [...removals, ...updates, ...merges] };
}
