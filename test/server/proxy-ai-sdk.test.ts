import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, streamText, type ModelMessage } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { proxyRig, upstreamMessages, type ProxyRig } from './proxy-fixtures.js';

let made: ProxyRig | undefined;

afterEach(async () => {
  await made?.close();
  made = undefined;
});

function provider(rig: ProxyRig, session: string) {
  return createOpenAICompatible({ name: 'strata', baseURL: `${rig.server.url}/v1`, apiKey: rig.key, headers: { 'X-Strata-Session': session } });
}

async function messagesOf(rig: ProxyRig, sessionId: string, count: number): Promise<string[]> {
  for (let waited = 0; ; waited += 20) {
    const exists = (await rig.memory.sessions.list({ limit: 500 })).some((session) => session.id === sessionId);
    const messages = exists ? await (await rig.memory.sessions.open(sessionId)).messages() : [];
    if (messages.length >= count || waited > 10_000) return messages.map((message) => message.content);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('the proxy, used by the Vercel AI SDK unchanged', () => {
  it('generateText over 21 turns with the whole history resent each time: every turn stored once and in order', async () => {
    const replies = Array.from({ length: 21 }, (_, index) => `Answer ${index + 1}: noted for the garden plan.`);
    made = await proxyRig(replies.map((reply) => ({ reply })));
    const model = provider(made, 'garden').chatModel('scripted-model');
    const history: ModelMessage[] = [];
    const users: string[] = [];
    for (const [index, reply] of replies.entries()) {
      const user = index === 0 ? 'The raised beds are 1.2 m wide and the soil delivery comes on 2 April.' : `Step ${index + 1}: what do I plant in bed ${index + 1}?`;
      users.push(user);
      history.push({ role: 'user', content: user });
      const result = await generateText({ model, system: 'You are a gardening assistant.', messages: history });
      expect(result.text).toBe(reply);
      history.push({ role: 'assistant', content: reply });
    }
    expect(await messagesOf(made, 'garden', 42)).toEqual(users.flatMap((user, index) => [user, replies[index]]));
    const last = upstreamMessages(made.upstream, 20);
    expect(last[0]).toEqual({ role: 'system', content: 'You are a gardening assistant.' });
    expect(JSON.stringify(last)).toContain('1.2 m wide');
  });

  it('streamText streams the reply through and the turn is stored after it', async () => {
    made = await proxyRig([{ reply: 'Sow the carrots thinly in late March.' }]);
    const model = provider(made, 'carrots').chatModel('scripted-model');
    const result = streamText({ model, messages: [{ role: 'user', content: 'When do I sow carrots?' }] });
    let text = '';
    for await (const piece of result.textStream) text += piece;
    expect(text).toBe('Sow the carrots thinly in late March.');
    expect(await messagesOf(made, 'carrots', 2)).toEqual(['When do I sow carrots?', 'Sow the carrots thinly in late March.']);
  });
});
