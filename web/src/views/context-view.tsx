/**
 * The context package for a budget and an optional query: the budget as a bar by section, every item
 * with its tokens, tier and sources, what was left out and why, and the exact messages the model gets.
 */
import { useEffect, useMemo, useState } from 'preact/hooks';
import { describeError } from '../api/api-error.js';
import { contextOf } from '../api/strata-api.js';
import type { ContextItem, ContextPackage } from '../api/types.js';
import { formatNumber, plural } from '../format.js';
import { messageIndex, SourceLinks } from '../parts/source-links.js';
import { StackedBar } from '../parts/stacked-bar.js';
import type { SessionData } from '../session-data.js';

const SECTION_COLOURS: Readonly<Record<string, string>> = {
  instructions: '#6b7280',
  pinned: '#b91c1c',
  'long-term': '#be185d',
  artifacts: '#7c3aed',
  facts: '#1d4ed8',
  window: '#047857',
  history: '#b45309',
  recalled: '#0e7490',
};

interface Props {
  sessionId: string;
  data: SessionData;
  onJump(messageId: string): void;
  onError(message: string): void;
}

function itemNote(item: ContextItem): string {
  const parts = [`${formatNumber(item.tokens)} tokens`];
  if (item.tier !== null) parts.push(`tier ${item.tier}`);
  else if (item.kind !== 'message') parts.push(item.kind);
  return parts.join(' · ');
}

function Sections({ pkg, data, onJump }: { pkg: ContextPackage; data: SessionData; onJump(messageId: string): void }) {
  const messages = useMemo(() => messageIndex(data.messages), [data.messages]);
  const empty = pkg.sections.filter((section) => section.items.length === 0).map((section) => section.name);
  return (
    <div class="package-sections">
      {empty.length > 0 && <p class="muted small">Empty: {empty.join(', ')}.</p>}
      {pkg.sections.filter((section) => section.items.length > 0).map((section) => (
        <details key={section.name} class="package-section" open={section.name !== 'history'}>
          <summary>
            <i style={{ background: SECTION_COLOURS[section.name] ?? '#999' }} aria-hidden="true" /> {section.name} · {plural(section.items.length, 'item')} · {formatNumber(section.tokens)} tokens
          </summary>
          <ul>
            {section.items.map((item, index) => (
              <li key={index}>
                <div class="item-text">{item.text}</div>
                <div class="muted small">
                  {itemNote(item)} <SourceLinks ids={item.sourceMessageIds} messages={messages} onJump={onJump} />
                </div>
              </li>
            ))}
          </ul>
        </details>
      ))}
    </div>
  );
}

export function ContextView({ sessionId, data, onJump, onError }: Props) {
  const [budget, setBudget] = useState(2000);
  const [query, setQuery] = useState('');
  const [pkg, setPkg] = useState<ContextPackage | null>(null);
  const [loading, setLoading] = useState(false);
  const sessionTokens = data.session.tokenCount;

  useEffect(() => {
    if (!Number.isSafeInteger(budget) || budget < 1) {
      setLoading(false);
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => {
      setLoading(true);
      contextOf(sessionId, budget, query, controller.signal)
        .then(setPkg, (error: unknown) => {
          if (controller.signal.aborted) return;
          // (An old package under a new budget would mislead: nothing is shown rather.)
          setPkg(null);
          onError(describeError(error));
        })
        .finally(() => !controller.signal.aborted && setLoading(false));
    }, 150);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [sessionId, budget, query, data.messages, onError]);

  const parts = (pkg?.sections ?? []).map((section) => ({ name: section.name, value: section.tokens, colour: SECTION_COLOURS[section.name] ?? '#999' }));
  const framing = pkg === null ? 0 : pkg.tokens - parts.reduce((sum, part) => sum + part.value, 0);
  return (
    <div class="context-view" aria-busy={loading}>
      <form class="context-controls" onSubmit={(event) => event.preventDefault()}>
        <label>
          Budget (tokens)
          <input type="number" min={1} step={100} value={budget} onInput={(event) => setBudget(Number(event.currentTarget.value))} />
        </label>
        <input type="range" aria-label="Budget" min={100} max={Math.max(4000, Math.min(64000, sessionTokens))} step={50} value={budget} onInput={(event) => setBudget(Number(event.currentTarget.value))} />
        <label>
          Query <span class="muted small">(what the next message is about; optional)</span>
          <input type="search" value={query} onInput={(event) => setQuery(event.currentTarget.value)} />
        </label>
      </form>
      {pkg !== null && (
        <>
          <p class="context-total">
            {formatNumber(pkg.tokens)} of {formatNumber(pkg.budget)} tokens · the whole session is {formatNumber(sessionTokens)} tokens
          </p>
          <StackedBar label="Budget by section" unit="tokens" total={pkg.budget} parts={framing > 0 ? [...parts, { name: 'framing', value: framing, colour: '#9ca3af' }] : parts} />
          {pkg.warnings.map((warning) => (
            <p key={warning} class="warn">{warning}</p>
          ))}
          <Sections pkg={pkg} data={data} onJump={onJump} />
          <details class="omitted">
            <summary>Left out · {plural(pkg.omitted.reduce((sum, omission) => sum + omission.messageCount, 0), 'message')}</summary>
            <ul>
              {pkg.omitted.map((omission, index) => (
                <li key={index}>
                  {omission.turns !== null ? `turns ${omission.turns.from}–${omission.turns.to}` : plural(omission.messageCount, 'message')}: {omission.reason}
                </li>
              ))}
            </ul>
          </details>
          <details class="rendered">
            <summary>What the model receives · {plural(pkg.messages.length, 'message')}</summary>
            {pkg.messages.map((message, index) => (
              <div key={index} class="rendered-message">
                <div class="muted small">{message.role}</div>
                <pre>{message.content}</pre>
              </div>
            ))}
          </details>
        </>
      )}
    </div>
  );
}
