import { describe, expect, it } from 'vitest';

import { Conversation } from './conversation.js';

describe('a choice dropped in passing', () => {
  it('"And forget Jess" drops the walker line that chose her, with a reason quoting the turn', async () => {
    const conversation = new Conversation();
    await conversation.say({ user: 'I found a walker, though, Jess from Paws on the Downs, lovely reviews, £14 a walk.', assistant: 'Lovely.' });
    const { events } = await conversation.say({
      user: 'The cap is now £150 a month. And forget Jess. My mum, Halina, will do Tuesdays and Thursdays at lunchtime.',
      assistant: 'That is a lovely solution.',
    });
    expect(conversation.facts.map((fact) => fact.text)).not.toContainEqual(expect.stringContaining('Jess'));
    const removal = events.find((event) => event.op === 'remove');
    expect(removal?.oldText).toContain('Jess from Paws on the Downs');
    expect(removal?.reason).toContain('forget Jess');
  });

  it('"Forget Tom, he\'s not invited" leaves the project lead Tom is: a person goes only as someone chosen', async () => {
    const conversation = new Conversation();
    await conversation.say({ user: 'Our project lead is Tom Baker.', assistant: 'Noted.' });
    await conversation.say({ user: 'The party is on Saturday 10 May at the boathouse.', assistant: 'Noted.' });
    await conversation.say({ user: "Forget Tom, he's not invited.", assistant: 'Understood.' });
    expect(conversation.facts.map((fact) => fact.text)).toContainEqual(expect.stringContaining('Tom Baker'));
  });

  it('"I\'ve cancelled the meet-and-greet" drops the booking', async () => {
    const conversation = new Conversation();
    await conversation.say({ user: "I've booked a meet-and-greet for the week he arrives.", assistant: 'Good idea.' });
    expect(conversation.facts.map((fact) => fact.text)).toContainEqual(expect.stringContaining('meet-and-greet'));
    await conversation.say({ user: "My mum will walk him instead. I've cancelled the meet-and-greet.", assistant: 'Noted.' });
    expect(conversation.facts.map((fact) => fact.text)).not.toContainEqual(expect.stringContaining('meet-and-greet'));
  });

  it('"The team lunch has been cancelled" still drops the lunch', async () => {
    const conversation = new Conversation();
    await conversation.say({ user: 'The Friday team lunch is at Dishoom, 1pm.', assistant: 'Noted.' });
    await conversation.say({ user: 'The team lunch has been cancelled.', assistant: 'Noted.' });
    expect(conversation.facts.map((fact) => fact.text)).not.toContainEqual(expect.stringContaining('Dishoom'));
  });
});
