/**
 * A live chat with memory: set STRATA_CHAT_MODEL (and STRATA_CHAT_BASE_URL, STRATA_CHAT_API_KEY for
 * endpoints other than OpenAI), optionally STRATA_MEMORY_MODEL for model-written memory, then run it
 * after `npm run build` with: node dist/examples/chat.js
 */
import { createMemory, isStrataError } from '../src/index.js';

const memory = createMemory({ path: ':memory:' });
try {
  const session = await memory.sessions.create({ title: 'Trip planning' });
  for (const message of ['We fly to Lisbon on June 3, and I never take red-eye flights.', 'Which flights should I look at?']) {
    const stream = session.chat(message, { stream: true, budget: 4000 });
    process.stdout.write(`you> ${message}\nassistant> `);
    for await (const text of stream) process.stdout.write(text);
    const turn = await stream.result;
    process.stdout.write(`\n[turn ${turn.turn}: ${turn.contextTokens} context tokens${turn.staleMemory ? ', stale memory' : ''}]\n`);
    const remembered = await turn.memory;
    if (remembered.problem !== null) process.stdout.write(`(memory: ${remembered.problem})\n`);
  }
  for (const fact of await session.facts()) console.log(`- ${fact.text} (turn ${fact.updatedTurn})`);
} catch (error) {
  if (isStrataError(error, 'MODEL_NOT_CONFIGURED')) console.error(error.message);
  else throw error;
} finally {
  await memory.close();
}
