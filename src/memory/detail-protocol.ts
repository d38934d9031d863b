/**
 * What the chat model is told of the detail protocol, as a system message after the memory: how to ask
 * for a message in full and how to search older turns, how messages are named, and how many asks it has.
 */
import type { ChatMessage } from '../core/types.js';

export interface DetailProtocolOptions {
  /** Asks left in this turn (the message is not sent when none are). */
  roundsLeft: number;
  /** `markers` (default): asks written in the reply; `tools`: the `request_tier` and `search_episodic` tools. */
  form?: 'markers' | 'tools';
}

const NAMING =
  'Name a message by its turn and role as its line shows it: "[turn 12] user:" is 12u, "[turn 12] assistant:" is 12a, a tool result is 12t; a second message of the same role in a turn adds its count (12a2).';

export function detailProtocolMessage(options: DetailProtocolOptions): ChatMessage {
  const asks = options.roundsLeft === 1 ? 'once' : `up to ${options.roundsLeft} times`;
  if (options.form === 'tools') {
    return {
      role: 'system',
      content: [
        `Lines of earlier turns above are often shortened. When the answer needs more than they show, you may call request_tier (a message in full, tier 3, or as a brief summary, tier 2) or search_episodic (every older message of this conversation), ${asks} in this reply, instead of guessing.`,
        NAMING,
        'The context above is then built again with what you asked for. Ask only when it matters; otherwise answer directly.',
      ].join('\n'),
    };
  }
  return {
    role: 'system',
    content: [
      'Lines of earlier turns above are often shortened. When the answer needs more than they show, you may ask, ' + asks + ' in this reply, instead of guessing:',
      `- [REQUEST_TIER:3:12u] shows a message in full (tier 3; tier 2 is a brief summary). ${NAMING}`,
      '- [SEARCH_EPISODIC: words to look for] searches every older message of this conversation.',
      'Write only the request, then stop: the conversation comes back with what you asked for. The user never sees these requests. Ask only when it matters; otherwise answer directly.',
    ].join('\n'),
  };
}
