import { EMPTY_DIFF, type FactDiff } from '../../src/core/diff.js';
import type { MemoryManager } from '../../src/managers/memory-manager.js';
import { createMemory } from '../../src/memory/create-memory.js';

/**
 * A deterministic memory manager for fixtures: it states the monthly budget at turn 1 and corrects it
 * at turn 3, so the CLI's `facts --at-turn` can be checked independently of the local manager's rules.
 */
export const budgetManager: MemoryManager = {
  name: 'fixture-manager',
  processTurn: async ({ turn, messages }) => {
    const user = messages.find((message) => message.role === 'user');
    const cite = user === undefined ? [] : [user.id];
    let diff: FactDiff = EMPTY_DIFF;
    if (turn === 1) diff = { add: [{ key: 'monthly budget', text: 'monthly budget: $900', kind: 'constraint', sourceMessageIds: cite }], update: [], remove: [] };
    if (turn === 3) diff = { add: [], update: [{ key: 'monthly budget', text: 'monthly budget: $1,200', kind: 'constraint', sourceMessageIds: cite }], remove: [] };
    return {
      messages: messages.map((message) => ({ messageId: message.id, tier1: message.content.slice(0, 40), tier2: message.content.slice(0, 80), requiredTier: 2 })),
      userSummary: user?.content.slice(0, 60) ?? '',
      assistantSummary: messages.find((message) => message.role === 'assistant')?.content.slice(0, 60) ?? '',
      depth: 'short',
      windowExtension: 0,
      diff,
      artifacts: [],
    };
  },
};

/** A session (title "Hosting plan") whose budget is stated at turn 1 and corrected at turn 3; returns its id. */
export async function createBudgetSession(path: string): Promise<string> {
  const memory = createMemory({ path, env: {}, manager: budgetManager });
  try {
    const session = await memory.sessions.create({ title: 'Hosting plan' });
    await session.record({ user: { content: 'Our hosting budget is $900 per month.' }, assistant: { content: 'Noted: $900 per month for hosting.' } });
    await session.record({ user: { content: 'We want to run the app in containers.' }, assistant: { content: 'Containers work well for that.' } });
    await session.record({ user: { content: 'Correction: the budget is now $1,200 per month.' }, assistant: { content: 'Updated: $1,200 per month.' } });
    await session.record({ user: { content: 'What should we do first?' }, assistant: { content: 'Start with the database migration plan.' } });
    return session.id;
  } finally {
    await memory.close();
  }
}
