/** The messages a line came from, as buttons that bring each into view in the transcript. */
import type { Message } from '../api/types.js';

const WHO = { user: 'user', assistant: 'assistant', tool: 'tool' } as const;

interface Props {
  ids: readonly string[];
  messages: ReadonlyMap<string, Message>;
  onJump(messageId: string): void;
}

export function SourceLinks({ ids, messages, onJump }: Props) {
  if (ids.length === 0) return null;
  return (
    <span class="sources">
      from{' '}
      {ids.map((id, index) => {
        const message = messages.get(id);
        return (
          <span key={id}>
            {index > 0 && ', '}
            <button type="button" class="link source-link" onClick={() => onJump(id)} disabled={message === undefined} title={message === undefined ? 'This message is no longer in the session' : message.content.slice(0, 200)}>
              {message === undefined ? 'a deleted message' : `turn ${message.turn} ${message.speaker ?? WHO[message.role]}`}
            </button>
          </span>
        );
      })}
    </span>
  );
}

/** Messages by id, for looking sources up. */
export function messageIndex(messages: readonly Message[]): Map<string, Message> {
  return new Map(messages.map((message) => [message.id, message]));
}
