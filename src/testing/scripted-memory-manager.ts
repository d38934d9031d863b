/**
 * A memory manager double for tests: each turn it proposes the facts a script gives (or a fallback), and
 * remembers the messages as they are. The engine validates its diffs as any manager's, so an entry that
 * is not grounded in its exchange is rejected and recorded, as it would be from a model.
 */
import { EMPTY_DIFF, type FactDiff } from '../core/diff.js';
import type { MemoryManager, ProcessTurnOptions, TurnFallback, TurnMemory } from '../managers/memory-manager.js';

/** What the manager proposes for one turn. */
export interface ScriptedTurn {
  /** The base-truth changes (entries without `sourceMessageIds` cite the whole exchange). */
  diff?: Partial<FactDiff>;
  /** Fall back to raw memory for the turn instead (no diff is applied; see `TurnFallback`). */
  fallback?: TurnFallback;
}

export interface ScriptedMemoryManagerOptions {
  /** Its name, the actor of the fact events it causes (default `scripted`). */
  name?: string;
}

/** The first `count` words of a text. */
function firstWords(text: string, count: number): string {
  const all = text.split(/\s+/u).filter((word) => word !== '');
  return all.length <= count ? all.join(' ') : `${all.slice(0, count).join(' ')} …`;
}

/**
 * A memory manager that proposes, for turn N, the N-th entry of `turns` (nothing once they run out), or
 * what a function of the turn returns.
 *
 * @example
 * const manager = createScriptedMemoryManager([{ diff: { add: [{ text: 'budget: $82,000', kind: 'constraint', sourceMessageIds: [] }] } }]);
 * const memory = createMemory({ path: ':memory:', manager });
 */
export function createScriptedMemoryManager(turns: readonly ScriptedTurn[] | ((turn: ProcessTurnOptions) => ScriptedTurn), options: ScriptedMemoryManagerOptions = {}): MemoryManager {
  return {
    name: options.name ?? 'scripted',
    processTurn: async (turn: ProcessTurnOptions): Promise<TurnMemory> => {
      const scripted = (typeof turns === 'function' ? turns(turn) : turns[turn.turn - 1]) ?? {};
      const side = (role: 'user' | 'assistant', count: number): string =>
        firstWords(turn.messages.filter((message) => message.role === role).map((message) => message.content).join(' '), count);
      return {
        messages: turn.messages.map((message) => ({ messageId: message.id, tier1: '', tier2: firstWords(message.content, 40), requiredTier: 2 })),
        userSummary: side('user', 25),
        assistantSummary: side('assistant', 30),
        depth: 'short',
        windowExtension: 0,
        diff: scripted.fallback === undefined ? { ...EMPTY_DIFF, ...scripted.diff } : EMPTY_DIFF,
        artifacts: [],
        ...(scripted.fallback === undefined ? {} : { fallback: scripted.fallback }),
      };
    },
  };
}
