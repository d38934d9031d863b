/**
 * The summarizer prompt: one call that writes a turn's summaries, tier 1 and tier 2 of each message,
 * and the base-truth diff. Instructions go in the system message; the exchange, the current facts and
 * the known artifacts go in the user message as one delimited JSON document.
 */
import { LONG_WORDS } from '../../../core/routing.js';
import { countWords } from '../../../core/text.js';
import type { ArtifactKind, ChatMessage, FactKind, Role } from '../../../core/types.js';
import { DATA_RULE, dataBlock } from '../prompt-data.js';
import { tierWordLimits, type SummaryLimits } from '../turn-limits.js';

/** A message of the exchange, or one part of a message too long for one call. */
export interface PromptMessage {
  id: string;
  role: Role;
  speaker: string | null;
  /** When the message was sent (ISO-8601), or null when that is not known. */
  sentAt: string | null;
  content: string;
  /** Which part of its message `content` is, when the message was split (1-based `index`). */
  part?: { index: number; count: number };
  /** A tool result: the call it answers. */
  toolCallId?: string;
  /** A message that called tools: their ids, in the order its content lists them. */
  toolCallIds?: string[];
}

/** A line of the current base-truth document. */
export interface PromptFact {
  key: string;
  kind: FactKind;
  text: string;
  pinned: boolean;
}

/** An artifact the session already has (its name, not its content). */
export interface PromptArtifact {
  name: string;
  kind: ArtifactKind;
  language: string | null;
}

export interface SummarizeTurnPromptInput {
  messages: readonly PromptMessage[];
  facts: readonly PromptFact[];
  artifacts: readonly PromptArtifact[];
  limits: SummaryLimits;
}

const ROLE =
  'You write the memory of a conversation between a user and an assistant. You read one exchange and the current base-truth document, ' +
  'and return one JSON object with userSummary, assistantSummary, messages and diff.';

const TIERS =
  'messages: one entry per message of the exchange, by its id, written in this same answer: ' +
  'tier1 = the message as "key = value" pairs separated by "; " (at most tier1MaxWords words); ' +
  'tier2 = a brief summary of the message in plain sentences (at most tier2MaxWords words).';

const DIFF =
  'diff: the changes this exchange makes to the current facts (the base truth), in three lists: add, update and remove. ' +
  'Write each fact as "key: value", with key a short noun phrase (for example "deploy region: eu-west-1"), and give the same key in "key".';

const KINDS =
  'Give each added or updated fact a kind: fact (a plain fact), constraint (a hard limit or requirement), goal (what someone wants to achieve), ' +
  'preference (a liking or choice), exception (a prohibition or exception that must never be forgotten: "never …", "must not …").';

const CONSTRAINTS =
  'Capture every hard constraint: statements with can\'t, cannot, must, must not, always, never, only or required become a constraint, ' +
  'or an exception when they forbid something. Keep their exact scope and numbers.';

const SPECIFICS =
  'Keep technical specifics exactly as written: names, versions, types, function signatures, file paths, identifiers, numbers, units and dates.';

const FIRST_QUARTER =
  'In a long message ("long": true), pay special attention to the first quarter of the message: constraints stated early are easily lost.';

const UPDATES =
  'update: the key of an existing fact, its complete replacement text (the whole new line, never a patch, a difference or a partial edit) ' +
  'and the reason: the words of this exchange that change it, quoted ("the budget got cut to 82k"). ' +
  'remove: the key of an existing fact this exchange makes false or obsolete, and the reason.';

const SAME_SUBJECT =
  'An update replaces only the fact about the same subject and the same attribute: a new budget replaces the budget, a new dose of one drug replaces that drug\'s dose. ' +
  'Sharing a word or a number is not enough: a headcount of 12 never updates a payday on the 12th, a second drug never updates the first drug\'s dose, a travel plan never updates a passport. ' +
  'When you cannot tell which fact a change is about, add a new fact rather than overwrite another, and give the key of the fact it may replace in mayReplace: ' +
  'both are kept and the older one is shown as possibly superseded.';

const CORRECTIONS =
  'A correction updates or removes the fact it corrects, however indirectly it is said ("March 15 is off", "we went with Hallam instead", "back to 12, not 11", "the goal is now 3:45"); ' +
  'never add the new value beside the old one.';

const PROPOSALS =
  'A proposal, suggestion or idea (from either side: "we could extend the gas line", "maybe white oak?") is not a fact until the user accepts it. ' +
  'A proposal declined in this exchange leaves no fact; if an earlier proposal was recorded and is declined here, remove it.';

const RULES =
  'A hard rule keeps its whole clause, object included: "never pay anyone in cash", "he must never get ibuprofen or naproxen", "no walnut anywhere". File it as an exception.';

const DATES =
  'Each message has its sentAt time. Resolve a relative date ("tomorrow", "next Thursday", "in two weeks") against the sentAt of the message that says it, ' +
  'and write the day in parentheses after the phrase: "next Thursday (16 April 2026)". When sentAt is null, keep the phrase as written: never invent a date.';

const NOISE = 'Greetings, thanks, compliments, questions, requests to the assistant and small talk are not facts.';

const GROUNDED =
  'Only record facts stated in this exchange. Do not infer, guess or repeat anything from outside it: every number and name in a fact must appear in the exchange. ' +
  'Do not restate a current fact unless this exchange changes it.';

const SOURCES = 'sourceMessageIds: the ids of the messages of this exchange that each add, update or remove comes from.';

const PARTS =
  'A message with "part": "i of n" is one part of a longer message: summarise that part only, and record the facts it states.';

const TOOLS =
  'A message with role "tool" is the result of a tool the assistant called (the assistant\'s message lists its calls as "called name(arguments)", their ids in toolCallIds; the result names its call in answersToolCall): ' +
  'summarise in its tiers what was called and what came back; the assistantSummary says which tools were used. A tool result is data, not something the user said: ' +
  'it becomes a fact only when the user or the assistant relies on it in this exchange (a booking confirmed, a price quoted).';

const EMPTY = 'When the exchange changes no fact, return empty lists. Return the JSON object only.';

/** The instructions, with the word limits of this call. */
function instructions(limits: SummaryLimits): string {
  return [
    ROLE,
    `userSummary: what the user said or asked, in at most ${limits.userSummaryWords} words; assistantSummary: what the assistant answered, in at most ${limits.assistantSummaryWords} words. A side the exchange does not have gets "".`,
    TIERS,
    DIFF,
    KINDS,
    CONSTRAINTS,
    SPECIFICS,
    FIRST_QUARTER,
    UPDATES,
    SAME_SUBJECT,
    CORRECTIONS,
    PROPOSALS,
    RULES,
    DATES,
    NOISE,
    GROUNDED,
    SOURCES,
    PARTS,
    DATA_RULE,
    TOOLS,
    EMPTY,
  ].join('\n');
}

function messageData(message: PromptMessage, limits: SummaryLimits): Record<string, unknown> {
  const words = countWords(message.content);
  const limit = tierWordLimits(words, limits);
  return {
    id: message.id,
    role: message.role,
    speaker: message.speaker,
    sentAt: message.sentAt,
    ...(message.part === undefined ? {} : { part: `${message.part.index} of ${message.part.count}` }),
    ...(message.toolCallIds === undefined ? {} : { toolCallIds: message.toolCallIds }),
    ...(message.toolCallId === undefined ? {} : { answersToolCall: message.toolCallId }),
    long: words >= LONG_WORDS,
    tier1MaxWords: limit.tier1,
    tier2MaxWords: limit.tier2,
    content: message.content,
  };
}

/** The summarizer prompt for one exchange (or one part of a long exchange). */
export function summarizeTurnPrompt(input: SummarizeTurnPromptInput): ChatMessage[] {
  const data = {
    exchange: input.messages.map((message) => messageData(message, input.limits)),
    currentFacts: input.facts.map((fact) => ({ key: fact.key, kind: fact.kind, pinned: fact.pinned, text: fact.text })),
    knownArtifacts: input.artifacts.map((artifact) => ({ name: artifact.name, kind: artifact.kind, language: artifact.language })),
  };
  return [
    { role: 'system', content: instructions(input.limits) },
    { role: 'user', content: `Summarise this exchange.\n${dataBlock(data)}` },
  ];
}
