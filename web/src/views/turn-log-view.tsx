/** The turn log, newest first: one line per turn, its depth, its memory status and its size (virtualised: a long session has thousands). */
import { useMemo } from 'preact/hooks';
import type { TurnSummary } from '../api/types.js';
import { formatNumber } from '../format.js';
import { VirtualList } from '../parts/virtual-list.js';
import type { SessionMemory } from '../session-data.js';

function TurnRow({ turn, onJump }: { turn: TurnSummary; onJump(messageId: string): void }) {
  const first = turn.messageIds[0];
  return (
    <div class="turn-row">
      <button type="button" class="link" disabled={first === undefined} onClick={() => first !== undefined && onJump(first)} aria-label={`Show turn ${turn.turn} in the transcript`}>
        {turn.turn}
      </button>
      <div>
        <div>{turn.userSummary}</div>
        <div class="muted">{turn.assistantSummary}</div>
        {turn.detailRequests !== undefined && turn.detailRequests.length > 0 && (
          <div class="small">
            The model asked for:{' '}
            {turn.detailRequests.map((request) => (request.kind === 'tier' ? `${request.target} at tier ${request.tier ?? 3} (${request.outcome})` : `a search for “${request.target}” (${request.outcome})`)).join('; ')}
          </div>
        )}
        <div class="muted small">
          {turn.depth} · <span class={turn.status === 'summarised' ? undefined : 'warn'}>{turn.status}{turn.staleMemory === true ? ' (stale memory)' : ''}</span> · {formatNumber(turn.tokens)} tokens
        </div>
      </div>
    </div>
  );
}

export function TurnLogView({ memory, onJump }: { memory: SessionMemory; onJump(messageId: string): void }) {
  const newestFirst = useMemo(() => [...memory.turns].reverse(), [memory.turns]);
  if (newestFirst.length === 0) return <p class="muted">No turns yet.</p>;
  return (
    <VirtualList
      items={newestFirst}
      keyOf={(turn) => String(turn.turn)}
      estimate={72}
      label="Turn log, newest first"
      class="turn-log"
      renderItem={(turn) => <TurnRow turn={turn} onJump={onJump} />}
    />
  );
}
