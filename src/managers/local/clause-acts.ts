/**
 * What a clause does: lay down a rule, state a requirement, a goal, a preference or a decision, report
 * a fact, drop something said before — or only propose, ask, request or chat, which the base truth does
 * not keep. Read from cue words and a few patterns of how people talk.
 */
import type { AnalysedSentence } from './analysis.js';
import type { Cue } from './cues.js';
import type { TaggedToken } from './tagging.js';

export type ClauseAct = 'rule' | 'constraint' | 'goal' | 'preference' | 'decision' | 'fact' | 'removal' | 'proposal' | 'question' | 'request' | 'chatter';

/** Words that make a clause tentative: an idea put forward, not something settled. */
const TENTATIVE_WORDS = new Set([
  'maybe', 'perhaps', 'possibly', 'potentially', 'tempted', 'toying', 'considering', 'wondering', 'leaning', 'picturing', 'suppose',
  'hypothetically', 'idea', 'ideas', 'option', 'options', 'suggest', 'suggests', 'suggested', 'suggesting', 'suggestion', 'proposal',
  'propose', 'proposes', 'proposed', 'alternatively', 'might',
  'could', 'may',
]);
const TENTATIVE_PHRASES = [
  'what if', 'how about', 'what about', 'why not', 'thinking of', 'thinking about', "i'm thinking", 'i am thinking', 'i was thinking',
  "we're thinking", 'we were thinking', 'not sure', 'i guess', 'i think so', 'would it', 'should we', 'shall we', 'could we', 'we could',
  'you could', 'i could', 'could just', 'half tempted', 'in theory', 'or we could', 'one thought', 'thought about', 'could also',
  // Someone else's view of what to do ("Alun reckons we should set up a Facebook group") waits for a decision.
  'reckons we should', 'reckon we should', 'thinks we should', 'reckons we could', 'thinks we could',
];

/** Verbs of an offer someone makes. */
const OFFER_WORDS = new Set(['offer', 'offers', 'offered', 'offering']);

/** Verbs of selling or urging something on someone: what they push is put forward, not yet taken. */
const PITCH_WORDS = new Set(['pitched', 'pitching', 'upsell', 'upselling', 'upsold', 'recommended', 'recommending', 'suggested', 'suggesting', 'touting']);
/** (Not "pushed back a week": that moves a date.) */
const PITCH_PHRASES = ['kept pushing', 'keeps pushing', 'was pushing', 'were pushing', 'pushing a', 'pushing an', 'pushing us', 'pushing their', 'pushed us towards'];
/** "tried to sell us", "tried very hard to sell us", "was trying to talk us into". */
const TRYING_TO_SELL = /\btr(?:y|ies|ied|ying) (?:\w+ ){0,2}to (?:sell|push|upsell|get us|talk us into)\b/u;

/** Verbs and phrases of a settled choice: "we went with Luis", "signed Thursday", "quartz it is". */
const DECISION_WORDS = new Set([
  'decided', 'chose', 'chosen', 'picked', 'booked', 'signed', 'hired', 'settled', 'agreed', 'confirmed', 'finalised', 'finalized',
  'ordered', 'committed', 'selected', 'appointed', 'registered', 'enrolled', 'reserved', 'scheduled', 'approved',
]);
const DECISION_PHRASES = ['went with', 'going with', 'go with', 'it is', "that's the plan", 'that is the plan', 'taken on', 'yes to', 'back to', 'is staying', 'are staying', "it's staying", "that's staying", "they're staying", 'sticking with', 'staying with', 'locked in', 'done deal'];

const REPORTED_QUESTIONS = ['asks if', 'asked if', 'asks whether', 'asked whether', 'wondering if', 'wondering whether', 'wants to know if', 'wants to know whether', 'want to know if', 'asking if', 'asking whether'];

/** When a past event happened: a clause saying so tells news, not a lasting fact. */
const NEWS_TIMES = ['yesterday', 'last night', 'today', 'tonight', 'this morning', 'this afternoon', 'this evening', 'earlier today', 'the other day', 'ago', 'on tuesday', 'on monday', 'on wednesday', 'on thursday', 'on friday', 'on saturday', 'on sunday'];

/** Verbs whose past tense reports a state or a setting rather than an event ("was", "had"). */
const STATE_VERBS = new Set(['was', 'were', 'had', 'been', 'said', 'told', 'turned', 'became', 'got']);

/** Emphasis that turns a requirement into a hard rule ("full stop", "no exceptions", "I mean that"). */
const EMPHASIS_PHRASES = ['full stop', 'period', 'no exceptions', 'non-negotiable', 'non negotiable', 'i mean that', 'end of story', 'no discussion', 'whatsoever', 'under any circumstances', 'not even'];

/** Words by which a clause asks the assistant to do something. */
const REQUEST_OPENERS = new Set(['can', 'could', 'would', 'will', 'please', 'help', 'tell', 'show', 'remind', 'explain', 'check', 'give', 'send', 'draft', 'write', 'suggest', 'recommend', 'walk', 'find', 'let']);

function lowerWords(tokens: readonly TaggedToken[], from: number, to: number): string {
  let text = ' ';
  for (let index = from; index < to; index += 1) text += `${tokens[index]?.lower ?? ''} `;
  return text;
}

function hasPhrase(words: string, phrases: readonly string[]): boolean {
  return phrases.some((phrase) => words.includes(` ${phrase} `));
}

function hasWord(tokens: readonly TaggedToken[], from: number, to: number, set: ReadonlySet<string>): boolean {
  for (let index = from; index < to; index += 1) if (set.has(tokens[index]?.lower ?? '')) return true;
  return false;
}

/** A tentative word, not a name or a month that looks like one ("May 20", "Will"). */
function hasTentativeWord(tokens: readonly TaggedToken[], from: number, to: number, cues: readonly Cue[]): boolean {
  for (let index = from; index < to; index += 1) {
    const token = tokens[index];
    if (token === undefined || !TENTATIVE_WORDS.has(token.lower) || token.pos === 'date' || (index > from && token.capitalised)) continue;
    // "may only book refundable fares" is a rule, not a maybe.
    if (cues.some((cue) => cue.start <= index && index < cue.end)) continue;
    return true;
  }
  return false;
}

/** Whether the clause is emphatic enough to make its requirement a hard rule. */
export function isEmphatic(sentence: AnalysedSentence, span: readonly [number, number]): boolean {
  return hasPhrase(lowerWords(sentence.tokens, span[0], sentence.tokens.length), EMPHASIS_PHRASES);
}

/**
 * The clause tells a past event ("Tom walked every inch of the house", "They fined the Parks $250"):
 * its first verb is a simple past, not a perfect ("she's knocked it down") nor a state ("was", "had").
 */
export function tellsEvent(tokens: readonly TaggedToken[], from: number, to: number): boolean {
  for (let index = from; index < to; index += 1) {
    const token = tokens[index];
    if (token === undefined) continue;
    if (token.pos === 'auxiliary' || token.pos === 'copula' || token.pos === 'modal') return false;
    if (token.pos === 'pronoun' && /'(?:s|ve|d|ll|re|m)$/u.test(token.lower)) return false;
    if (token.pos === 'verb') return token.past && (!STATE_VERBS.has(token.lower) || arrived(tokens, index)) && !/ing$/u.test(token.lower);
  }
  return false;
}

/** "got to VFS at 8:30", "got there", "got home": "got" telling an arrival, not a state ("got pushed", "got to go"). */
function arrived(tokens: readonly TaggedToken[], index: number): boolean {
  if (tokens[index]?.lower !== 'got') return false;
  const next = tokens[index + 1];
  if (next?.lower === 'there' || next?.lower === 'home' || next?.lower === 'back') return true;
  const after = tokens[index + 2];
  return next?.lower === 'to' && after !== undefined && after.pos !== 'verb' && after.pos !== 'auxiliary';
}

/** Content words of the clause after token `from`: a rule needs something to be about. */
function contentWords(tokens: readonly TaggedToken[], from: number, to: number): number {
  let count = 0;
  for (let index = from; index < to; index += 1) {
    const pos = tokens[index]?.pos;
    if (pos === 'noun' || pos === 'proper' || pos === 'verb' || pos === 'adjective' || pos === 'value' || pos === 'date') count += 1;
  }
  return count;
}

export interface ActInput {
  sentence: AnalysedSentence;
  span: readonly [number, number];
  /** The cues of the clause (and those of an opener before it). */
  cues: readonly Cue[];
  /** The clause's specifics hold a value other than a person's name. */
  hasValue: boolean;
  /** The conversation is between named people: what happened to them is what it is about. */
  people: boolean;
}

/** Verbs of the speaker quoting themself: "I said …", "I mentioned …" (and "I told you …"). */
const SELF_QUOTING = new Set(['said', 'mentioned']);

/** Words that open thanks ("thank you for …", "cheers for sorting that"). */
const THANKS = new Set(['thank', 'thanks', 'cheers', 'thx', 'congrats', 'congratulations']);

/** Verbs of the speaker's feelings after "I" ("I feel …", "I felt …"). */
const FEELING_VERBS = new Set(['feel', 'felt', 'feeling']);

const IMPRESSION_VERBS = new Set(['feels', 'feel', 'felt', 'seems', 'seem', 'seemed', 'sounds', 'sound', 'sounded', 'looks', 'look', 'looked']);

/** Whether the clause's first verb is one of impression followed by an adjective ("feels ambitious", "looks great"). */
function givesImpression(tokens: readonly TaggedToken[], from: number, to: number): boolean {
  for (let index = from; index < to - 1; index += 1) {
    const token = tokens[index];
    if (token === undefined) break;
    if (token.pos !== 'verb' && token.pos !== 'copula' && !IMPRESSION_VERBS.has(token.lower)) continue;
    if (!IMPRESSION_VERBS.has(token.lower)) return false;
    const next = tokens[index + 1];
    const after = next?.pos === 'adverb' ? tokens[index + 2] : next;
    // (The tagger takes some adjectives for verbs: "feels ambitious".)
    return after !== undefined && (after.pos === 'adjective' || (after.pos === 'verb' && !after.past && after.lower !== 'like'));
  }
  return false;
}

/** Words that say an activity is under way this minute (not "at the moment", which also tells lasting states). */
const UNDER_WAY = /\b(?:right now|as we speak)\b/u;

/** Things done in a sitting: "emailing", "running 18 miles"; not "renting", "teaching", "studying", which last. */
const MOMENTARY = new Set(['emailing', 'calling', 'ringing', 'phoning', 'texting', 'messaging', 'writing', 'sending', 'booking', 'cooking', 'eating', 'packing', 'heading', 'driving', 'walking', 'running', 'doing', 'making', 'watching', 'reading', 'sorting', 'checking', 'typing', 'queuing', 'queueing', 'waiting']);

/** Whether the clause tells what someone is doing this minute: "Emailing Hartwell now", "out right now doing 18 miles". */
function doingNow(tokens: readonly TaggedToken[], from: number, to: number, words: string): boolean {
  const first = tokens[from];
  const opensDoing = first !== undefined && MOMENTARY.has(first.lower) && tokens[to - 1]?.lower === 'now';
  return opensDoing || (UNDER_WAY.test(words) && tokens.slice(from, to).some((token) => MOMENTARY.has(token.lower)));
}

/** What the clause does (see `ClauseAct`). */
export function clauseAct(input: ActInput): ClauseAct {
  const { sentence, span, cues } = input;
  const tokens = sentence.tokens;
  const [from, to] = span;
  const words = lowerWords(tokens, from, to);
  const strong = (kind: Cue['kind']): boolean => cues.some((cue) => cue.kind === kind && !cue.weak && !cue.keyword);
  // "Can you stop with the bullet points?" wants no answer: it drops what it names.
  if (cues.some((cue) => cue.kind === 'removal' && !cue.weak && /^(?:stop|no more)\b/u.test(cue.phrase))) return 'removal';
  if (sentence.question && /\?/u.test(tokens[to - 1]?.trailing ?? '')) return 'question';
  // "Tomás asks if we should bump Node.js": a question reported.
  if (hasPhrase(words, REPORTED_QUESTIONS)) return 'question';
  const first = tokens[from]?.lower ?? '';
  // "can you …", "I'd love for you to help me …", "I need help planning …": a request to the assistant.
  if (REQUEST_OPENERS.has(first) && (words.includes(' you ') || words.includes(' me ') || first === 'please') && !strong('exception')) return 'request';
  if (hasPhrase(words, ['for you to', 'help me', 'you to', 'need help', 'help with'])) return 'request';
  if (!input.hasValue && hasPhrase(words, ['need your', 'want your', 'like your'])) return 'request';
  // "I said Finance wanted annual upfront, but …": the speaker quoting what they said before adds nothing new.
  const quoted = tokens[from + 1]?.lower ?? '';
  const told = quoted === 'told' && tokens[from + 2]?.lower === 'you';
  if (first === 'i' && (SELF_QUOTING.has(quoted) || told) && !['yes', 'no', 'to'].includes(tokens[from + 2]?.lower ?? '')) return 'chatter';
  // "Thank you for everything so far", "I feel about 70% less panicked": thanks and feelings of the moment.
  if (THANKS.has(first) && !strong('exception') && !input.hasValue) return 'chatter';
  if (first === 'i' && FEELING_VERBS.has(tokens[from + 1]?.lower ?? '') && !strong('exception') && !strong('constraint')) return 'chatter';
  // A condition or a reason states nothing settled, unless it reports a change ("since we're up to 150 kids now").
  if (first === 'if' || first === 'unless' || first === 'whether') return 'chatter';
  if ((first === 'because' || first === 'since') && !(input.hasValue && cues.some((cue) => cue.kind === 'correction'))) return 'chatter';
  // A rule or a requirement says what it is about: "don't laugh" is no rule.
  // ("…, and that has to stay as it is" takes its substance from the clause it points back at.)
  const substantial = input.hasValue || contentWords(tokens, from, to) >= 2 || ['that', 'this', 'which', 'it'].includes(tokens[from]?.lower ?? '');
  if (strong('exception') && substantial) return 'rule';
  // "walnut is off the table, full stop" bans it; "the Ashgrove thing is off" drops a plan.
  if (strong('removal')) return isEmphatic(sentence, span) ? 'rule' : 'removal';
  const tentative = hasTentativeWord(tokens, from, to, cues) || hasPhrase(words, TENTATIVE_PHRASES);
  if (tentative) return 'proposal';
  // "Deskwise offered a 10% discount if we sign for 36 months": an offer on a condition waits for an answer.
  if (hasWord(tokens, from, to, OFFER_WORDS) && words.includes(' if ')) return 'proposal';
  // "The comparison site kept pushing a telematics policy at £470": an offer until someone takes it.
  if (hasWord(tokens, from, to, PITCH_WORDS) || hasPhrase(words, PITCH_PHRASES) || TRYING_TO_SELL.test(words)) return 'proposal';
  if (strong('constraint') && substantial) return isEmphatic(sentence, span) ? 'rule' : 'constraint';
  if (hasWord(tokens, from, to, DECISION_WORDS) || hasPhrase(words, DECISION_PHRASES)) return tellsEvent(tokens, from, to) && !input.hasValue && !hasPhrase(words, DECISION_PHRASES) ? 'chatter' : 'decision';
  if (strong('goal')) return 'goal';
  if (strong('preference')) return 'preference';
  // "1:55 feels ambitious", "that sounds expensive": an impression, not a fact.
  if (givesImpression(tokens, from, to)) return 'chatter';
  if (words.includes(' you ') && !input.hasValue) return 'request';
  // "Emailing Hartwell now", "out right now doing 18 miles in the rain": what someone is doing this minute,
  // with no amount or day to keep, is over by the next turn.
  if (!input.people && doingNow(tokens, from, to, words) && !tokens.slice(from, to).some((token) => token.pos === 'date' || /[$€£¥%]/u.test(token.text))) return 'chatter';
  // In a task conversation a past event of the day is news ("the grinder broke this afternoon"), and "I was
  // at my friend Jen's house last night" an outing; between people, such events are what they tell each other.
  if (!input.people && hasPhrase(words, NEWS_TIMES) && (tellsEvent(tokens, from, to) || !input.hasValue)) return 'chatter';
  return input.hasValue ? 'fact' : 'chatter';
}
