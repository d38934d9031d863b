import { describe, expect, it } from 'vitest';

import { Conversation } from './conversation.js';

/** The texts of a conversation's facts after `setup` and then `said`, and those marked as possibly replacing another. */
async function after(setup: string, said: string): Promise<{ texts: string[]; doubted: string[] }> {
  const conversation = new Conversation();
  await conversation.say({ user: setup, assistant: 'Noted.' });
  await conversation.say({ user: said, assistant: 'Noted.' });
  return {
    texts: conversation.facts.map((fact) => fact.text),
    doubted: conversation.facts.filter((fact) => fact.mayReplace !== undefined).map((fact) => fact.text),
  };
}

describe('rules that must not reach too far', () => {
  it('"I\'ve dropped Sam a message" and "I should have cancelled it ages ago" drop nothing', async () => {
    const sam = await after('Sam is our photographer, £900 for the day.', "I've dropped Sam a message about the timings.");
    expect(sam.texts).toContainEqual(expect.stringContaining('£900'));
    const gym = await after('The gym membership is £40 a month.', 'I should have cancelled the gym membership ages ago, honestly.');
    expect(gym.texts).toContainEqual(expect.stringContaining('£40 a month'));
  });

  it('"Forget Tom" keeps what Tom signed off, and "Forget Jess" the lift she gave: a person goes only from a line that chose them', async () => {
    const tom = await after('We got sign-off from Tom on Friday for the new logo.', 'Forget Tom, he is not invited to the party.');
    expect(tom.texts).toContainEqual(expect.stringContaining('sign-off from Tom'));
    const jess = await after('I got a lift from Jess to the station on Monday, which saved the taxi fare.', 'Forget Jess, she is being difficult.');
    expect(jess.texts).toContainEqual(expect.stringContaining('lift from Jess'));
  });

  it('a count "now" of another thing is no new value of the count said as a change before', async () => {
    const fete = await after('For the fete we are down to 3 volunteers now.', "I checked the fundraising total, it's 450 now.");
    expect(fete.texts).toContainEqual(expect.stringContaining('3 volunteers'));
  });

  it('a choice made "over Zoom" weighs nothing against Zoom', async () => {
    const zoom = await after('Priya meets us over Zoom on Mondays.', 'We went with Soar Valley Skips in the end, they can do the survey over Zoom.');
    expect(zoom.texts).toContainEqual(expect.stringContaining('Zoom on Mondays'));
  });

  it('close amounts of two small sums, and a noun that only starts like a verb, tie nothing', async () => {
    const pay = await after('The rent is £1,450 a month.', 'Actually my take-home pay is now £1,500 a month.');
    expect(pay.doubted).toEqual([]);
    const meeting = await after('Our flight departs Gatwick at 6am on Friday.', 'The department meeting has been moved to Thursday.');
    expect(meeting.doubted).toEqual([]);
  });
});
