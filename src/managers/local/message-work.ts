/**
 * The local manager's work on one message that needs nothing else of the turn: its analysis, its
 * statements, its claims and its units. A long message's work yields between slices of its sentences,
 * so whoever runs it can let other work in (see `createLocalMemoryManager`).
 */
import type { TurnMessageInput } from '../memory-manager.js';
import { analysing } from './analysis.js';
import { allowsFacts } from './assistant-facts.js';
import { messageClaims } from './claims.js';
import { dateReference, type DateReference } from './dates.js';
import { extractStatements } from './fact-extraction.js';
import type { MessageWork } from './prepared-messages.js';
import type { ResolvedSettings } from './settings.js';
import type { Statement, StatementContext } from './statement.js';
import { messageUnits } from './units.js';

/** What deriving one message needs besides the message. */
export interface MessageContext {
  settings: ResolvedSettings;
  /** Shared by the turn's messages, in order (see `AnalysisOptions.taggingBudget`). */
  taggingBudget: { sentences: number };
}

/** The context of a turn, its compromise budget still whole. */
export function messageContext(settings: ResolvedSettings): MessageContext {
  return { settings, taggingBudget: { sentences: settings.maxTaggedSentences } };
}

/** Relative dates resolve against the message's own time; a message without one keeps them as written. */
function referenceOf(message: TurnMessageInput): DateReference {
  return dateReference(message.sentAt ?? '');
}

/** Sentences whose statements are read between two yields. */
const SENTENCES_PER_SLICE = 4;

/** The work on one message, yielding between slices of its sentences. */
export function* workingOn(message: TurnMessageInput, context: MessageContext): Generator<void, MessageWork, void> {
  const { settings, taggingBudget } = context;
  const reference = referenceOf(message);
  const analysed = yield* analysing(message, { maxAnalysedWords: settings.maxAnalysedWords, maxReadWords: settings.maxReadWords, taggingBudget, tagger: settings.tagger, reference });
  // (flatMap would give a holey list; see mapPacked.)
  const statements: Statement[] = [];
  if (!analysed.smallTalk) {
    const statementContext: StatementContext = {
      messageId: message.id,
      speaker: message.speaker,
      maxValueWords: settings.maxFactWords,
      lastPerson: { name: null },
      forDiff: allowsFacts(analysed, settings.assistantFacts),
    };
    for (const [index, sentence] of analysed.sentences.entries()) {
      statements.push(...extractStatements(sentence, statementContext));
      if ((index + 1) % SENTENCES_PER_SLICE === 0) yield;
    }
  }
  yield;
  const claims = !analysed.smallTalk && allowsFacts(analysed, settings.assistantFacts) ? messageClaims(analysed, { maxValueWords: settings.maxFactWords }) : { claims: [], mentioned: [] };
  yield;
  return { analysed, statements, claims, units: messageUnits(analysed) };
}
