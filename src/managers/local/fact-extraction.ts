/**
 * Statements: the fact lines a sentence can contribute to the base-truth document, as
 * `key: value` where the key names what the line is about and the value is a clause copied
 * verbatim from the sentence (so its numbers, names and negations survive and grounding passes).
 * A clause is read in steps: its parts (statement-parts), its kind (statement-kind), its key
 * (statement-key), its value (statement-value).
 */
import type { FactKind } from '../../core/types.js';
import type { AnalysedSentence } from './analysis.js';
import { keyFromPhrase } from './noun-phrases.js';
import { oldValuesIn } from './old-values.js';
import type { Statement, StatementContext } from './statement.js';
import { CLAUSE_CONJUNCTIONS, clauseRanges, skipOpeners, statementRange, SUBORDINATORS } from './statement-clauses.js';
import { statementKey } from './statement-key.js';
import { statementKind } from './statement-kind.js';
import { isPronounSubject, statementParts } from './statement-parts.js';
import { clauseTextOf, statementValue, trimValue } from './statement-value.js';
import type { TaggedToken } from './tagging.js';

const KIND_WEIGHT: Readonly<Record<FactKind, number>> = { exception: 5, constraint: 4, goal: 3, preference: 2, fact: 1 };

/**
 * The statement a sentence makes, if it is worth a fact line: a cue (constraint, exception, goal,
 * preference), a correction or removal, or a specific (number, date, name) in a declarative clause.
 */
export function extractStatements(sentence: AnalysedSentence, context: StatementContext): Statement[] {
  if (sentence.tokens.length === 0 || sentence.smallTalk) return [];
  const range = statementRange(sentence);
  if (range === null) return [];
  const statements: Statement[] = [];
  for (const clause of clauseRanges(sentence.tokens, skipOpeners(sentence.tokens, range))) {
    // "Since Brightwater is my biggest client, …" gives the reason for what follows; the main clause states it.
    const statement = SUBORDINATORS.has(sentence.tokens[clause[0]]?.lower ?? '') ? null : clauseStatement(sentence, clause, context);
    if (statement !== null && statement.informative) statements.push(statement);
    else if (statement !== null) {
      // "They log in with Google SSO, and that has to stay as it is": the rule is about the clause before.
      const previous = statements.at(-1);
      const merged = previous === undefined ? null : mergeAnaphoric(sentence, previous, statement, context.maxValueWords);
      if (merged !== null) statements[statements.length - 1] = merged;
      else if (statement.correction !== null || statement.removal !== null) statements.push(statement);
    }
    // Remember the last person named, for "he" and "she" in what follows.
    if (context.lastPerson !== undefined) {
      const start = sentence.tokens[clause[0]]?.start ?? 0;
      const end = sentence.tokens[clause[1] - 1]?.end ?? 0;
      const named = sentence.specifics.filter((item) => item.entity === 'person' && item.start >= start && item.end <= end).at(-1);
      if (named !== undefined) context.lastPerson.name = named.text;
    }
  }
  return statements;
}

/** The statement of one clause of the sentence, if it makes one. */
function clauseStatement(sentence: AnalysedSentence, clause: [number, number], context: StatementContext): Statement | null {
  const parts = statementParts(sentence, clause);
  const found = statementKind(parts);
  if (found === null) return null;
  const keyed = statementKey(parts, found, context);
  if (keyed === null) return null;
  const valued = statementValue(parts, keyed, context.maxValueWords);
  if (valued === null) return null;
  const { tokens, from, to, startOffset, endOffset, specifics, correction } = parts;
  const { kind, colon, objectPhrase } = keyed;
  const oldFrom = colon >= 0 ? (tokens[colon + 1]?.start ?? startOffset) : startOffset;
  const diffFields = context.forDiff !== false;
  return {
    kind,
    key: keyed.key,
    value: valued.value,
    messageId: context.messageId,
    sentence,
    cue: keyed.cue,
    correction,
    removal: parts.removal,
    personal: parts.personal || keyed.personName !== null,
    specifics,
    category: keyed.category,
    keyless: keyed.keyless,
    keySource: keyed.source,
    predicateValue: valued.predicateValue,
    object: objectPhrase === null ? null : keyFromPhrase(tokens, objectPhrase, 4),
    weight: KIND_WEIGHT[kind] + Math.min(2, specifics.length * 0.5) + (correction !== null ? 1 : 0),
    informative: valued.informative,
    // Only a statement that may change the document needs these (a question or a condition sets nothing aside).
    oldValues: !diffFields || sentence.question || hypothetical(tokens, from, to) ? [] : oldValuesIn(sentence, oldFrom, endOffset, specifics),
    pronounSubject: isPronounSubject(tokens, parts.subjectStart, parts.subjectEnd),
    agreed: found.fragment,
    range: [from, to],
    clauseText: diffFields ? clauseTextOf(parts, keyed.announcer, context.maxValueWords) : '',
  };
}

const ANAPHORS = new Set(['that', 'this', 'it', 'which', "that's", "it's"]);

/**
 * A rule whose subject points back at the clause before ("…, and that has to stay exactly as it is")
 * becomes a rule about that clause: its key, both clauses as the value, the rule's kind.
 */
function mergeAnaphoric(sentence: AnalysedSentence, previous: Statement, current: Statement, maxWords: number): Statement | null {
  if (current.kind === 'fact' || previous.range[1] > current.range[0]) return null;
  const first = sentence.tokens[current.range[0]];
  const second = sentence.tokens[current.range[0] + 1];
  const subject = first !== undefined && CLAUSE_CONJUNCTIONS.has(first.lower) ? second : first;
  if (subject === undefined || !ANAPHORS.has(subject.lower)) return null;
  const start = sentence.text.indexOf(previous.value);
  const end = sentence.tokens[current.range[1] - 1]?.end ?? sentence.text.length;
  if (start < 0 || end <= start) return null;
  const value = trimValue(sentence.text.slice(start, end), maxWords);
  return {
    ...previous,
    kind: current.kind,
    cue: current.cue,
    value,
    range: [previous.range[0], current.range[1]],
    weight: Math.max(previous.weight, current.weight),
    informative: true,
  };
}

/** A condition ("if", "whether", "unless") sets nothing aside. */
function hypothetical(tokens: readonly TaggedToken[], from: number, to: number): boolean {
  for (let index = from; index < to; index += 1) {
    const lower = tokens[index]?.lower ?? '';
    if (lower === 'if' || lower === 'whether' || lower === 'unless') return true;
  }
  return false;
}
