/**
 * The base-truth diff of a turn: statements become adds, updates of facts with the same key,
 * corrections (updates) and removals. Every line is checked against the exchange with the
 * engine's grounding rules before it is proposed.
 */
import type { DiffEntry, FactDiff, RemoveEntry } from '../../core/diff.js';
import { numbersIn, properNamesIn } from '../../core/grounding.js';
import { normalizeText } from '../../core/text.js';
import type { Fact, FactKind } from '../../core/types.js';
import type { AnalysedMessage } from './analysis.js';
import { correctionAction, displayKey, findTarget } from './corrections.js';
import type { KnownFact } from './corrections.js';
import { statementText } from './fact-extraction.js';
import type { Statement } from './fact-extraction.js';
import type { ResolvedSettings } from './settings.js';

export interface DiffInput {
  messages: readonly AnalysedMessage[];
  /** The statements of each message (same order as `messages`). */
  statements: readonly (readonly Statement[])[];
  facts: readonly Fact[];
  /** The size routing asked for a diff: every informative statement counts, not only strong cues. */
  full: boolean;
  settings: ResolvedSettings;
}

/** Longest fact line proposed (the engine rejects lines over 500 characters by default). */
const MAX_LINE_CHARACTERS = 400;

interface PendingLine {
  /** Normalised key. */
  key: string;
  keyText: string;
  text: string;
  kind: FactKind;
  sources: string[];
  weight: number;
  /** The document fact this line updates; null for an add. */
  targetId: string | null;
  /** The old line of the updated fact (grounding may use it, as the engine does). */
  targetText: string;
  order: number;
}

/** Grounding with the engine's rules, against a source whose numbers and words are computed once. */
class GroundingCheck {
  private readonly numbers: ReadonlySet<string>;
  private readonly text: string;

  constructor(source: string) {
    this.numbers = new Set(numbersIn(source));
    this.text = ` ${normalizeText(source)} `;
  }

  grounded(line: string, extra: string): boolean {
    const extraNumbers = extra === '' ? null : new Set(numbersIn(extra));
    const extraText = extra === '' ? '' : ` ${normalizeText(extra)} `;
    for (const number of numbersIn(line)) {
      if (!this.numbers.has(number) && extraNumbers?.has(number) !== true) return false;
    }
    for (const name of properNamesIn(line)) {
      const normalized = normalizeText(name);
      if (normalized === '') continue;
      if (!this.text.includes(` ${normalized} `) && !extraText.includes(` ${normalized} `)) return false;
    }
    return true;
  }
}

function allowsFacts(message: AnalysedMessage, policy: ResolvedSettings['assistantFacts']): boolean {
  if (message.message.role === 'user') return true;
  if (policy === 'always') return true;
  if (policy === 'never') return false;
  return message.message.speaker !== null;
}

/** A statement strong enough for a turn that gets no full diff: a cue, a correction, or a personal fact with a specific. */
function isStrong(statement: Statement): boolean {
  if (statement.kind !== 'fact') return true;
  if (statement.correction !== null || statement.removal !== null) return true;
  return statement.personal && statement.specifics.length > 0;
}

/** The statements of the turn, in order, that may change the document. */
function turnStatements(input: DiffInput): Statement[] {
  const statements: Statement[] = [];
  input.messages.forEach((message, index) => {
    if (message.smallTalk || !allowsFacts(message, input.settings.assistantFacts)) return;
    for (const statement of input.statements[index] ?? []) {
      if (input.full || isStrong(statement)) statements.push(statement);
    }
  });
  // A huge turn keeps its strongest statements (in their order), so the diff work stays bounded.
  const limit = Math.max(input.settings.maxFactsPerTurn * 10, 50);
  if (statements.length <= limit) return statements;
  const kept = new Set([...statements].sort((a, b) => b.weight - a.weight).slice(0, limit));
  return statements.filter((statement) => kept.has(statement));
}

/** Build the diff of a turn from its analysed messages and the document before the turn. */
export function buildDiff(input: DiffInput): FactDiff {
  const statements = turnStatements(input);
  if (statements.length === 0) return { add: [], update: [], remove: [] };
  const exchange = input.messages.map((message) => message.message.content).join('\n');
  const grounding = new GroundingCheck(exchange);

  const document = new Map<string, KnownFact>();
  for (const fact of input.facts) {
    document.set(fact.id, {
      id: fact.id,
      key: fact.key,
      keyText: displayKey(fact.key, fact.text),
      text: fact.text,
      kind: fact.kind,
      order: fact.updatedTurn,
      pending: false,
    });
  }
  const pending = new Map<string, PendingLine>();
  const removals: RemoveEntry[] = [];
  let order = 0;

  const known = (): KnownFact[] => [
    ...document.values(),
    ...[...pending.values()].map((line) => ({
      id: `pending:${line.key}`,
      key: line.key,
      keyText: line.keyText,
      text: line.text,
      kind: line.kind,
      order: Number.MAX_SAFE_INTEGER - 1_000_000 + line.order,
      pending: true,
    })),
  ];

  const propose = (line: Omit<PendingLine, 'order'>): void => {
    const previous = pending.get(line.key);
    // Within one turn the later line wins, but a pinned exception is never replaced by a weaker line.
    if (previous !== undefined && previous.kind === 'exception' && line.kind !== 'exception') return;
    order += 1;
    pending.set(line.key, { ...line, order, sources: [...new Set([...(previous?.sources ?? []), ...line.sources])] });
  };

  for (const statement of statements) {
    const sources = [statement.messageId];
    if (statement.correction !== null || statement.removal !== null) {
      const target = findTarget(statement, known());
      if (target !== null) {
        const action = correctionAction(statement, target);
        const line = target.pending ? pending.get(target.key) : undefined;
        if (line !== undefined) {
          if (action.type === 'remove') pending.delete(target.key);
          else propose({ ...line, text: action.text, kind: action.kind, sources, weight: statement.weight + 1 });
          continue;
        }
        if (action.type === 'remove') {
          if (!removals.some((entry) => entry.key === target.key)) {
            removals.push({ key: target.key, reason: action.reason, sourceMessageIds: sources });
          }
          document.delete(target.id);
          pending.delete(target.key);
          continue;
        }
        propose({
          key: target.key,
          keyText: target.keyText,
          text: action.text,
          kind: action.kind,
          sources,
          weight: statement.weight + 1,
          targetId: target.id,
          targetText: target.text,
        });
        continue;
      }
      // A correction or removal with nothing to correct is kept only if it says something itself.
      if (statement.keyless || (statement.kind === 'fact' && statement.specifics.length === 0)) continue;
      if (statement.removal !== null && statement.kind === 'fact') continue;
    }

    let key = normalizeText(statement.key);
    let keyText = statement.key;
    const existing = [...document.values()].find((fact) => fact.key === key);
    if (existing !== undefined && existing.kind === 'exception' && statement.kind !== 'exception') {
      // Never overwrite a pinned exception with a weaker line that happens to share its key.
      keyText = `${statement.key} ${statement.kind === 'fact' ? 'details' : statement.kind}`;
      key = normalizeText(keyText);
    }
    const target = existing !== undefined && existing.key === key ? existing : undefined;
    propose({
      key,
      keyText,
      text: statementText(keyText, statement.value),
      kind: statement.kind,
      sources,
      weight: statement.weight,
      targetId: target?.id ?? null,
      targetText: target?.text ?? '',
    });
  }

  const lines = [...pending.values()]
    .filter((line) => line.text.length <= MAX_LINE_CHARACTERS && grounding.grounded(line.text, line.targetText))
    .filter((line) => line.targetId === null || normalizeText(line.text) !== normalizeText(document.get(line.targetId)?.text ?? ''))
    .sort((a, b) => b.weight - a.weight || a.order - b.order)
    .slice(0, input.settings.maxFactsPerTurn)
    .sort((a, b) => a.order - b.order);

  const add: DiffEntry[] = [];
  const update: DiffEntry[] = [];
  for (const line of lines) {
    if (line.targetId !== null) update.push({ text: line.text, kind: line.kind, key: line.key, sourceMessageIds: line.sources });
    else add.push({ text: line.text, kind: line.kind, key: line.key, sourceMessageIds: line.sources });
  }
  return { add, update, remove: removals };
}
