/**
 * Record a few turns and build a budgeted context for the next model call.
 * Run it after `npm run build` with: node dist/examples/quick-start.js (or read it as documentation).
 */
import { createMemory } from '../src/index.js';

const memory = createMemory({ path: ':memory:' });
try {
  const session = await memory.sessions.create({ title: 'Kitchen renovation', instructions: 'You are a helpful renovation planner.' });
  await session.record({
    user: 'Our budget is €18,000 and the kitchen must be finished before June 1.',
    assistant: 'Noted: €18,000 and a June 1 deadline. Shall we start with the layout?',
  });
  await session.record({
    user: 'We must never use gas appliances; my partner has asthma.',
    assistant: 'Understood, induction and electric only.',
  });
  await session.record({
    user: 'Actually, the budget changed to €20,000 after the insurance payout.',
    assistant: 'Updated the plan to €20,000.',
  });

  const pkg = await session.context({ budget: 300, query: 'what appliances can we use?' });
  console.log(`${pkg.tokens} of ${pkg.budget} tokens`);
  for (const message of pkg.render()) console.log(`--- ${message.role}\n${message.content}`);
  for (const fact of await session.facts()) console.log(`${fact.kind}: ${fact.text} (from ${fact.sourceMessageIds.join(', ')})`);
} finally {
  await memory.close();
}
