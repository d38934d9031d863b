/**
 * The `long-term` section of a context package: what the tenant's other conversations established that
 * bears on this one, within its share of the budget, each line with its key, its reason and its messages.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMemory } from '../../src/memory/create-memory.js';
import type { Memory } from '../../src/memory/memory-api.js';

describe('the long-term section of a package', () => {
  let memory: Memory;
  let earlier: string;
  let earlierMessages: string[];
  beforeEach(async () => {
    memory = createMemory({ path: ':memory:', env: {}, durability: 'normal' });
    const session = await memory.sessions.create({ title: 'Proofs' });
    const first = await session.record({ user: 'Never schedule anything on a Saturday, ever. My rate is €65 an hour.', assistant: 'Noted.' });
    await session.record({ user: 'Also, I prefer short paragraphs to bullet points.', assistant: 'Got it.' });
    earlier = session.id;
    earlierMessages = first.messageIds;
  });
  afterEach(async () => {
    await memory.close();
  });

  it('shows another conversation’s memories that bear on the query, with key, reason and source messages, and marks them accessed', async () => {
    const later = await memory.sessions.create({ title: 'New client' });
    await later.record({ user: 'Rachel from Brightwater wants a kickoff call.', assistant: 'When would suit you?' });
    const pkg = await later.context({ budget: 2_000, query: 'Can we schedule the kickoff call on Saturday?' });
    const section = pkg.sections.find((entry) => entry.name === 'long-term');
    const saturday = await memory.memories.list().then((all) => all.find((held) => held.value.includes('Saturday')));
    expect(section?.items.map((item) => item.text)).toEqual([`- ${saturday!.key}: schedule: Never schedule anything on a Saturday, ever (shares "schedule", "saturday" with the query)`]);
    expect(section?.items[0]?.kind).toBe('memory');
    expect(section?.items[0]?.sourceMessageIds).toEqual([earlierMessages[0]]);
    expect(pkg.tokens).toBeLessThanOrEqual(2_000);
    expect(pkg.render()[0]?.content).toContain('## From long-term memory (earlier conversations; key, then why it is here)');
    expect((await memory.memories.get(saturday!.key)).accessedAt).not.toBeNull();
    // Without a query, the user's newest message is what it is searched for.
    await later.record({ user: 'What hourly rate should I quote Rachel?', assistant: 'Let me check.' });
    const plain = await later.context({ budget: 2_000 });
    const rate = await memory.memories.list().then((all) => all.find((held) => held.subject === 'rate'));
    expect(plain.sections.find((entry) => entry.name === 'long-term')?.items.map((item) => item.text)).toEqual([`- ${rate!.key}: rate: €65 an hour (shares "hourly", "rate" with the query)`]);
  });

  it('leaves the section out in the conversation the memories came from, and when nothing bears on the query', async () => {
    const own = await (await memory.sessions.open(earlier)).context({ budget: 2_000, query: 'Saturday schedule?' });
    expect(own.sections.map((entry) => entry.name)).not.toContain('long-term');
    const later = await memory.sessions.create({ title: 'Weather' });
    await later.record({ user: 'Will it rain in Lisbon?', assistant: 'Probably.' });
    const pkg = await later.context({ budget: 2_000, query: 'umbrella needed tomorrow?' });
    expect(pkg.sections.map((entry) => entry.name)).not.toContain('long-term');
  });

  it('keeps to its share of the budget, listing the memories that did not fit as omitted', async () => {
    const later = await memory.sessions.create({ title: 'Drafts' });
    await later.record({ user: 'Draft the note.', assistant: 'Done.' });
    const pkg = await later.context({ budget: 200, query: 'short paragraphs or bullet points on Saturday schedule, and what rate per hour?' });
    const section = pkg.sections.find((entry) => entry.name === 'long-term');
    expect(section?.tokens ?? 0).toBeLessThanOrEqual(20);
    expect(pkg.omitted.some((omission) => /^long-term memory M\w+ did not fit the section's share of the budget$/u.test(omission.reason))).toBe(true);
    expect(pkg.tokens).toBeLessThanOrEqual(200);
  });
});
