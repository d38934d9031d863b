import { afterEach, describe, expect, it } from 'vitest';
import { parseLocomo, type LocomoSample } from '../../../src/eval/locomo/dataset.js';
import { recordedScript, splitSentences } from '../../../src/eval/locomo/recorded.js';
import { dialogueContent, replayConversation, replayTurns, type ReplayedConversation } from '../../../src/eval/locomo/replay.js';
import { createRecordedMemoryManager } from '../../../src/managers/recorded/index.js';
import { miniLocomo } from './fixtures.js';

function mini(): LocomoSample {
  const sample = parseLocomo(miniLocomo()).samples[0];
  if (sample === undefined) throw new Error('no sample');
  return sample;
}

describe('dialogueContent', () => {
  it('appends a shared image as [shares <caption>]', () => {
    expect(dialogueContent({ text: 'Here she is.', imageCaption: 'a photo of a cat' })).toBe('Here she is. [shares a photo of a cat]');
    expect(dialogueContent({ text: '  ', imageCaption: 'a photo of a cat' })).toBe('[shares a photo of a cat]');
    expect(dialogueContent({ text: 'Hi!', imageCaption: null })).toBe('Hi!');
  });
});

describe('replayTurns', () => {
  it('pairs a user message with the reply after it, within a session; a session opening with speaker_b starts alone', () => {
    const turns = replayTurns(mini());
    expect(turns.map((turn) => [turn.session, turn.messages.map((message) => `${message.role}:${message.diaId}`)])).toEqual([
      [1, ['user:D1:1', 'assistant:D1:2']],
      [1, ['user:D1:3']],
      [2, ['assistant:D2:1']],
      [2, ['user:D2:2', 'assistant:D2:3']],
    ]);
    expect(turns[2]?.timestamp).toBe('2023-06-27T10:05:00.000Z');
  });
});

describe('replayConversation', () => {
  let replayed: ReplayedConversation | undefined;
  afterEach(async () => {
    await replayed?.close();
    replayed = undefined;
  });

  it('stores every dialogue with its speaker, role and session time, and maps message ids to dia_ids both ways', async () => {
    const sample = mini();
    replayed = await replayConversation(sample, { manager: createRecordedMemoryManager({ turns: recordedScript(sample).turns }) });
    const messages = await replayed.session.messages();
    expect(messages.map((message) => [message.turn, message.role, message.speaker, message.content, message.createdAt])).toEqual([
      [1, 'user', 'Ann', 'I adopted a grey cat named Miso last week.', '2023-05-08T13:56:00.000Z'],
      [1, 'assistant', 'Bob', 'Lovely! I still paint every Sunday.', '2023-05-08T13:56:00.000Z'],
      [2, 'user', 'Ann', 'Here she is. [shares a photo of a grey cat on a sofa]', '2023-05-08T13:56:00.000Z'],
      [3, 'assistant', 'Bob', 'I finished my lake painting yesterday.', '2023-06-27T10:05:00.000Z'],
      [4, 'user', 'Ann', 'Congrats! Miso knocked over my plant pot.', '2023-06-27T10:05:00.000Z'],
      [4, 'assistant', 'Bob', 'Cats will be cats. I am visiting Oslo in 2024.', '2023-06-27T10:05:00.000Z'],
    ]);
    expect(messages.map((message) => replayed?.diaIdOf.get(message.id))).toEqual(['D1:1', 'D1:2', 'D1:3', 'D2:1', 'D2:2', 'D2:3']);
    for (const message of replayed.messages) expect(replayed.messageIdOf.get(message.diaId)).toBe(message.messageId);
    // The engine renders the speaker into the text of the window.
    const pkg = await replayed.session.context({ budget: 4000 });
    expect(pkg.render().at(-1)).toEqual({ role: 'assistant', content: 'Bob: Cats will be cats. I am visiting Oslo in 2024.' });
  });

  it('gives the same ids, memory and package in every run, so published figures reproduce', async () => {
    const sample = mini();
    const runs: unknown[] = [];
    for (let run = 0; run < 2; run += 1) {
      const replay = await replayConversation(sample);
      try {
        const pkg = await replay.session.context({ budget: 300, query: 'What is the name of the cat?' });
        runs.push({ messages: await replay.session.messages(), facts: await replay.session.facts(), events: await replay.session.factEvents(), pkg: pkg.toJSON() });
      } finally {
        await replay.close();
      }
    }
    expect(runs[1]).toEqual(runs[0]);
    // The session takes the first id; messages, facts and events take theirs in the order they are made.
    const ids = (runs[0] as { messages: Array<{ id: string }> }).messages.map((message) => message.id);
    expect(ids.slice(0, 2)).toEqual(['m-00000002', 'm-00000003']);
    expect(ids.every((id) => /^m-\d{8}$/u.test(id))).toBe(true);
  });
});

describe('recordedScript', () => {
  it('places observations in the turn of their last evidence and session summaries in the session’s last turn', () => {
    const script = recordedScript(mini());
    expect(script.turns.map((turn) => (turn.facts ?? []).map((fact) => [fact.text.slice(0, 24), fact.sources]))).toEqual([
      [
        ['Ann adopted a grey cat n', ['D1:1']],
        ['Bob paints every Sunday.', ['D1:2']],
      ],
      [['Ann and Bob talked on 8 ', ['D1:1', 'D1:2', 'D1:3']]],
      [['Bob finished a lake pain', ['D2:1']]],
      [
        ['Bob plans to visit Oslo ', ['D1:2', 'D2:3']],
        ['Miso knocked over a plan', ['D2:2']],
        ['Bob finished a lake pain', ['D2:1', 'D2:2', 'D2:3']],
      ],
    ]);
    expect(script).toMatchObject({ observationFacts: 5, sessionSummaryFacts: 2, skippedObservations: 0 });
    expect(script.turns[3]?.facts?.[2]).toEqual({
      text: 'Bob finished a lake painting. Ann told him about Miso and the plant pot. Bob will visit Oslo in 2024.',
      kind: 'fact',
      key: 'locomo session summary 2 1',
      sources: ['D2:1', 'D2:2', 'D2:3'],
    });
    // A one-source observation is also its message's tier 2 and its side of the turn summary.
    expect(script.turns[0]).toMatchObject({
      userSummary: 'Ann adopted a grey cat named Miso.',
      assistantSummary: 'Bob paints every Sunday.',
      messages: [
        { externalId: 'D1:1', tier2: 'Ann adopted a grey cat named Miso.', requiredTier: 2 },
        { externalId: 'D1:2', tier2: 'Bob paints every Sunday.', requiredTier: 2 },
      ],
    });
    expect(script.turns[1]?.userSummary).toBeUndefined();
    expect(script.turns[1]?.messages[0]?.tier2).toBe('');
  });

  it('splits long summaries at sentences within the fact limit', () => {
    expect(splitSentences('One two. Three four five. Six!', 12)).toEqual(['One two.', 'Three four…', 'five. Six!']);
    expect(splitSentences('One two. Three.', 100)).toEqual(['One two. Three.']);
  });
});
