/**
 * A person correcting memory: adding a fact, editing one, or removing one, with a reason. Each is a fact
 * event with actor `user`, like any other change, so the document at any turn can still be replayed and
 * the edit undone. Pure: validates the request against the document and plans the event.
 */
import { StrataError } from './errors.js';
import { addedFact, revisedFact } from './diff.js';
import { factKey } from './text.js';
import { FACT_KINDS, type Fact, type FactEvent, type FactKind } from './types.js';

/** What a person asks to change. `fact` names the fact by its id, or by the id of an event that changed it. */
export type FactEditRequest =
  | { op: 'add'; text: string; kind?: FactKind; reason: string }
  | { op: 'edit'; fact: string; text?: string; kind?: FactKind; reason: string }
  | { op: 'remove'; fact: string; reason: string };

export interface PlanFactEditOptions {
  request: unknown;
  facts: readonly Fact[];
  events: readonly FactEvent[];
  sessionId: string;
  /** The turn the edit is recorded at (the session's latest turn). */
  turn: number;
  sequence: number;
  now: string;
  newId: () => string;
  /** Longest accepted fact line in characters (default 500, as for diffs). */
  maxTextLength?: number;
}

export interface FactEditPlan {
  event: FactEvent;
  upserts: Fact[];
  removedIds: string[];
}

/** The actor of every edit a person makes. */
export const USER_ACTOR = 'user';

function refuse(message: string): never {
  throw new StrataError('INVALID_INPUT', message);
}

function field(request: Record<string, unknown>, name: string): unknown {
  return Object.hasOwn(request, name) ? request[name] : undefined;
}

function reasonOf(request: Record<string, unknown>): string {
  const reason = field(request, 'reason');
  if (typeof reason !== 'string' || reason.trim() === '') refuse('A correction needs a reason a person can read (`reason` in the library, `--reason` in the CLI), e.g. "Maya corrected the budget on the call"; nothing was changed.');
  return reason.trim().replace(/\s+/gu, ' ');
}

function textOf(value: unknown, maxLength: number): string {
  if (typeof value !== 'string' || value.trim() === '') refuse('The fact text must be a non-empty string, e.g. "budget: $82,000"; nothing was changed.');
  const text = value.trim().replace(/\s+/gu, ' ');
  if (text.length > maxLength) refuse(`The fact text is ${text.length} characters; the limit is ${maxLength}. Shorten it; nothing was changed.`);
  if (factKey(text) === '') refuse(`The fact text "${text}" has no words to key it by; write it as "key: value"; nothing was changed.`);
  return text;
}

function kindOf(value: unknown, fallback: FactKind): FactKind {
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || !FACT_KINDS.includes(value as FactKind)) refuse(`The kind must be one of ${FACT_KINDS.join(', ')} (got ${JSON.stringify(value)}); nothing was changed.`);
  return value as FactKind;
}

/** The fact a request names: by its id, or by the id of an event that changed it. */
function targetOf(reference: unknown, facts: readonly Fact[], events: readonly FactEvent[]): Fact {
  if (typeof reference !== 'string' || reference.trim() === '') refuse('Name the fact to change by its id, or by the id of an event that changed it (see `strata facts <session> --json` or `--events --json`); nothing was changed.');
  const id = reference.trim();
  const direct = facts.find((fact) => fact.id === id);
  if (direct !== undefined) return direct;
  const event = events.find((candidate) => candidate.id === id);
  const viaEvent = event?.factId === null || event === undefined ? undefined : facts.find((fact) => fact.id === event.factId);
  if (viaEvent !== undefined) return viaEvent;
  if (event !== undefined) refuse(`Event ${id} changed a fact that is no longer in the document; nothing was changed.`);
  return refuse(`No fact or fact event ${id} in this session; list them with \`strata facts <session> --json\` or \`--events --json\`; nothing was changed.`);
}

/** Validate a person's correction and plan its event; throws INVALID_INPUT (and changes nothing) for a bad one. */
export function planFactEdit(options: PlanFactEditOptions): FactEditPlan {
  const { request } = options;
  if (typeof request !== 'object' || request === null) refuse('A correction is { op: "add" | "edit" | "remove", … }; nothing was changed.');
  const fields = request as Record<string, unknown>;
  const maxLength = options.maxTextLength ?? 500;
  const base = { id: options.newId(), sessionId: options.sessionId, sequence: options.sequence, turn: options.turn, actor: USER_ACTOR, createdAt: options.now, sourceMessageIds: [] };
  const op = field(fields, 'op');
  if (op === 'add') {
    const reason = reasonOf(fields);
    const text = textOf(field(fields, 'text'), maxLength);
    const kind = kindOf(field(fields, 'kind'), 'fact');
    const key = factKey(text);
    const taken = options.facts.find((fact) => fact.key === key);
    if (taken !== undefined) refuse(`The document already holds a fact under "${key}" (fact ${taken.id}: "${taken.text}"); edit that one instead; nothing was changed.`);
    const event = { ...base, factId: options.newId(), op: 'add' as const, key, kind, oldText: null, newText: text, reason };
    return { event, upserts: [addedFact(event, text)], removedIds: [] };
  }
  if (op === 'edit') {
    const target = targetOf(field(fields, 'fact'), options.facts, options.events);
    const reason = reasonOf(fields);
    const text = field(fields, 'text') === undefined ? target.text : textOf(field(fields, 'text'), maxLength);
    const kind = kindOf(field(fields, 'kind'), target.kind);
    if (text === target.text && kind === target.kind) refuse(`The edit changes nothing: fact ${target.id} already reads "${target.text}" (${target.kind}); nothing was changed.`);
    // The fact stays about the messages it came from; the event says a person changed its words.
    const event: FactEvent = { ...base, factId: target.id, op: 'update', key: target.key, kind, oldText: target.text, newText: text, reason, sourceMessageIds: target.sourceMessageIds };
    return { event, upserts: [revisedFact(target, event, text)], removedIds: [] };
  }
  if (op === 'remove') {
    const target = targetOf(field(fields, 'fact'), options.facts, options.events);
    const reason = reasonOf(fields);
    const event: FactEvent = { ...base, factId: target.id, op: 'remove', key: target.key, kind: target.kind, oldText: target.text, newText: null, reason };
    return { event, upserts: [], removedIds: [target.id] };
  }
  return refuse(`A correction's op must be "add", "edit" or "remove" (got ${JSON.stringify(op)}); nothing was changed.`);
}
