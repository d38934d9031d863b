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

  it('"So scrap the part-ex" drops the one line whose key ends with it', async () => {
    const conversation = new Conversation();
    await conversation.say({ user: 'Brenton also matched the £1,100 part-ex on the Focus, so that is still the plan.', assistant: 'Good.' });
    expect(conversation.facts.map((fact) => fact.text)).toContainEqual(expect.stringContaining('£1,100 part-ex'));
    const { events } = await conversation.say({ user: "Ryan has offered £1,500 for it, which is £400 more than Brenton were giving. So scrap the part-ex, we're selling it to Ryan.", assistant: 'Nice.' });
    expect(conversation.facts.map((fact) => fact.text)).not.toContainEqual(expect.stringContaining('£1,100 part-ex'));
    expect(events.find((event) => event.op === 'remove')?.reason).toContain('scrap the part-ex');
  });

  it('"We went with Soar Valley Skips in the end, they were £30 cheaper than Hurst" drops the Hurst quote, and another Soar is no subject in common', async () => {
    const conversation = new Conversation();
    await conversation.say({
      user: "Fola found the Soar Community Chest form and it's up to £300 for community green spaces. Also the brambles will need a skip, and I've got a quote from Hurst Skips for a 6-yard one at £240.",
      assistant: 'Noted.',
    });
    const grant = conversation.facts.find((fact) => fact.text.includes('Soar Community Chest'));
    expect(conversation.facts.map((fact) => fact.text)).toContainEqual(expect.stringContaining('Hurst Skips'));
    await conversation.say({ user: 'We went with Soar Valley Skips in the end, they were £30 cheaper than Hurst and can do a bigger one.', assistant: 'Great.' });
    expect(conversation.facts.map((fact) => fact.text)).not.toContainEqual(expect.stringContaining('Hurst Skips'));
    expect(conversation.facts.find((fact) => fact.id === grant?.id)?.text).toContain('£300');
    expect(conversation.facts.filter((fact) => fact.mayReplace !== undefined)).toEqual([]);
  });

  it('a choice weighed against another it keeps ("still cheaper than Hurst") drops nothing', async () => {
    const conversation = new Conversation();
    await conversation.say({ user: "I've got a quote from Hurst Skips for a 6-yard one at £240.", assistant: 'Noted.' });
    await conversation.say({ user: 'We went with Soar Valley Skips for the hedge waste, and we are still keeping Hurst for the big clearance, they were cheaper than Hurst for small loads.', assistant: 'Noted.' });
    expect(conversation.facts.map((fact) => fact.text)).toContainEqual(expect.stringContaining('Hurst Skips'));
  });
});
