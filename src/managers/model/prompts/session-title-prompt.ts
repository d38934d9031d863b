/**
 * The title prompt: the memory model names a conversation after its first exchange with a short noun
 * phrase. Instructions go in the system message, the exchange in the user message as one delimited JSON
 * document.
 */
import type { ChatMessage } from '../../../core/types.js';
import { DATA_RULE, dataBlock } from '../prompt-data.js';

export interface SessionTitlePromptInput {
  user: string;
  assistant: string;
}

/** Longest text of each side the prompt carries: the start of a conversation says what it is about. */
const MAX_SIDE_CHARACTERS = 2000;

const RULES: readonly string[] = [
  'You name a conversation from its first exchange, as a list of conversations would show it.',
  'Return one JSON object: {"title": "…"}. The title is a short noun phrase of 2 to 6 words naming what the conversation is about (for example "Kitchen renovation budget", "Flights to Lisbon in June"), at most 60 characters.',
  'No quotes, no final full stop, no "Conversation about" or "Help with". Keep names, places and dates as written; write in the language of the exchange.',
  DATA_RULE,
];

/** The title prompt for a conversation's first exchange. */
export function sessionTitlePrompt(input: SessionTitlePromptInput): ChatMessage[] {
  const data = { user: input.user.slice(0, MAX_SIDE_CHARACTERS), assistant: input.assistant.slice(0, MAX_SIDE_CHARACTERS) };
  return [
    { role: 'system', content: RULES.join('\n') },
    { role: 'user', content: `Name this conversation.\n${dataBlock(data)}` },
  ];
}
