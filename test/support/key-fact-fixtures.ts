/** Key-fact conversations written for tests (the shipped ones live in examples/conversations). */

/** A small key-fact conversation: a budget set, then corrected. */
export const VAN_HIRE = {
  id: 'van-hire',
  description: 'Booking a van for a house move.',
  budget: 400,
  messages: [
    { role: 'user', content: 'We are moving on Saturday 14 March and the van hire budget is £180.' },
    { role: 'assistant', content: 'Noted: moving on 14 March, £180 for the van.' },
    { role: 'user', content: 'Actually the budget went up to £220 because we need the bigger van.' },
    { role: 'assistant', content: 'Understood: £220 for the bigger van.' },
  ],
  keyFacts: [
    { id: 'budget', tier: 1, text: 'Van budget is £220', mustInclude: [['220']] },
    { id: 'date', tier: 2, text: 'Moving on 14 March', mustInclude: [['14 March', 'March 14']] },
  ],
  staleFacts: [{ id: 'old-budget', supersededBy: 'budget', text: 'Van budget is £180', mustInclude: [['180']] }],
};
