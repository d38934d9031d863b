/** The memory inspector: the base truth, its history, the turn log, the context package and the eval. */
import { useState } from 'preact/hooks';
import type { SessionState } from '../session-data.js';
import { ContextView } from './context-view.js';
import { EvalView } from './eval-view.js';
import { FactsView } from './facts-view.js';
import { TimelineView } from './timeline-view.js';
import { TurnLogView } from './turn-log-view.js';

const TABS = [
  ['facts', 'Facts'],
  ['timeline', 'Timeline'],
  ['turns', 'Turn log'],
  ['context', 'Context'],
  ['eval', 'Eval'],
] as const;

type Tab = (typeof TABS)[number][0];

interface Props {
  sessionId: string | null;
  state: SessionState;
  onJump(messageId: string): void;
  onChanged(): Promise<void>;
  onError(message: string): void;
}

export function Inspector({ sessionId, state, onJump, onChanged, onError }: Props) {
  const [tab, setTab] = useState<Tab>('facts');
  const needsSession = tab !== 'eval';
  return (
    <section class="inspector" aria-label="Memory inspector">
      <div class="tabs" role="tablist" aria-label="Inspector views">
        {TABS.map(([name, label]) => (
          <button
            key={name}
            type="button"
            role="tab"
            id={`tab-${name}`}
            aria-selected={tab === name}
            aria-controls="inspector-panel"
            tabIndex={tab === name ? 0 : -1}
            onClick={() => setTab(name)}
            onKeyDown={(event) => {
              const here = TABS.findIndex(([candidate]) => candidate === tab);
              const moves: Record<string, number> = { ArrowRight: here + 1, ArrowLeft: here - 1 + TABS.length, Home: 0, End: TABS.length - 1 };
              const target = moves[event.key];
              if (target === undefined) return;
              event.preventDefault();
              const next = TABS[target % TABS.length];
              if (next === undefined) return;
              setTab(next[0]);
              document.getElementById(`tab-${next[0]}`)?.focus();
            }}
          >
            {label}
          </button>
        ))}
      </div>
      <div class="tab-panel" role="tabpanel" id="inspector-panel" aria-labelledby={`tab-${tab}`}>
        {needsSession && sessionId === null ? (
          <p class="muted">Choose a session to see its memory.</p>
        ) : tab === 'eval' ? (
          <EvalView onError={onError} />
        ) : sessionId === null || state.data === null ? (
          <p class="muted">{state.error ?? 'Loading…'}</p>
        ) : tab === 'context' ? (
          <ContextView sessionId={sessionId} data={state.data} onJump={onJump} onError={onError} />
        ) : state.data.memory === null ? (
          <p class="muted">Loading the memory…</p>
        ) : tab === 'facts' ? (
          <FactsView sessionId={sessionId} data={state.data} memory={state.data.memory} onJump={onJump} onChanged={onChanged} onError={onError} />
        ) : tab === 'timeline' ? (
          <TimelineView sessionId={sessionId} data={state.data} memory={state.data.memory} onJump={onJump} onChanged={onChanged} onError={onError} />
        ) : (
          <TurnLogView memory={state.data.memory} onJump={onJump} />
        )}
      </div>
    </section>
  );
}
