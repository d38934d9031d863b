/**
 * The retention eval over the API: pick a shipped key-fact conversation or upload one, and see how much
 * of what mattered the package kept (and without its verbatim window), the stale claims it still makes,
 * and how much smaller it is than the conversation.
 */
import { useEffect, useState } from 'preact/hooks';
import { describeError } from '../api/api-error.js';
import { evalExamples, runEval } from '../api/strata-api.js';
import type { EvalExample, RetentionRun } from '../api/types.js';
import { formatNumber, formatPercent } from '../format.js';
import { FilePicker } from '../parts/file-picker.js';
import { EvalReport } from './eval-report.js';

export function EvalView({ onError }: { onError(message: string): void }) {
  const [examples, setExamples] = useState<EvalExample[] | null>(null);
  const [choice, setChoice] = useState('');
  const [run, setRun] = useState<RetentionRun | null>(null);
  const [running, setRunning] = useState<string | null>(null);

  useEffect(() => {
    evalExamples().then(
      (found) => {
        setExamples(found);
        setChoice((current) => current || (found[0]?.name ?? ''));
      },
      (error: unknown) => onError(describeError(error)),
    );
  }, [onError]);

  const start = (what: string, input: { example: string } | { conversation: unknown }): void => {
    setRunning(what);
    setRun(null);
    runEval(input)
      .then(setRun, (error: unknown) => onError(describeError(error)))
      .finally(() => setRunning(null));
  };

  const chosen = examples?.find((example) => example.name === choice);
  return (
    <div class="eval-view" aria-busy={running !== null}>
      <form
        class="eval-controls"
        onSubmit={(event) => {
          event.preventDefault();
          if (choice !== '') start(choice, { example: choice });
        }}
      >
        <label>
          Example conversation
          <select value={choice} onChange={(event) => setChoice(event.currentTarget.value)}>
            {(examples ?? []).map((example) => (
              <option key={example.name} value={example.name}>{example.name}</option>
            ))}
          </select>
        </label>
        <button type="submit" class="primary" disabled={running !== null || choice === ''}>Run</button>
        <FilePicker
          label="Upload a key-fact conversation…"
          accept=".json,application/json"
          disabled={running !== null}
          onFile={(file) => {
            file.text().then(
              (text) => {
                let conversation: unknown;
                try {
                  conversation = JSON.parse(text);
                } catch (error) {
                  onError(`${file.name} is not JSON: ${describeError(error)}`);
                  return;
                }
                start(file.name, { conversation });
              },
              (error: unknown) => onError(describeError(error)),
            );
          }}
        />
      </form>
      {chosen !== undefined && (
        <p class="muted small">
          {chosen.description} {formatNumber(chosen.turns)} turns, {formatNumber(chosen.keyFacts)} key facts, budget {formatNumber(chosen.budget)} tokens.
        </p>
      )}
      <p role="status">{running !== null && `Replaying ${running} into a scratch memory and scoring its package…`}</p>
      {run !== null && running === null && <EvalReport run={run} />}
      {run === null && running === null && <p class="muted">The run replays the conversation into a scratch memory (yours is not touched), builds its package at the file's budget and scores every key fact ({formatPercent(1)} is every fact kept in full).</p>}
    </div>
  );
}
