/**
 * A well-formed answer of the memory model, built from the exchange the request carries: summaries and
 * tiers cut from the messages, one fact line copied from the first message (so it is grounded) and, on
 * request, one entry the exchange does not support (a number and a name it never mentions).
 */
import { dataBlockOf } from '../test/support/request-data.js';
import type { RecordedRequest, ScriptedStep } from '../test/support/scripted-openai-server.js';

export interface ExchangeMessage {
  id: string;
  role: string;
  content: string;
}

/** The messages of the data block of a memory-model request (none when it has no data block, or no exchange in it). */
export function exchangeOf(request: RecordedRequest): ExchangeMessage[] {
  const data = dataBlockOf(request) as { exchange?: ExchangeMessage[] } | null;
  return data?.exchange ?? [];
}

/** The exchange's texts with whitespace collapsed: recognises one turn's requests, retries included. */
export function exchangeKey(contents: readonly string[]): string {
  return contents.map((content) => content.replace(/\s+/gu, ' ').trim()).join('\n');
}

function firstWords(text: string, limit: number): string {
  return text.split(/\s+/u).filter((word) => word !== '').slice(0, limit).join(' ');
}

function firstSentence(text: string): string {
  return firstWords(text.split(/(?<=[.?!])\s/u)[0] ?? text, 20);
}

/** The topic a message is about ("the billing service" gives "billing service"), else a generic key. */
function topicOf(text: string): string {
  return /\bthe ([a-z]+ [a-z]+)\b/u.exec(text)?.[1] ?? 'conversation';
}

/** The answer to a consolidation request (its data block has no exchange): nothing to merge, remove or rewrite. */
export const NO_CONSOLIDATION: ScriptedStep = { json: { merge: [], remove: [], update: [] } };

/** An entry no exchange of the generated conversation supports. */
const UNGROUNDED_ENTRY = { key: 'approved budget', text: 'approved budget: $987,654 signed off by Ingrid Halvorsen', kind: 'constraint' as const };

export function memoryAnswer(exchange: readonly ExchangeMessage[], options: { ungrounded: boolean }): ScriptedStep {
  const ids = exchange.map((message) => message.id);
  const side = (role: string): string => firstWords(exchange.filter((message) => message.role === role).map((message) => message.content).join(' '), 20);
  const first = exchange[0]?.content ?? '';
  const topic = topicOf(first);
  const add: Array<{ key: string; text: string; kind: 'fact' | 'constraint'; sourceMessageIds: string[] }> = [
    { key: topic, text: `${topic}: ${firstSentence(first)}`, kind: 'fact', sourceMessageIds: ids },
  ];
  if (options.ungrounded) add.push({ ...UNGROUNDED_ENTRY, sourceMessageIds: ids });
  return {
    json: {
      userSummary: side('user'),
      assistantSummary: side('assistant'),
      messages: exchange.map((message) => ({ id: message.id, tier1: `${topicOf(message.content)} = ${firstWords(message.content, 8)}`, tier2: firstSentence(message.content) })),
      diff: { add, update: [], remove: [] },
    },
  };
}
