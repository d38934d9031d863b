/** Check the base-truth document of a session against the messages its facts cite. */
import { checkGrounding } from '../src/core/grounding.js';
import type { SessionHandle } from '../src/memory/create-memory.js';

/** How many facts of the session's document name a number or a name their source messages do not contain. */
export async function countUngroundedFacts(session: SessionHandle): Promise<{ facts: number; ungrounded: number }> {
  const [facts, messages] = await Promise.all([session.facts(), session.messages()]);
  const contentOf = new Map(messages.map((message) => [message.id, message.content]));
  let ungrounded = 0;
  for (const fact of facts) {
    const source = fact.sourceMessageIds.map((id) => contentOf.get(id) ?? '').join('\n');
    if (!checkGrounding(fact.text, source).grounded) ungrounded += 1;
  }
  return { facts: facts.length, ungrounded };
}
