/** The words by which a message refers to an artifact version ("the version from turn 3", "v2 of the parser"). */

export const VERSION_NOUNS: ReadonlySet<string> = new Set(['version', 'versions', 'draft', 'drafts', 'revision', 'iteration', 'attempt', 'take', 'copy', 'edition']);
export const NUMBERED_NOUNS: ReadonlySet<string> = new Set(['version', 'draft', 'revision', 'iteration', 'attempt']);
export const CODE_NOUNS: ReadonlySet<string> = new Set([
  'code', 'snippet', 'function', 'script', 'program', 'implementation', 'class', 'query', 'file', 'module', 'method', 'component', 'schema',
]);
export const DRAFT_NOUNS: ReadonlySet<string> = new Set([
  'letter', 'email', 'essay', 'post', 'article', 'story', 'poem', 'speech', 'bio', 'proposal', 'announcement', 'introduction',
  'toast', 'report', 'outline', 'summary', 'statement', 'pitch', 'newsletter', 'resume', 'cv', 'lyrics', 'invitation',
]);
export const DETERMINERS: ReadonlySet<string> = new Set(['the', 'that', 'this', 'your', 'my', 'our', 'its', 'their', 'his', 'her']);
/** Words that end a name: fillers that often follow one ("version 2 of the parser please"). */
export const FILLERS: ReadonlySet<string> = new Set(['please', 'again', 'instead', 'back', 'now', 'today', 'thanks', 'ok', 'okay', 'one']);
/** Verbs that may stand right before "version 2" (a noun there is a product: "Python version 3"). */
export const LEADING_VERBS: ReadonlySet<string> = new Set([
  'use', 'take', 'restore', 'revert', 'show', 'give', 'bring', 'want', 'prefer', 'keep', 'like', 'liked', 'loved', 'need', 'see',
  'paste', 'reuse', 'compare', 'return', 'go', 'send', 'print', 'start', 'resume', 'pick', 'choose', 'preferred',
]);
export const TURN_PREPOSITIONS: ReadonlySet<string> = new Set(['from', 'in', 'at', 'of', 'during']);
export const NUMBER_WORDS: Readonly<Record<string, number>> = {
  second: 2, third: 3, fourth: 4, fifth: 5, sixth: 6, seventh: 7, eighth: 8, ninth: 9, tenth: 10,
};
/** Ordinals that mean "an earlier version" by themselves, so they may stand before a bare name ("the original script"). */
export const EARLIER: Readonly<Record<string, 'first' | 'previous'>> = {
  original: 'first', initial: 'first', previous: 'previous', prior: 'previous', earlier: 'previous', older: 'previous', old: 'previous',
};
export const LATEST: ReadonlySet<string> = new Set(['last', 'latest', 'newest', 'current']);
/** Words of an ordinal phrase, never part of a name. */
export const ORDINAL_WORDS: ReadonlySet<string> = new Set(['first', 'most', 'recent', ...Object.keys(NUMBER_WORDS), ...Object.keys(EARLIER), ...LATEST]);
export const BEFORE_ANCHORS: ReadonlySet<string> = new Set(['one', 'version', 'draft', 'revision', 'iteration']);
export const OF_OR_FOR: ReadonlySet<string> = new Set(['of', 'for']);
export const ARTICLES: ReadonlySet<string> = new Set(['a', 'an']);
/** "before that / this / it / last". */
export const BEFORE_THAT: ReadonlySet<string> = new Set(['that', 'this', 'it', 'last']);
/** "before the latest one / version / draft". */
export const BEFORE_THE_LATEST_NOUNS: ReadonlySet<string> = new Set(['one', 'version', 'draft']);
/** Nouns an earlier version is named by, "one" included ("the one before"). */
export const EARLIER_NOUNS: ReadonlySet<string> = new Set([...VERSION_NOUNS, 'one']);
