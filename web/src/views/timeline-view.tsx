/** Every change of the base truth, newest first: what changed, who changed it, at which turn and why; undoable. */
import { useMemo, useState } from 'preact/hooks';
import { describeError } from '../api/api-error.js';
import { undoEvent } from '../api/strata-api.js';
import type { FactEvent } from '../api/types.js';
import { formatMoment } from '../format.js';
import { messageIndex, SourceLinks } from '../parts/source-links.js';
import type { SessionData, SessionMemory } from '../session-data.js';

interface Props {
  sessionId: string;
  data: SessionData;
  memory: SessionMemory;
  onJump(messageId: string): void;
  onChanged(): Promise<void>;
  onError(message: string): void;
}

const UNDOABLE: ReadonlySet<FactEvent['op']> = new Set(['add', 'update', 'remove', 'consolidate']);

function Change({ event }: { event: FactEvent }) {
  if (event.op === 'update' || event.op === 'consolidate') {
    return (
      <div class="change">
        <del>{event.oldText}</del> → <ins>{event.newText}</ins>
      </div>
    );
  }
  return <div class="change">{event.op === 'remove' ? <del>{event.oldText}</del> : event.newText ?? event.oldText}</div>;
}

export function TimelineView({ sessionId, data, memory, onJump, onChanged, onError }: Props) {
  const messages = useMemo(() => messageIndex(data.messages), [data.messages]);
  const events = useMemo(() => [...memory.events].reverse(), [memory.events]);
  // The event being undone: its button waits, so a second click does not send a second undo.
  const [undoing, setUndoing] = useState<string | null>(null);
  if (events.length === 0) return <p class="muted">No changes yet.</p>;
  return (
    <ol class="timeline">
      {events.map((event) => (
        <li key={event.id} class="event" data-op={event.op}>
          <div class="event-head">
            <span class={`op op-${event.op}`}>{event.op}</span>
            <strong>{event.key}</strong>
            <span class="muted small">
              turn {event.turn} · {event.actor} · {formatMoment(event.createdAt)}
            </span>
          </div>
          <Change event={event} />
          {event.reason !== '' && <div class="reason small">{event.reason}</div>}
          <div class="small">
            <SourceLinks ids={event.sourceMessageIds} messages={messages} onJump={onJump} />
            {UNDOABLE.has(event.op) && (
              <button
                type="button"
                class="link"
                aria-label={`Undo ${event.op} of ${event.key} at turn ${event.turn}`}
                disabled={undoing !== null}
                onClick={() => {
                  setUndoing(event.id);
                  undoEvent(sessionId, event.id)
                    .then(() => onChanged(), (error: unknown) => onError(describeError(error)))
                    .finally(() => setUndoing(null));
                }}
              >
                Undo
              </button>
            )}
          </div>
        </li>
      ))}
    </ol>
  );
}
