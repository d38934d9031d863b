/**
 * Cue phrases: the words that make a sentence a constraint, an exception, a goal, a preference,
 * a correction or the removal of something said before. Matching is lexical (a map lookup per token),
 * with small context checks for ambiguous words ("never", "like", "drop" …).
 */
import { mapPacked } from '../../core/packed-map.js';
import { COPULAS, DETERMINERS, MODALS, MONTHS, NEGATIONS, SMALL_TALK_WORDS, WEEKDAYS } from './function-words.js';
import type { Token } from './tokens.js';

export type CueKind = 'exception' | 'constraint' | 'goal' | 'preference' | 'correction' | 'removal';

export interface Cue {
  kind: CueKind;
  /** Index of the first token of the cue. */
  start: number;
  /** Index just after the last token of the cue. */
  end: number;
  /** The cue as matched, lower-case. */
  phrase: string;
  /** A weak correction ("now", "new") counts only when it names a known fact outright. */
  weak: boolean;
  /** The cue is a noun that also names the fact ("budget", "deadline"). */
  keyword: boolean;
}

type Accept = (tokens: readonly Token[], start: number, end: number) => boolean;

interface Pattern {
  kind: CueKind;
  words: readonly string[];
  weak: boolean;
  keyword: boolean;
  accept: Accept | null;
}

const lowerAt = (tokens: readonly Token[], index: number): string => tokens[index]?.lower ?? '';

const NEVER_PAST = new Set([
  'been', 'had', 'seen', 'heard', 'thought', 'knew', 'was', 'were', 'did', 'went', 'got', 'made', 'met', 'told',
  'said', 'understood', 'done', 'gone', 'tried', 'felt', 'read', 'saw', 'came', 'took', 'found', 'expected',
  'imagined', 'realized', 'realised', 'forget', 'mind', 'really',
]);
const NEVER_SUBJECTS = new Set([
  ...MODALS, 'we', 'you', 'i', 'please', 'just', 'and', 'but', 'so', 'to', 'ever', 'should', 'must', 'it', 'they',
  'users', 'anyone', 'nobody', 'one', 'is', 'are', 'am', "we're", "i'm", "he's", "she's", "they're", "it's", 'was', 'were', 'absolutely', 'simply', 'just',
]);

/** "never" is a rule ("we never deploy on Fridays"), not a memory ("I've never been to Paris"). */
const acceptNever: Accept = (tokens, start, end) => {
  const previous = lowerAt(tokens, start - 1);
  // "…, never non-refundable": a rule going on after a comma.
  const listed = /[,;]/u.test(tokens[start - 1]?.trailing ?? '');
  if (start > 0 && !NEVER_SUBJECTS.has(previous) && !listed) return false;
  let next = lowerAt(tokens, end);
  if (next === 'ever') next = lowerAt(tokens, end + 1);
  if (next === '' || NEVER_PAST.has(next) || /ed$/u.test(next)) return false;
  return true;
};

const LIKE_SUBJECTS = new Set([
  'i', 'we', 'you', 'they', 'he', 'she', 'really', 'also', 'still', 'do', 'does', "don't", "doesn't", "didn't",
  'totally', 'kinda', 'both', 'always', 'genuinely', 'absolutely', 'definitely', 'personally', 'would', "i'd",
  "we'd", 'just', 'truly', 'especially', 'mostly', 'usually', 'all', 'not', 'never', 'honestly', 'actually',
]);

/** "like" and "love" are preferences only after a subject ("I really like …"), not in "looks like". */
const acceptLike: Accept = (tokens, start) => {
  const previous = tokens[start - 1];
  if (previous === undefined) return false;
  // "taking Nurofen like sweets": a comparison after an object, not a liking.
  const before = tokens[start - 2];
  if (before !== undefined && 'pos' in before && before.pos === 'verb' && !LIKE_SUBJECTS.has(previous.lower)) return false;
  // "Wow, love that painting!" is a reaction, not a lasting preference.
  if (/[,!]/u.test(previous.trailing)) return false;
  return LIKE_SUBJECTS.has(previous.lower) || (previous.capitalised && previous.lower !== 'i' && !SMALL_TALK_WORDS.has(previous.lower));
};

const acceptRather: Accept = (tokens, start) => ["i'd", "we'd", 'would', "you'd", "they'd"].includes(lowerAt(tokens, start - 1));

const DECISION_OPENERS = new Set([
  "let's", 'lets', 'please', 'just', 'so', 'and', 'then', 'ok', 'okay', 'actually', 'also', 'can', 'could', 'we',
  'you', 'should', 'to', 'gonna', 'will', "we'll", "i'll", 'wanna',
]);

/** "drop", "cancel", "skip" … remove something only as a decision ("let's drop the cache"). */
const acceptDecision: Accept = (tokens, start) => start === 0 || DECISION_OPENERS.has(lowerAt(tokens, start - 1));

/** "forget the Redis cache" removes it; "don't forget to …" does not. */
const acceptForget: Accept = (tokens, start, end) => {
  const previous = lowerAt(tokens, start - 1);
  if (["don't", 'do', 'never', 'not', "won't", "didn't", 'to', 'i', 'always', 'sometimes', 'often'].includes(previous)) {
    return false;
  }
  return lowerAt(tokens, end) !== 'to';
};

/** "must have been" and "it must be nice" are guesses, not rules; "the API must be fast" is a rule. */
const acceptMust: Accept = (tokens, start, end) => {
  const next = lowerAt(tokens, end);
  if (['have', "'ve", 'not', 'never'].includes(next)) return false;
  return next !== 'be' || !['it', 'that', 'this', 'there', 'you', 'he', 'she', 'they', 'which'].includes(lowerAt(tokens, start - 1));
};

const HAVE_TO_IDIOMS = new Set(['say', 'admit', 'agree', 'laugh', 'tell', 'thank', 'ask', 'wonder', 'hand', 'love', 'give']);
/** "I have to say …" is a figure of speech. */
const acceptHaveTo: Accept = (tokens, _start, end) => !HAVE_TO_IDIOMS.has(lowerAt(tokens, end));

const CANNOT_IDIOMS = new Set([
  'believe', 'wait', 'remember', 'imagine', 'help', 'tell', 'say', 'decide', 'find', 'sleep', 'stop', 'thank', 'get',
  'agree', 'complain', 'even', 'think', 'see', 'stand',
]);
const acceptCannot: Accept = (tokens, _start, end) => !CANNOT_IDIOMS.has(lowerAt(tokens, end));

/** "Don't use tabs" at the start of a sentence is an instruction. */
/** Verbs of talk and feeling: "don't ask", "don't laugh", "don't worry" ask nothing of the work. */
const CONVERSATIONAL_VERBS = new Set(['ask', 'laugh', 'worry', 'panic', 'judge', 'tell', 'mind', 'bother', 'get', 'forget', 'be', 'say', 'think', 'know', 'care', 'hate', 'let', 'make', 'go', 'stress']);

const acceptImperative: Accept = (tokens, start, end) =>
  (start === 0 || ['please', 'and', 'but', 'so', 'just', 'also'].includes(lowerAt(tokens, start - 1))) && !CONVERSATIONAL_VERBS.has(lowerAt(tokens, end));

function hasNegationBefore(tokens: readonly Token[], start: number, window: number): boolean {
  for (let index = Math.max(0, start - window); index < start; index += 1) {
    const word = lowerAt(tokens, index);
    if (NEGATIONS.has(word) || word.endsWith("n't")) return true;
  }
  return false;
}

const REMOVAL_VERBS = new Set(['need', 'needs', 'needed', 'want', 'wants', 'require', 'requires', 'required', 'use', 'using', 'doing', 'necessary', 'relevant', 'planning', 'plan']);

const DUE_FOLLOWERS = new Set(['by', 'on', 'in', 'before', 'at', 'date', 'next', 'this', 'end', 'today', 'tomorrow', 'tonight']);
/** "due by Friday", "due 30 June", "due March 3": a deadline; "due to the rain" is not. */
const acceptDue: Accept = (tokens, _start, end) => {
  const next = tokens[end];
  if (next === undefined) return false;
  return DUE_FOLLOWERS.has(next.lower) || next.hasDigit || MONTHS.has(next.lower) || WEEKDAYS.has(next.lower);
};

/** "not … anymore" is a correction. */
const acceptAnymore: Accept = (tokens, start) => hasNegationBefore(tokens, start, 8);

/** "we don't need SSO anymore" drops something. */
const acceptAnymoreRemoval: Accept = (tokens, start) => {
  if (!hasNegationBefore(tokens, start, 8)) return false;
  for (let index = Math.max(0, start - 8); index < start; index += 1) {
    if (REMOVAL_VERBS.has(lowerAt(tokens, index))) return true;
  }
  return false;
};

/** At the start of the sentence, or right after an opener such as "No," or "Oh,". */
const acceptOpening: Accept = (tokens, start) => start === 0 || (start <= 2 && /[,:;–—-]/u.test(tokens[start - 1]?.trailing ?? ''));

/** Whether the word can start a value: a number, an amount or a name. */
function valueStart(token: Token | undefined): boolean {
  return token !== undefined && (token.hasDigit || /^[$€£¥]/u.test(token.text) || (token.capitalised && token.lower !== 'i'));
}

/** ", not $1,200", "— not Ireland": a value set against the new one. */
const acceptNotValue: Accept = (tokens, start, end) => {
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
const acceptChange: Accept = (tokens, start, end) => {
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

/** "from now on", "for everything" make a lasting instruction only in a request or a statement about the work, not in a question. */
const acceptLasting: Accept = (tokens, start) => tokens[start] !== undefined && !tokens.slice(0, start).some((token) => /\?/u.test(token.trailing));

/** "No, …" or "Wait, …" opening a sentence corrects what was said. */
const acceptOpener: Accept = (tokens, start) => start === 0 && /,/u.test(tokens[0]?.trailing ?? '');

const NO_IDIOMS = new Set(['problem', 'problems', 'worries', 'worry', 'way', 'idea', 'thanks', 'clue', 'doubt', 'one', 'need', 'big', 'rush', 'pressure', 'kidding', 'wonder', 'matter', 'offense']);

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

function hasWordAfter(tokens: readonly Token[], from: number, words: ReadonlySet<string>): boolean {
  for (let index = from; index < tokens.length; index += 1) if (words.has(lowerAt(tokens, index))) return true;
  return false;
}

const EVER_WORDS: ReadonlySet<string> = new Set(['ever', 'whatsoever', 'period']);
const ANYWHERE_WORDS: ReadonlySet<string> = new Set(['anywhere', 'named', 'mentioned', 'ever', 'nowhere']);
/**
 * "No pork, ever." forbids something for good; a bare "No override." answers a question and is no rule
 * (an exception needs the force of "never": "ever", "whatsoever").
 */
const acceptNoRule: Accept = (tokens, start, end) => opensWithNo(tokens, start, end) && (hasWordAfter(tokens, end, EVER_WORDS) || anotherNoAfter(tokens, end));

const REPORTED_NO = new Set(['so', 'said', 'says', 'say', 'told', 'means', 'then', 'strictly', 'absolutely', 'definitely']);
/** "said no grapefruit", "so no creatine", "and no downhill repeats" (after a rule). */
const acceptReportedNo: Accept = (tokens, start, end) => {
  const previous = tokens[start - 1];
  const next = tokens[end];
  if (previous === undefined || next === undefined || /[.!?]/u.test(previous.trailing)) return false;
  if (NO_IDIOMS.has(next.lower) || DETERMINERS.has(next.lower) || next.lower === 'longer' || next.lower === 'more' || next.lower === 'less') return false;
  return REPORTED_NO.has(previous.lower);
};

/** "No client work at all." is a constraint. */
const acceptNoAtAll: Accept = (tokens, start, end) => {
  if (!opensWithNo(tokens, start, end) || hasWordAfter(tokens, end, EVER_WORDS)) return false;
  for (let index = end; index + 1 < tokens.length; index += 1) if (lowerAt(tokens, index) === 'at' && lowerAt(tokens, index + 1) === 'all') return true;
  return false;
};

const acceptNow: Accept = (tokens, start) => !['right', 'for', 'just', 'until', 'till', 'by', 'from'].includes(lowerAt(tokens, start - 1)) && lowerAt(tokens, start + 1) !== 'that';

const acceptNew: Accept = (tokens, start) => ['the', 'our', 'my', 'a', 'their', 'your', 'his', 'her'].includes(lowerAt(tokens, start - 1));

/** "Always use UTC" or "we always …" is a rule; "I always forget my keys" is not. */
const acceptAlways: Accept = (tokens, start) =>
  start === 0 || ['we', 'you', 'please', 'must', 'should', 'it', 'and', 'but', 'so', 'they', 'users'].includes(lowerAt(tokens, start - 1));

interface PatternGroup {
  kind: CueKind;
  phrases: string;
  weak?: boolean;
  keyword?: boolean;
  accept?: Accept;
}

const GROUPS: readonly PatternGroup[] = [
  // Exceptions: hard prohibitions, pinned by the engine.
  { kind: 'exception', phrases: 'never|never ever', accept: acceptNever },
  {
    kind: 'exception',
    phrases:
      "must not|mustn't|must never|should never|can never|cannot ever|can't ever|shall not|shall never|will never|do not ever|don't ever|under no circumstances|in no case|at no time|not under any circumstances|allergic|intolerant|allergy|allergies|reactive to|not to be|not allowed|isn't allowed|aren't allowed|not permitted|is not allowed|are not allowed",
  },
  { kind: 'exception', phrases: 'no', accept: acceptNoRule },
  // "banned", "forbidden" negated ("It's not on their banned list") permit rather than forbid.
  { kind: 'exception', phrases: 'forbidden|prohibited|off limits|off-limits|banned', accept: (tokens, start) => !hasNegationBefore(tokens, start, 4) },
  // "does not want them named anywhere in this application": a ban, not a mood.
  { kind: 'exception', phrases: "don't want|do not want|doesn't want|does not want|never want", accept: (tokens, _start, end) => hasWordAfter(tokens, end, ANYWHERE_WORDS) },
  { kind: 'constraint', phrases: 'no', accept: acceptNoAtAll },
  // "my GP said no grapefruit", "…, so no creatine": a ban reported or concluded.
  { kind: 'constraint', phrases: 'no', accept: acceptReportedNo },
  // Constraints.
  { kind: 'constraint', phrases: 'must', accept: acceptMust },
  { kind: 'constraint', phrases: "can't|cannot|can not", accept: acceptCannot },
  {
    kind: 'constraint',
    phrases:
      'no exceptions|strictly no|non-negotiable|nonnegotiable|required|require|requires|mandatory|at most|at least|no more than|no less than|not more than|not exceed|should not|shouldn\'t|should always|make sure|ensure|no later than|limited to|capped at|up to a maximum|only allowed|is required|are required',
  },
  { kind: 'constraint', phrases: 'have to|has to|need to|needs to', accept: acceptHaveTo },
  { kind: 'constraint', phrases: 'always', accept: acceptAlways },
  {
    kind: 'constraint',
    phrases: 'need|needs',
    // "We need SSO" is a requirement; "the need for …" is not.
    accept: (tokens, start) => ['we', 'i', 'you', 'it', 'they', 'also', 'still', 'really', 'definitely', 'absolutely', 'app', 'system', 'users', 'site', 'team', 'project', 'product'].includes(lowerAt(tokens, start - 1)),
  },
  { kind: 'constraint', phrases: 'budget|deadline|limit|maximum|minimum|requirement|requirements|due date|quota|max', keyword: true },
  // "they allow construction 8 to 6", "nothing on Sundays": what is permitted, and when nothing is.
  { kind: 'constraint', phrases: 'allow|allows|allowed|permitted|only allow|nothing on|nothing before|nothing after|checks only|cash only|only ever' },
  { kind: 'constraint', phrases: 'due', accept: acceptDue },
  { kind: 'constraint', phrases: 'may only|can only|should only|must only|only allowed|allowed only' },
  { kind: 'constraint', phrases: "don't|do not|please don't|please do not", accept: acceptImperative },
  // Goals.
  {
    kind: 'goal',
    phrases:
      "want to|wants to|wanna|would like to|i'd like to|we'd like to|would love to|i'd love to|we'd love to|goal|goals|aim to|aiming to|aim is|aiming for|plan to|plans to|planning to|planning on|trying to|hope to|hoping to|hopes to|intend to|intends to|looking to|objective|dream of|dream is|working towards|working toward|wish to|aspire to|target is|our target|my target|mission is",
  },
  // Preferences.
  { kind: 'preference', phrases: 'like|likes|love|loves|adore|adores', accept: acceptLike },
  { kind: 'preference', phrases: 'rather', accept: acceptRather },
  // "We want PostgreSQL 16" (not "want to …", which is a goal).
  { kind: 'preference', phrases: 'want|wants', accept: (tokens, start, end) => acceptLike(tokens, start, end) && !['to', 'you', 'him', 'her', 'them', 'me', 'us', 'it'].includes(lowerAt(tokens, end)) },
  {
    kind: 'preference',
    phrases:
      "prefer|prefers|preferred|preference|preferably|favourite|favorite|favourites|favorites|hate|hates|dislike|dislikes|enjoy|enjoys|can't stand|cannot stand|fan of|big fan|keen on|fond of|not a fan|into|passionate about|obsessed with|i'd rather|we'd rather|would rather|rather not",
    accept: (tokens, start, end) => {
      const phrase = mapPacked(tokens.slice(start, end), (token) => token.lower).join(' ');
      if (phrase !== 'into') return true;
      // "I'm really into hiking" but not "look into it".
      const previous = lowerAt(tokens, start - 1);
      return ["i'm", "we're", 'really', 'totally', 'so', 'am', 'are', 'is', "he's", "she's", "they're"].includes(previous);
    },
  },
  // Lasting instructions about the work ("from now on", "for everything").
  { kind: 'preference', phrases: 'from now on|going forward|for everything|by default|every time|each time', accept: acceptLasting },
  // Corrections.
  {
    kind: 'correction',
    phrases:
      "no longer|instead|instead of|changed to|change to|changed it to|change it to|has changed|have changed|changed|changing|scratch that|rather than|moved to|moved|pushed back|pushed to|postponed|postponed to|switch to|switched to|switching to|correction|i meant|i mean|make that|make it|on second thought|on second thoughts|turns out|turned out|increased to|decreased to|raised to|lowered to|cut to|went up to|dropped to|revised|not anymore|any longer",
  },
  { kind: 'correction', phrases: 'anymore|any more', accept: acceptAnymore },
  // "Actually, …" corrects; "is actually current" is only emphasis (weak: it must name a fact outright).
  { kind: 'correction', phrases: 'actually', accept: acceptOpening },
  { kind: 'correction', phrases: 'actually', weak: true, accept: (tokens, start, end) => !acceptOpening(tokens, start, end) },
  // "It's $900 now, not $1,200": the value after "not" is the old one.
  { kind: 'correction', phrases: 'not', accept: acceptNotValue },
  {
    kind: 'correction',
    phrases:
      'cut|raised|lowered|increased|decreased|reduced|extended|delayed|bumped|shortened|doubled|halved|switched|shifted|upped|moving|raising|cutting|increasing|reducing|extending|shifting|switching|lowering|delaying|knocked|brought|dropped|pushed|slid|moved',
    accept: acceptChange,
  },
  { kind: 'correction', phrases: 'no|wait|sorry|oops|correction', accept: acceptOpener },
  { kind: 'correction', phrases: 'now|currently', weak: true, accept: acceptNow },
  { kind: 'correction', phrases: 'new|updated|update', weak: true, accept: acceptNew },
  // Removals: the thing is dropped.
  {
    kind: 'removal',
    phrases:
      "no longer need|no longer needs|no longer want|no longer require|no longer required|no longer needed|no longer necessary|no longer relevant|no longer using|no longer use|no longer planning|don't need|do not need|doesn't need|does not need|won't need|not needed|not necessary|never mind|nevermind|get rid of|off the table|not going ahead|called off|giving up on|give up on|gave up on|given up on|is off|are off|thing is off|not happening|isn't happening|is not happening|no longer acceptable|no longer an option|no longer possible|no longer happening|no longer going ahead|is out|are out|out of the question",
  },
  { kind: 'removal', phrases: 'forget|forget about', accept: acceptForget },
  // "can you stop with the bullet points?", "no more standups": what was wanted is dropped.
  { kind: 'removal', phrases: 'stop with|stop using|stop doing|stop adding|no more', accept: (tokens, start, end) => lowerAt(tokens, end) !== '' && !NO_IDIOMS.has(lowerAt(tokens, end)) },
  { kind: 'removal', phrases: 'drop|scrap|cancel|ditch|skip|remove|delete', accept: acceptDecision },
  // "Scratch the Redis cache" drops it; "Scratch that, …" only opens a correction.
  { kind: 'removal', phrases: 'scratch', accept: (tokens, start, end) => acceptDecision(tokens, start, end) && lowerAt(tokens, end) !== 'that' },
  { kind: 'removal', phrases: 'cancelled|canceled|dropped|scrapped|removed', accept: (tokens, start) => ['is', 'are', 'was', 'were', 'been', 'got', 'be'].includes(lowerAt(tokens, start - 1)) },
  { kind: 'removal', phrases: 'anymore|any more', accept: acceptAnymoreRemoval },
];

/** Patterns indexed by their first word, longest first. */
const PATTERNS_BY_FIRST_WORD: ReadonlyMap<string, readonly Pattern[]> = (() => {
  const index = new Map<string, Pattern[]>();
  for (const group of GROUPS) {
    for (const phrase of group.phrases.split('|')) {
      const words = phrase.split(' ');
      const first = words[0];
      if (first === undefined) continue;
      const list = index.get(first) ?? [];
      list.push({ kind: group.kind, words, weak: group.weak ?? false, keyword: group.keyword ?? false, accept: group.accept ?? null });
      index.set(first, list);
    }
  }
  for (const list of index.values()) list.sort((a, b) => b.words.length - a.words.length);
  return index;
})();

/** Words that begin a cue: a sentence without any of them has no cue, so it needs no further look. */
export function mayHaveCue(tokens: readonly Token[]): boolean {
  return tokens.some((token) => PATTERNS_BY_FIRST_WORD.has(token.lower));
}

/** Every cue of a sentence, in order; a cue inside a longer cue of the same kind family is dropped. */
export function findCues(tokens: readonly Token[]): Cue[] {
  const found: Cue[] = [];
  for (let index = 0; index < tokens.length; index += 1) {
    const token = tokens[index];
    if (token === undefined) continue;
    const patterns = PATTERNS_BY_FIRST_WORD.get(token.lower);
    if (patterns === undefined) continue;
    // A capitalised word inside a sentence is a name ("Max", "Will", "May"), not a cue.
    if (index > 0 && token.capitalised && token.lower !== 'i' && !token.lower.startsWith("i'")) continue;
    const kinds = new Set<CueKind>();
    for (const pattern of patterns) {
      if (kinds.has(pattern.kind)) continue;
      const end = index + pattern.words.length;
      if (end > tokens.length) continue;
      let matches = true;
      for (let offset = 1; offset < pattern.words.length; offset += 1) {
        if (lowerAt(tokens, index + offset) !== pattern.words[offset]) {
          matches = false;
          break;
        }
      }
      if (!matches) continue;
      if (pattern.accept !== null && !pattern.accept(tokens, index, end)) continue;
      kinds.add(pattern.kind);
      found.push({ kind: pattern.kind, start: index, end, phrase: pattern.words.join(' '), weak: pattern.weak, keyword: pattern.keyword });
    }
  }
  // Drop a cue that lies inside a longer one ("like" inside "would like to", "need" inside "don't need").
  return found.filter(
    (cue) =>
      !found.some(
        (other) =>
          other !== cue &&
          other.start <= cue.start &&
          other.end >= cue.end &&
          other.end - other.start > cue.end - cue.start &&
          !(cue.kind === 'correction' || other.kind === 'correction'),
      ),
  );
}

const KIND_RANK: Readonly<Record<CueKind, number>> = {
  exception: 5,
  constraint: 4,
  goal: 3,
  preference: 2,
  correction: 1,
  removal: 1,
};

/** The cue that decides a statement's kind: the strongest fact kind, earliest on a tie. */
export function primaryCue(cues: readonly Cue[]): Cue | null {
  let best: Cue | null = null;
  for (const cue of cues) {
    if (cue.kind === 'correction' || cue.kind === 'removal') continue;
    if (best === null || KIND_RANK[cue.kind] > KIND_RANK[best.kind]) best = cue;
  }
  return best;
}
