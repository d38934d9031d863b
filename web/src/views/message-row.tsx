/** One message of the transcript: who said it, when, its text, its tool calls, and on request its tiers. */
import type { Message } from '../api/types.js';
import { formatMoment, formatNumber } from '../format.js';

/** A transcript row: a stored message, or the turn being written now. */
export type TranscriptRow =
  | { kind: 'message'; message: Message }
  | { kind: 'pending'; id: string; role: 'user' | 'assistant'; text: string; note: string };

const ROLE_NAMES = { user: 'You', assistant: 'Assistant', tool: 'Tool' } as const;

interface Props {
  row: TranscriptRow;
  highlighted: boolean;
  expanded: boolean;
  /** Figures of the context the turn's reply was written from, when this page sent it. */
  context: { tokens: number; budget: number } | undefined;
  onToggle(id: string): void;
}

function Tiers({ message }: { message: Message }) {
  return (
    <dl class="tiers">
      {([1, 2, 3] as const).map((tier) => (
        <div key={tier} class={message.requiredTier === tier ? 'required' : undefined}>
          <dt>
            Tier {tier} · {formatNumber(message.tokens[`tier${tier}`])} tokens{message.requiredTier === tier ? ' · required' : ''}
          </dt>
          <dd>{(tier === 1 ? message.tier1 : tier === 2 ? message.tier2 : message.content) || <span class="muted">(empty: the assembler shows tier 2)</span>}</dd>
        </div>
      ))}
    </dl>
  );
}

export function MessageRow({ row, highlighted, expanded, context, onToggle }: Props) {
  if (row.kind === 'pending') {
    return (
      <article class={`message ${row.role}`} aria-busy="true" data-message-id={row.id}>
        <header>
          <span class="who">{ROLE_NAMES[row.role]}</span>
          <span class="muted small">{row.note}</span>
        </header>
        <div class="content">{row.text || '…'}</div>
      </article>
    );
  }
  const { message } = row;
  return (
    <article class={`message ${message.role}${highlighted ? ' highlighted' : ''}`} data-message-id={message.id} aria-current={highlighted ? 'true' : undefined} tabIndex={-1}>
      <header>
        <span class="who">{message.speaker ?? ROLE_NAMES[message.role]}</span>
        <span class="muted small">
          turn {message.turn}
          {message.sentAt !== null ? ` · ${formatMoment(message.sentAt)}` : ''}
        </span>
        {context !== undefined && (
          <span class="badge" title="Tokens of the context package this reply was written from, and its budget">
            context {formatNumber(context.tokens)} / {formatNumber(context.budget)}
          </span>
        )}
        <button type="button" class="link small" aria-expanded={expanded} onClick={() => onToggle(message.id)}>
          {expanded ? 'Hide tiers' : 'Tiers'}
        </button>
      </header>
      {message.content !== '' && <div class="content">{message.content}</div>}
      {message.toolCalls?.map((call) => (
        <div key={call.id} class="tool-call small">
          called <code>{call.name}({call.arguments})</code>
        </div>
      ))}
      {expanded && <Tiers message={message} />}
    </article>
  );
}
