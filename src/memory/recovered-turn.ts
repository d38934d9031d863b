/**
 * A turn whose memory is recovered after later turns were written takes its place among them: its diff
 * is made against the document as it stood before the turn, and the document is then rebuilt from every
 * event in turn order, so it equals what it would be had the turn succeeded on time (the newest value a
 * later turn set stands).
 */
import { replayFactEvents } from '../core/diff.js';
import type { Fact } from '../core/types.js';
import type { TenantRepositories } from '../store/store.js';
import type { DerivedTurn } from './write-path.js';
import { loadMemoryState } from './write-path.js';
import type { MemoryState } from './memory-state.js';

/** The memory state a turn is derived against: the document as it stood before the turn, new events numbered after every stored one. */
export async function stateBeforeTurn(repositories: TenantRepositories, sessionId: string, turn: number): Promise<MemoryState> {
  const [state, events] = await Promise.all([loadMemoryState(repositories, sessionId), repositories.facts.listEvents({ sessionId })]);
  if (!events.some((event) => event.turn >= turn)) return state;
  return { ...state, facts: replayFactEvents(events, { atTurn: turn - 1 }) };
}

/**
 * The derived turn with the document changes that put its events in their place: every fact of the
 * document rebuilt from all events in turn order, and the facts it no longer holds removed. Unchanged
 * when no later turn has events.
 */
export async function rebased(repositories: TenantRepositories, derived: DerivedTurn): Promise<DerivedTurn> {
  const { sessionId, turn } = derived;
  const [stored, current] = await Promise.all([repositories.facts.listEvents({ sessionId }), repositories.facts.list({ sessionId })]);
  if (!stored.some((event) => event.turn > turn)) return derived;
  const rebuilt: Fact[] = replayFactEvents([...stored, ...derived.events]);
  const kept = new Set(rebuilt.map((fact) => fact.id));
  return { ...derived, upserts: rebuilt, removedIds: current.filter((fact) => !kept.has(fact.id)).map((fact) => fact.id) };
}
