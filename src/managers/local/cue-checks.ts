/**
 * The context checks of cue phrases: when an ambiguous word is a cue ("never" forbids in "we never
 * deploy on Fridays", not in "I\'ve never been to Paris" or "never give up"; "like" is a preference after
 * a subject, not in "looks like"). Each check sees the sentence's tokens and where the phrase starts and ends.
 */
import { COPULAS, DETERMINERS, MODALS, MONTHS, NEGATIONS, SMALL_TALK_WORDS, WEEKDAYS } from './function-words.js';
import type { Token } from './tokens.js';

/** Whether the phrase at `start`..`end` of `tokens` is a cue. */
export type Accept = (tokens: readonly Token[], start: number, end: number) => boolean;

export const lowerAt = (tokens: readonly Token[], index: number): string => tokens[index]?.lower ?? '';

const NEVER_PAST = new Set([
  'been', 'had', 'seen', 'heard', 'thought', 'knew', 'was', 'were', 'did', 'went', 'got', 'made', 'met', 'told',
  'said', 'understood', 'done', 'gone', 'tried', 'felt', 'read', 'saw', 'came', 'took', 'found', 'expected',
  'imagined', 'realized', 'realised', 'forget', 'mind', 'really',
]);
const NEVER_SUBJECTS = new Set([
  ...MODALS, 'we', 'you', 'i', 'please', 'just', 'and', 'but', 'so', 'to', 'ever', 'should', 'must', 'it', 'they',
  'users', 'anyone', 'nobody', 'one', 'is', 'are', 'am', "we're", "i'm", "he's", "she's", "they're", "it's", 'was', 'were', 'absolutely', 'simply', 'just',
]);

/**
 * Sayings built on "never" that encourage or remark rather than forbid: "never give up", "you never
 * know", "it never gets old", "never let you down", "don't ever be afraid to …", "never too late".
 */
const NEVER_SAYINGS: ReadonlyMap<string, ReadonlySet<string> | null> = new Map([
  ...['quit', 'know', 'knew', 'shy', 'fails', 'fail', 'ceases', 'cease', 'hurts', 'hurt', 'too', 'doubt', 'settle', 'underestimate'].map(
    (verb) => [verb, null] as const,
  ),
  // "never gets old" but "he must never get ibuprofen"; "never let us down" but "never let the dog out".
  ...['gets', 'get', 'grows', 'grow'].map((verb) => [verb, new Set(['old', 'bored', 'tired'])] as const),
  ...['let', 'lets'].map((verb) => [verb, new Set(['down', 'go'])] as const),
  ['be', new Set(['afraid', 'scared', 'ashamed'])],
  ['lose', new Set(['hope', 'faith', 'sight'])],
  ['miss', new Set(['beat'])],
  ['give', new Set(['up'])],
  // "don't stop dreaming", but "never stop the server".
  ['stop', new Set(['believing', 'dreaming', 'trying', 'learning', 'smiling', 'fighting', 'going', 'growing', 'creating', 'moving'])],
  ['worry', null],
  // "don't ever forget that you have people …"; "never forget to lock up" stays a rule.
  ['forget', new Set(['that', 'how', 'who', 'what', 'where', 'you', 'your'])],
]);
/** "never" followed by a saying ("never give up", "never let us down"): no rule. */
export function startsSaying(tokens: readonly Token[], from: number): boolean {
  let at = from;
  if (lowerAt(tokens, at) === 'ever') at += 1;
  const verb = lowerAt(tokens, at);
  if (!NEVER_SAYINGS.has(verb)) return false;
  const completions = NEVER_SAYINGS.get(verb);
  if (completions === null || completions === undefined) return true;
  for (let index = at + 1; index <= at + 3; index += 1) if (completions.has(lowerAt(tokens, index))) return true;
  return false;
}

const EXPERIENCE_PREPOSITIONS = new Set(['for', 'with', 'at', 'in', 'on', 'to', 'since', 'before', 'about', 'from']);
const PERFECT_AUXILIARIES = /^(?:have|has|i['’]ve|we['’]ve|you['’]ve|they['’]ve)$/u;
const NOT_PARTICIPLES = new Set(['children', 'ten', 'often', 'seven', 'eleven', 'kitchen', 'garden', 'need', 'seed', 'right', 'night', 'eight']);

/** Whether "I've written", "we have run" … comes before token `start`: an auxiliary of the perfect and a past participle. */
function hasPerfectBefore(tokens: readonly Token[], start: number): boolean {
  for (let index = 0; index < start - 1; index += 1) {
    const participle = lowerAt(tokens, index + 1);
    if (PERFECT_AUXILIARIES.test(lowerAt(tokens, index)) && /(?:ed|en|wn|ne|un|ught)$/u.test(participle) && !NOT_PARTICIPLES.has(participle)) return true;
  }
  return false;
}

/** "never" is a rule ("we never deploy on Fridays"), not a memory ("I've never been to Paris") or a saying. */
export const acceptNever: Accept = (tokens, start, end) => {
  const previous = lowerAt(tokens, start - 1);
  // "…, never non-refundable": a rule going on after a comma; "How I work: never include …" after a heading.
  const listed = /[,;:—–]/u.test(tokens[start - 1]?.trailing ?? '');
  if (start > 0 && !NEVER_SUBJECTS.has(previous) && !listed) return false;
  let next = lowerAt(tokens, end);
  if (next === 'ever') next = lowerAt(tokens, end + 1);
  if (next === '' || NEVER_PAST.has(next) || /ed$/u.test(next) || startsSaying(tokens, end)) return false;
  // ("… never match the sales — never the same difference twice" says how things go, not what to do.)
  if (start > 0 && DETERMINERS.has(next)) return false;
  // ("I've written plenty of grants, but never for a foundation this size": what the speaker has done so far.)
  if (['but', 'though'].includes(previous) && EXPERIENCE_PREPOSITIONS.has(next) && hasPerfectBefore(tokens, start)) return false;
  // "I would never be able to …": a conjecture.
  return !(previous === 'would' || previous === "i'd" || previous === "we'd");
};

/** "allergic to …", "I'm allergic": an allergy; "an allergic reaction" names an event. */
export const acceptAllergic: Accept = (tokens, _start, end) => {
  const next = lowerAt(tokens, end);
  return next === 'to' || next === '' || /[.,;!]/u.test(tokens[end - 1]?.trailing ?? '');
};

const LIKE_SUBJECTS = new Set([
  'i', 'we', 'you', 'they', 'he', 'she', 'really', 'also', 'still', 'do', 'does', "don't", "doesn't", "didn't",
  'totally', 'kinda', 'both', 'always', 'genuinely', 'absolutely', 'definitely', 'personally', 'would', "i'd",
  "we'd", 'just', 'truly', 'especially', 'mostly', 'usually', 'all', 'not', 'never', 'honestly', 'actually',
]);

/** "like" and "love" are preferences only after a subject ("I really like …"), not in "looks like". */
export const acceptLike: Accept = (tokens, start) => {
  const previous = tokens[start - 1];
  if (previous === undefined) return false;
  // "taking Nurofen like sweets": a comparison after an object, not a liking.
  const before = tokens[start - 2];
  if (before !== undefined && 'pos' in before && before.pos === 'verb' && !LIKE_SUBJECTS.has(previous.lower)) return false;
  // "Wow, love that painting!" is a reaction, not a lasting preference.
  if (/[,!]/u.test(previous.trailing)) return false;
  return LIKE_SUBJECTS.has(previous.lower) || (previous.capitalised && previous.lower !== 'i' && !SMALL_TALK_WORDS.has(previous.lower));
};

export const acceptRather: Accept = (tokens, start) => ["i'd", "we'd", 'would', "you'd", "they'd"].includes(lowerAt(tokens, start - 1));

const DECISION_OPENERS = new Set([
  "let's", 'lets', 'please', 'just', 'so', 'and', 'then', 'ok', 'okay', 'actually', 'also', 'can', 'could', 'we',
  'you', 'should', 'to', 'gonna', 'will', "we'll", "i'll", 'wanna',
]);

/** "drop", "cancel", "skip" … remove something only as a decision ("let's drop the cache"). */
export const acceptDecision: Accept = (tokens, start) => start === 0 || DECISION_OPENERS.has(lowerAt(tokens, start - 1));

/** "forget the Redis cache" removes it; "don't forget to …" does not. */
export const acceptForget: Accept = (tokens, start, end) => {
  const previous = lowerAt(tokens, start - 1);
  if (["don't", 'do', 'never', 'not', "won't", "didn't", 'to', 'i', 'always', 'sometimes', 'often'].includes(previous)) {
    return false;
  }
  return lowerAt(tokens, end) !== 'to';
};

const GUESSED_QUALITIES = new Set([
  'so', 'really', 'such', 'quite', 'pretty', 'awesome', 'amazing', 'great', 'nice', 'fun', 'cool', 'lovely', 'wonderful',
  'fulfilling', 'rewarding', 'exciting', 'hard', 'tough', 'scary', 'crazy', 'incredible', 'fantastic', 'special', 'beautiful',
  'tiring', 'exhausting', 'frustrating', 'satisfying', 'stressful', 'interesting', 'fascinating', 'neat',
]);

/** "must have been" and "it must be nice" are guesses, not rules; "the API must be fast" is a rule. */
export const acceptMust: Accept = (tokens, start, end) => {
  const next = lowerAt(tokens, end);
  if (['have', "'ve", 'not', 'never'].includes(next)) return false;
  if (next !== 'be') return true;
  // "Must be awesome to see …", "must be really fulfilling": a guess at how something feels.
  if (GUESSED_QUALITIES.has(lowerAt(tokens, end + 1))) return false;
  return !['it', 'that', 'this', 'there', 'you', 'he', 'she', 'they', 'which'].includes(lowerAt(tokens, start - 1));
};

const HAVE_TO_IDIOMS = new Set(['say', 'admit', 'agree', 'laugh', 'tell', 'thank', 'ask', 'wonder', 'hand', 'love', 'give']);
/** "I have to say …" is a figure of speech. */
export const acceptHaveTo: Accept = (tokens, _start, end) => !HAVE_TO_IDIOMS.has(lowerAt(tokens, end));

const CANNOT_IDIOMS = new Set([
  'believe', 'wait', 'remember', 'imagine', 'help', 'tell', 'say', 'decide', 'find', 'sleep', 'stop', 'thank', 'get',
  'agree', 'complain', 'even', 'think', 'see', 'stand', 'beat', 'deny', 'picture', 'miss', 'go',
]);
export const acceptCannot: Accept = (tokens, _start, end) => !CANNOT_IDIOMS.has(lowerAt(tokens, end));

/** "Don't use tabs" at the start of a sentence is an instruction. */
/** Verbs of talk and feeling: "don't ask", "don't laugh", "don't worry" ask nothing of the work. */
const CONVERSATIONAL_VERBS = new Set(['ask', 'laugh', 'worry', 'panic', 'judge', 'tell', 'mind', 'bother', 'get', 'forget', 'be', 'say', 'think', 'know', 'care', 'hate', 'let', 'make', 'go', 'stress']);

export const acceptImperative: Accept = (tokens, start, end) =>
  (start === 0 || ['please', 'and', 'but', 'so', 'just', 'also'].includes(lowerAt(tokens, start - 1))) &&
  !CONVERSATIONAL_VERBS.has(lowerAt(tokens, end)) &&
  !startsSaying(tokens, end);

const OBJECT_PRONOUNS = new Set(['me', 'us', 'him', 'her', 'them', 'you']);
/** "allowed me to explore": what something made possible for someone. */
export function enablesSomeone(tokens: readonly Token[], end: number): boolean {
  return OBJECT_PRONOUNS.has(lowerAt(tokens, end)) && lowerAt(tokens, end + 1) === 'to';
}

/** "how much work we still have to do", "how much I need them": an exclamation, not a requirement. */
export function afterHow(tokens: readonly Token[], start: number): boolean {
  for (let index = Math.max(0, start - 4); index < start; index += 1) if (lowerAt(tokens, index) === 'how') return true;
  return false;
}

export function hasNegationBefore(tokens: readonly Token[], start: number, window: number): boolean {
  for (let index = Math.max(0, start - window); index < start; index += 1) {
    const word = lowerAt(tokens, index);
    if (NEGATIONS.has(word) || word.endsWith("n't")) return true;
  }
  return false;
}

const REMOVAL_VERBS = new Set(['need', 'needs', 'needed', 'want', 'wants', 'require', 'requires', 'required', 'use', 'using', 'doing', 'necessary', 'relevant', 'planning', 'plan']);

const DUE_FOLLOWERS = new Set(['by', 'on', 'in', 'before', 'at', 'date', 'next', 'this', 'end', 'today', 'tomorrow', 'tonight']);
/** "due by Friday", "due 30 June", "due March 3": a deadline; "due to the rain" is not. */
export const acceptDue: Accept = (tokens, _start, end) => {
  const next = tokens[end];
  if (next === undefined) return false;
  return DUE_FOLLOWERS.has(next.lower) || next.hasDigit || MONTHS.has(next.lower) || WEEKDAYS.has(next.lower);
};

const STATE_AFTER_OFF = new Set(['again', 'of', 'for', 'on', 'now', 'today', 'tonight', 'yet', 'there', 'here', 'already', 'sick', 'work', 'this', 'next', 'until', 'till', 'at', 'in', 'and']);
/**
 * "the Ashgrove thing is off", "walnut is out, full stop": dropped; "the kitchen light is off again", "the
 * report is out this week", "she is out sick": a state, not a decision.
 */
export const acceptOffOrOut: Accept = (tokens, _start, end) => {
  const next = lowerAt(tokens, end);
  return next === '' || /[.,;:!—–-]/u.test(tokens[end - 1]?.trailing ?? '') || !STATE_AFTER_OFF.has(next);
};

/** "not … anymore" is a correction. */
export const acceptAnymore: Accept = (tokens, start) => hasNegationBefore(tokens, start, 8);

/** "we don't need SSO anymore" drops something. */
export const acceptAnymoreRemoval: Accept = (tokens, start) => {
  if (!hasNegationBefore(tokens, start, 8)) return false;
  for (let index = Math.max(0, start - 8); index < start; index += 1) {
    if (REMOVAL_VERBS.has(lowerAt(tokens, index))) return true;
  }
  return false;
};

/** At the start of the sentence, or right after an opener such as "No," or "Oh,". */
export const acceptOpening: Accept = (tokens, start) => start === 0 || (start <= 2 && /[,:;–—-]/u.test(tokens[start - 1]?.trailing ?? ''));

/** Whether the word can start a value: a number, an amount or a name. */
function valueStart(token: Token | undefined): boolean {
  return token !== undefined && (token.hasDigit || /^[$€£¥]/u.test(token.text) || (token.capitalised && token.lower !== 'i'));
}

/** ", not $1,200", "— not Ireland": a value set against the new one. */
export const acceptNotValue: Accept = (tokens, start, end) => {
  const previous = tokens[start - 1];
  return previous !== undefined && /[,;–—-]/u.test(previous.trailing) && valueStart(tokens[end]);
};

/** Things whose value a plan sets and a later message changes. */
const CHANGEABLE = new Set([
  'budget', 'budgets', 'deadline', 'deadlines', 'limit', 'limits', 'cap', 'caps', 'date', 'dates', 'price', 'prices', 'fee', 'fees',
  'cost', 'costs', 'timeline', 'schedule', 'headcount', 'target', 'targets', 'quota', 'maximum', 'minimum', 'max', 'min', 'allowance',
  'salary', 'rent', 'spend', 'spending', 'capacity', 'scope', 'term', 'duration', 'window', 'allocation', 'threshold', 'estimate', 'it',
]);

/**
 * "cut the hosting budget", "raised it to $50k", "is moving": a change of a value the plan set; "the
 * deploy raised the error rate" reports an event, and "a cut" is a noun.
 */
export const acceptChange: Accept = (tokens, start, end) => {
  const previous = lowerAt(tokens, start - 1);
  if (DETERMINERS.has(previous)) return false;
  if (COPULAS.has(previous) || previous.endsWith("'s") || previous.endsWith("'re")) return true;
  for (let index = end; index < Math.min(tokens.length, end + 5); index += 1) {
    const lower = lowerAt(tokens, index);
    if (CHANGEABLE.has(lower)) return true;
    if ((lower === 'to' || lower === 'from') && valueStart(tokens[index + 1])) return true;
    if (/[,;:.!?]/u.test(tokens[index]?.trailing ?? '')) break;
  }
  return false;
};

/** "we're up to 150 kids": a count reached (after a form of "be", before a value), not a limit ("up to 10 may attend"). */
export const acceptUpTo: Accept = (tokens, start, end) => {
  const previous = lowerAt(tokens, start - 1);
  return (COPULAS.has(previous) || previous.endsWith("'re") || previous.endsWith("'s")) && valueStart(tokens[end]);
};

/** "starting May 1", "effective Monday", "as of next week": a day a change takes effect (not "starting a new job"). */
export const acceptFromDay: Accept = (tokens, _start, end) => {
  const next = lowerAt(tokens, end);
  return MONTHS.has(next) || WEEKDAYS.has(next) || ['next', 'tomorrow', 'today', 'tonight', 'monday'].includes(next) || /^\d/u.test(next);
};

/** "from now on", "for everything" make a lasting instruction only in a request or a statement about the work, not in a question. */
export const acceptLasting: Accept = (tokens, start) => tokens[start] !== undefined && !tokens.slice(0, start).some((token) => /\?/u.test(token.trailing));

/** "No, …" or "Wait, …" opening a sentence corrects what was said. */
export const acceptOpener: Accept = (tokens, start) => start === 0 && /,/u.test(tokens[0]?.trailing ?? '');

export const NO_IDIOMS = new Set(['problem', 'problems', 'worries', 'worry', 'way', 'idea', 'thanks', 'clue', 'doubt', 'one', 'need', 'big', 'rush', 'pressure', 'kidding', 'wonder', 'matter', 'offense']);

/** "No X" opening a sentence, as a plain noun phrase: "No worries" and "No, …" are not. */
function opensWithNo(tokens: readonly Token[], start: number, end: number): boolean {
  // At the start of the sentence, or of a clause after a colon or a dash ("he was firm about it: no ibuprofen").
  const opens = start === 0 || /[:;–—]/u.test(tokens[start - 1]?.trailing ?? '');
  return opens && !/[,!?.]/u.test(tokens[start]?.trailing ?? '') && !NO_IDIOMS.has(lowerAt(tokens, end)) && lowerAt(tokens, end) !== '';
}

/** "No walnut cabinets, no walnut butcher block": a list of things ruled out. */
function anotherNoAfter(tokens: readonly Token[], end: number): boolean {
  for (let index = end + 1; index < tokens.length; index += 1) if (lowerAt(tokens, index) === 'no' && /[,;]/u.test(tokens[index - 1]?.trailing ?? '')) return true;
  return false;
}

export function hasWordAfter(tokens: readonly Token[], from: number, words: ReadonlySet<string>): boolean {
  for (let index = from; index < tokens.length; index += 1) if (words.has(lowerAt(tokens, index))) return true;
  return false;
}

const EVER_WORDS: ReadonlySet<string> = new Set(['ever', 'whatsoever', 'period']);
export const ANYWHERE_WORDS: ReadonlySet<string> = new Set(['anywhere', 'named', 'mentioned', 'ever', 'nowhere']);
/**
 * "No pork, ever." forbids something for good; a bare "No override." answers a question and is no rule
 * (an exception needs the force of "never": "ever", "whatsoever").
 */
export const acceptNoRule: Accept = (tokens, start, end) => opensWithNo(tokens, start, end) && (hasWordAfter(tokens, end, EVER_WORDS) || anotherNoAfter(tokens, end));

const REPORTED_NO = new Set(['so', 'said', 'says', 'say', 'told', 'means', 'then', 'strictly', 'absolutely', 'definitely']);
/** "said no grapefruit", "so no creatine", "and no downhill repeats" (after a rule). */
export const acceptReportedNo: Accept = (tokens, start, end) => {
  const previous = tokens[start - 1];
  const next = tokens[end];
  if (previous === undefined || next === undefined || /[.!?]/u.test(previous.trailing)) return false;
  if (NO_IDIOMS.has(next.lower) || DETERMINERS.has(next.lower) || next.lower === 'longer' || next.lower === 'more' || next.lower === 'less') return false;
  return REPORTED_NO.has(previous.lower);
};

/** "No client work at all." is a constraint. */
export const acceptNoAtAll: Accept = (tokens, start, end) => {
  if (!opensWithNo(tokens, start, end) || hasWordAfter(tokens, end, EVER_WORDS)) return false;
  for (let index = end; index + 1 < tokens.length; index += 1) if (lowerAt(tokens, index) === 'at' && lowerAt(tokens, index + 1) === 'all') return true;
  return false;
};

export const acceptNow: Accept = (tokens, start) => !['right', 'for', 'just', 'until', 'till', 'by', 'from'].includes(lowerAt(tokens, start - 1)) && lowerAt(tokens, start + 1) !== 'that';

export const acceptNew: Accept = (tokens, start) => ['the', 'our', 'my', 'a', 'their', 'your', 'his', 'her'].includes(lowerAt(tokens, start - 1));

/** Verbs after "always" that tell a feeling or a habit ("they always make us smile"), not a rule. */
const HABIT_VERBS = new Set([
  'make', 'makes', 'remind', 'reminds', 'refresh', 'refreshes', 'look', 'looks', 'love', 'loves', 'enjoy', 'enjoys', 'feel',
  'feels', 'brighten', 'brightens', 'cheer', 'cheers', 'bring', 'brings', 'put', 'puts', 'been', 'wanted', 'dreamed',
  'thought', 'knew', 'had', 'has', 'have', 'manage', 'manages', 'find', 'finds', 'lift', 'lifts', 'inspire', 'inspires',
]);

/** "Always use UTC" or "we always …" is a rule; "I always forget my keys" or "it always made me smile" is not. */
export const acceptAlways: Accept = (tokens, start, end) => {
  const next = lowerAt(tokens, end);
  if (HABIT_VERBS.has(next) || /ed$/u.test(next)) return false;
  return start === 0 || ['we', 'you', 'please', 'must', 'should', 'it', 'and', 'but', 'so', 'they', 'users'].includes(lowerAt(tokens, start - 1));
};
