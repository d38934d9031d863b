/**
 * The base truth, grouped by kind with pinned exceptions first: each fact with the turn and day it was
 * last established and the messages it came from. A slider shows the document as it stood after any
 * turn; at the latest turn the facts can be added to, corrected and removed (each with a reason).
 */
import { useEffect, useMemo, useState } from 'preact/hooks';
import { describeError } from '../api/api-error.js';
import { addFact, editFact, factsOf, removeFact } from '../api/strata-api.js';
import type { Fact } from '../api/types.js';
import { formatDay, plural } from '../format.js';
import { messageIndex, SourceLinks } from '../parts/source-links.js';
import type { SessionData, SessionMemory } from '../session-data.js';
import { FactEditor, KIND_ORDER } from './fact-editor.js';
import { ReasonForm } from './reason-form.js';

interface Props {
  sessionId: string;
  data: SessionData;
  memory: SessionMemory;
  onJump(messageId: string): void;
  onChanged(): Promise<void>;
  onError(message: string): void;
}

const KIND_HEADINGS: Readonly<Record<Fact['kind'], string>> = { exception: 'Exceptions', constraint: 'Constraints', goal: 'Goals', preference: 'Preferences', fact: 'Facts' };

type Editing = { mode: 'add' } | { mode: 'edit'; fact: Fact } | { mode: 'remove'; fact: Fact } | null;

function grouped(facts: readonly Fact[]): Array<[string, Fact[]]> {
  const pinned = facts.filter((fact) => fact.pinned);
  const groups: Array<[string, Fact[]]> = pinned.length > 0 ? [['Pinned exceptions', pinned]] : [];
  for (const kind of KIND_ORDER) {
    const ofKind = facts.filter((fact) => !fact.pinned && fact.kind === kind);
    if (ofKind.length > 0) groups.push([KIND_HEADINGS[kind], ofKind]);
  }
  return groups;
}

export function FactsView({ sessionId, data, memory, onJump, onChanged, onError }: Props) {
  const latest = memory.turns.at(-1)?.turn ?? 0;
  // null follows the latest turn: a new turn moves it along without closing an edit in progress.
  const [chosenTurn, setChosenTurn] = useState<number | null>(null);
  const atTurn = chosenTurn === null || chosenTurn >= latest ? latest : chosenTurn;
  const [past, setPast] = useState<{ turn: number; facts: Fact[] } | null>(null);
  const [editing, setEditing] = useState<Editing>(null);
  const messages = useMemo(() => messageIndex(data.messages), [data.messages]);
  const viewingPast = atTurn < latest;

  useEffect(() => {
    if (!viewingPast) return setPast(null);
    let live = true;
    // (A slider dragged across many turns asks once it rests.)
    const timer = setTimeout(() => factsOf(sessionId, atTurn).then((facts) => live && setPast({ turn: atTurn, facts }), (error: unknown) => live && onError(describeError(error))), 120);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [sessionId, atTurn, viewingPast, onError]);

  const facts = !viewingPast ? memory.facts : past?.turn === atTurn ? past.facts : null;
  const change = async (work: () => Promise<unknown>): Promise<boolean> => {
    try {
      await work();
      setEditing(null);
      await onChanged();
      return true;
    } catch (error) {
      onError(describeError(error));
      return false;
    }
  };

  return (
    <div class="facts-view">
      <div class="slider">
        <label for="fact-turn">
          {viewingPast ? `The document as it stood after turn ${atTurn}` : `Now (after turn ${latest})`} {facts === null ? ' · reading…' : ` · ${plural(facts.length, 'fact')}`}
        </label>
        <input id="fact-turn" type="range" min={latest === 0 ? 0 : 1} max={latest} value={atTurn} disabled={latest === 0} onInput={(event) => {
            const turn = Number(event.currentTarget.value);
            setChosenTurn(turn >= latest ? null : turn);
          }} aria-valuetext={`after turn ${atTurn}`} />
      </div>
      {!viewingPast && editing === null && (
        <button type="button" onClick={() => setEditing({ mode: 'add' })}>Add a fact</button>
      )}
      {editing?.mode === 'add' && (
        <FactEditor title="Add a fact" initial={{ text: '', kind: 'fact' }} submitLabel="Add" onCancel={() => setEditing(null)} onSubmit={(fact) => change(() => addFact(sessionId, fact))} />
      )}
      {facts?.length === 0 && <p class="muted">{viewingPast ? 'Nothing was established yet.' : 'No facts yet: they appear as the conversation establishes them.'}</p>}
      {grouped(facts ?? []).map(([heading, members]) => (
        <section key={heading} class="fact-group">
          <h2>{heading}</h2>
          <ul>
            {members.map((fact) => (
              <li key={fact.id} class="fact" data-fact-key={fact.key}>
                <div class="fact-text">{fact.text}</div>
                <div class="muted small">
                  turn {fact.updatedTurn}
                  {formatDay(fact.updatedAt) !== '' && ` · ${formatDay(fact.updatedAt)}`}
                  {fact.mayReplace !== undefined && <span class="badge warn"> may replace: {fact.mayReplace}</span>} · <SourceLinks ids={fact.sourceMessageIds} messages={messages} onJump={onJump} />
                </div>
                {!viewingPast && editing === null && (
                  <div class="row-actions">
                    <button type="button" aria-label={`Edit ${fact.key}`} onClick={() => setEditing({ mode: 'edit', fact })}>Edit</button>
                    <button type="button" aria-label={`Remove ${fact.key}`} onClick={() => setEditing({ mode: 'remove', fact })}>Remove</button>
                  </div>
                )}
                {editing?.mode === 'edit' && editing.fact.id === fact.id && (
                  <FactEditor title={`Edit ${fact.key}`} initial={fact} submitLabel="Save" onCancel={() => setEditing(null)} onSubmit={(edit) => change(() => editFact(sessionId, fact.id, edit))} />
                )}
                {editing?.mode === 'remove' && editing.fact.id === fact.id && (
                  <ReasonForm label={`Why remove ${fact.key}?`} submitLabel="Remove" onCancel={() => setEditing(null)} onSubmit={(reason) => change(() => removeFact(sessionId, fact.id, reason))} />
                )}
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}
