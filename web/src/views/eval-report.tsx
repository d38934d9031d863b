/** A retention run drawn: the headline figures, key facts per tier as bars, tokens per conversation, and every fact. */
import type { ConversationRetention, RetentionRun } from '../api/types.js';
import { formatNumber, formatPercent } from '../format.js';
import { StackedBar } from '../parts/stacked-bar.js';

const STATUS_COLOURS = { preserved: '#2e8540', partial: '#e0a100', missing: '#c0392b' } as const;

function Figures({ run }: { run: RetentionRun }) {
  const stale = run.conversations.flatMap((conversation) => conversation.stale);
  const asserted = stale.filter((claim) => claim.asserted).length;
  return (
    <dl class="figures">
      <div><dt>Retention</dt><dd data-figure="retention">{run.meanScore.toFixed(3)}</dd></div>
      <div><dt>Memory only</dt><dd data-figure="memory-only">{run.memoryOnlyScore.toFixed(3)}</dd></div>
      <div><dt>Stale claims made</dt><dd data-figure="stale">{asserted} of {stale.length}</dd></div>
      <div><dt>Token reduction</dt><dd data-figure="reduction">{formatPercent(run.meanTokenReduction)}</dd></div>
    </dl>
  );
}

function Tokens({ conversation }: { conversation: ConversationRetention }) {
  const widest = Math.max(conversation.originalTokens, conversation.budget, 1);
  const rows = [
    ['context', conversation.contextTokens, '#1d4ed8'],
    ['budget', conversation.budget, '#9ca3af'],
    ['transcript', conversation.originalTokens, '#b45309'],
  ] as const;
  return (
    <div class="token-bars" role="img" aria-label={`${conversation.id}: context ${conversation.contextTokens} tokens, budget ${conversation.budget}, transcript ${conversation.originalTokens}`}>
      {rows.map(([name, value, colour]) => (
        <div key={name} class="token-bar">
          <span class="token-name">{name}</span>
          <span class="token-track"><span style={{ width: `${(value / widest) * 100}%`, background: colour }} /></span>
          <span class="number">{formatNumber(value)}</span>
        </div>
      ))}
    </div>
  );
}

export function EvalReport({ run }: { run: RetentionRun }) {
  return (
    <div class="eval-report">
      <Figures run={run} />
      <h2>Key facts per tier</h2>
      {run.byTier.filter((tier) => tier.facts > 0).map((tier) => (
        <div key={tier.tier}>
          <div class="small">tier {tier.tier} · {tier.facts} facts · score {tier.score.toFixed(3)}</div>
          <StackedBar label={`Tier ${tier.tier} key facts`} unit="facts" parts={(['preserved', 'partial', 'missing'] as const).map((status) => ({ name: status, value: tier[status], colour: STATUS_COLOURS[status] }))} />
        </div>
      ))}
      {run.conversations.map((conversation) => (
        <section key={conversation.id}>
          <h2>{conversation.id}: tokens</h2>
          <Tokens conversation={conversation} />
          <table class="fact-table">
            <caption>Every key fact of {conversation.id}</caption>
            <thead>
              <tr><th scope="col">Fact</th><th scope="col">Tier</th><th scope="col">Kept</th><th scope="col">Memory only</th><th scope="col">Found in</th></tr>
            </thead>
            <tbody>
              {conversation.facts.map((fact) => {
                const memoryOnly = conversation.memoryOnlyFacts.find((candidate) => candidate.id === fact.id);
                return (
                <tr key={fact.id}>
                  <td>{fact.text}</td>
                  <td>{fact.tier}</td>
                  <td class={`status-${fact.status}`}>{fact.status}</td>
                  <td class={`status-${memoryOnly?.status ?? 'missing'}`}>{memoryOnly?.status ?? '—'}</td>
                  <td class="small">{fact.bestItem === null ? '—' : `${fact.bestItem.section}: ${fact.bestItem.text.slice(0, 120)}`}</td>
                </tr>
                );
              })}
            </tbody>
          </table>
          {conversation.stale.length > 0 && (
            <ul class="stale-list">
              {conversation.stale.map((claim) => (
                <li key={claim.id} class={claim.asserted ? 'warn' : undefined}>{claim.asserted ? 'Still claims' : 'Dropped'}: {claim.text}</li>
              ))}
            </ul>
          )}
        </section>
      ))}
    </div>
  );
}
