import { describe, expect, it } from 'vitest';

import { Conversation } from './conversation.js';

describe('a value changed by someone, said in passing', () => {
  it('"the committee has agreed to bring the full-plot rent down to £48" is the rent, not the committee', async () => {
    const conversation = new Conversation();
    await conversation.say({ user: 'The rent went through at £52 after a lot of grumbling.', assistant: 'Noted.' });
    const { events } = await conversation.say({
      user: "Big news: Fola's grant came through! She and Keith redid the numbers, and the committee has agreed to bring the full-plot rent down to £48 instead, halves £24, and refund the difference.",
      assistant: 'Wonderful.',
    });
    expect(conversation.facts.map((fact) => fact.text)).not.toContainEqual(expect.stringContaining('£52'));
    const update = events.find((event) => event.op === 'update');
    expect(update?.newText).toMatch(/^rent: £48/u);
    expect(update?.reason).toContain('bring the full-plot rent down to £48');
    expect(conversation.facts.map((fact) => fact.key)).not.toContain('committee');
  });

  it('"that\'s a crew of six" is about the crew, not the last person named', async () => {
    const conversation = new Conversation();
    await conversation.say({
      user: "I'm bringing on two seasonal guys: Sam Whitlock, who did a year of horticulture, and Jordan Reyes. So that's a crew of six once they start in April.",
      assistant: 'Big season!',
    });
    expect(conversation.facts.find((fact) => fact.text.includes('crew of six'))?.key).toBe('crew');
  });
});
