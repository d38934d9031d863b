/**
 * Cue phrases: the words that make a sentence a constraint, an exception, a goal, a preference,
 * a correction or the removal of something said before. Matching is lexical (a map lookup per token),
 * with small context checks for ambiguous words ("never", "like", "drop" …).
 */
import { mapPacked } from '../../core/packed-map.js';
import {
  ANYWHERE_WORDS,
  NO_IDIOMS,
  acceptAllergic,
  acceptAlways,
  acceptAnymore,
  acceptAnymoreRemoval,
  acceptCannot,
  acceptChange,
  acceptUpTo,
  acceptFromDay,
  acceptDecision,
  acceptDue,
  acceptForget,
  acceptHaveTo,
  acceptImperative,
  acceptLasting,
  acceptLike,
  acceptMust,
  acceptNever,
  acceptNew,
  acceptNoAtAll,
  acceptNoRule,
  acceptOffOrOut,
  acceptNotValue,
  acceptNow,
  acceptOpener,
  acceptOpening,
  acceptRather,
  acceptReportedNo,
  afterHow,
  enablesSomeone,
  hasNegationBefore,
  hasWordAfter,
  lowerAt,
  startsSaying,
  type Accept,
} from './cue-checks.js';
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

interface Pattern {
  kind: CueKind;
  words: readonly string[];
  weak: boolean;
  keyword: boolean;
  accept: Accept | null;
}


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
      "must not|mustn't|cannot ever|can't ever|shall not|under no circumstances|in no case|at no time|not under any circumstances|intolerant|allergy|allergies|reactive to|not to be|not allowed|isn't allowed|aren't allowed|not permitted|is not allowed|are not allowed|celiac|coeliac|anaphylactic",
  },
  // ("You should never give up on your dreams" is a saying.)
  { kind: 'exception', phrases: "do not ever|don't ever|must never|should never|can never|shall never|will never", accept: (tokens, _start, end) => !startsSaying(tokens, end) },
  { kind: 'exception', phrases: 'allergic', accept: acceptAllergic },
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
      'every single|no exceptions|strictly no|non-negotiable|nonnegotiable|required|require|requires|mandatory|at most|at least|no more than|no less than|not more than|not exceed|should not|shouldn\'t|should always|make sure|ensure|no later than|limited to|capped at|up to a maximum|only allowed|is required|are required',
  },
  { kind: 'constraint', phrases: 'have to|has to|need to|needs to', accept: (tokens, start, end) => acceptHaveTo(tokens, start, end) && !afterHow(tokens, start) },
  // "We do not use glyphosate", "we don't take Venmo": the speakers' own policy, a hard rule of the work.
  {
    kind: 'exception',
    phrases:
      "do not use|don't use|do not take|don't take|do not accept|don't accept|do not allow|don't allow|do not do|don't do|do not install|don't install|do not serve|don't serve|do not sell|don't sell|do not work|don't work",
    accept: (tokens, start) => lowerAt(tokens, start - 1) === 'we',
  },
  { kind: 'constraint', phrases: 'always', accept: acceptAlways },
  // "We won't pay in cash": a refusal the speakers commit to ("won't be able to", "won't need" are not).
  {
    kind: 'constraint',
    phrases: "won't|will not|wont",
    accept: (tokens, start, end) => ['i', 'we'].includes(lowerAt(tokens, start - 1)) && !['be', 'have', 'know', 'need', 'make', 'get', 'have'].includes(lowerAt(tokens, end)) && lowerAt(tokens, end) !== '',
  },
  {
    kind: 'constraint',
    phrases: 'need|needs',
    // "We need SSO" is a requirement; "the need for …" is not.
    accept: (tokens, start) =>
      ['we', 'i', 'you', 'it', 'they', 'also', 'still', 'really', 'definitely', 'absolutely', 'app', 'system', 'users', 'site', 'team', 'project', 'product'].includes(lowerAt(tokens, start - 1)) &&
      !afterHow(tokens, start),
  },
  { kind: 'constraint', phrases: 'budget|deadline|limit|maximum|minimum|requirement|requirements|due date|quota|max', keyword: true },
  // "they allow construction 8 to 6", "nothing on Sundays": what is permitted, and when nothing is.
  // ("Art's allowed me to explore …" tells what something made possible.)
  { kind: 'constraint', phrases: 'allow|allows|allowed|permitted|only allow|nothing on|nothing before|nothing after|checks only|cash only|only ever', accept: (tokens, _start, end) => !enablesSomeone(tokens, end) },
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
      "no longer|instead|instead of|changed to|change to|changed it to|change it to|has changed|have changed|changed|changing|scratch that|rather than|moved to|moved|move to|moves to|pushed back|pushed to|postponed|postponed to|switch to|switched to|switching to|correction|i meant|i mean|make that|make it|on second thought|on second thoughts|turns out|turned out|increased to|decreased to|raised to|lowered to|cut to|went up to|dropped to|revised|not anymore|any longer|settled on|in the end|ended up",
  },
  { kind: 'correction', phrases: 'anymore|any more', accept: acceptAnymore },
  { kind: 'correction', phrases: 'up to', accept: acceptUpTo },
  // "the standard weekly rate is $62 starting May 1": a value that takes effect on a day replaces the one before.
  { kind: 'correction', phrases: 'starting|effective|as of', accept: acceptFromDay },
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
      "no longer need|no longer needs|no longer want|no longer require|no longer required|no longer needed|no longer necessary|no longer relevant|no longer using|no longer use|no longer planning|don't need|do not need|doesn't need|does not need|won't need|not needed|not necessary|never mind|nevermind|get rid of|off the table|not going ahead|called off|giving up on|give up on|gave up on|given up on|thing is off|not happening|isn't happening|is not happening|no longer acceptable|no longer an option|no longer possible|no longer happening|no longer going ahead|out of the question",
  },
  // "the Ashgrove thing is off", "walnut is out"; not "the light is off again", "the report is out this week".
  { kind: 'removal', phrases: 'is off|are off|is out|are out|is dead|are dead', accept: acceptOffOrOut },
  { kind: 'removal', phrases: 'forget|forget about', accept: acceptForget },
  // "can you stop with the bullet points?", "no more standups": what was wanted is dropped.
  { kind: 'removal', phrases: 'stop with|stop using|stop doing|stop adding|no more', accept: (tokens, start, end) => lowerAt(tokens, end) !== '' && !NO_IDIOMS.has(lowerAt(tokens, end)) },
  { kind: 'removal', phrases: 'drop|scrap|cancel|ditch|skip|remove|delete', accept: acceptDecision },
  // "Scratch the Redis cache" drops it; "Scratch that, …" only opens a correction.
  { kind: 'removal', phrases: 'scratch', accept: (tokens, start, end) => acceptDecision(tokens, start, end) && lowerAt(tokens, end) !== 'that' },
  { kind: 'removal', phrases: 'cancelled|canceled|dropped|scrapped|removed', accept: (tokens, start) => ['is', 'are', 'was', 'were', 'been', 'got', 'be'].includes(lowerAt(tokens, start - 1)) },
  // "I've cancelled the meet-and-greet" (not "I've dropped Sam a message", "I should have cancelled it ages ago").
  { kind: 'removal', phrases: 'cancelled|canceled', accept: (tokens, start) => ["i've", "we've", "they've"].includes(lowerAt(tokens, start - 1)) },
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
      // "read on some forum that you 'must' put fabric down": a word in quotes is mentioned, not meant.
      if (/^['’"”]/u.test(tokens[end - 1]?.trailing ?? '') && (pattern.kind === 'constraint' || pattern.kind === 'exception')) continue;
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
