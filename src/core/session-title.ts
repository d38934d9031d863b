/**
 * Titles of sessions created without one: a placeholder naming the minute the session was created, then,
 * once its first exchange is stored, a short title from what the person said first: its first sentence,
 * without the greeting or the request wrapped around the subject, cut to a few words.
 */

/** The title a session gets when created without one. */
export function placeholderTitle(createdAt: string): string {
  return `Session ${createdAt.slice(0, 16).replace('T', ' ')}`;
}

/** Whether a session still has the placeholder it was created with (so a title from its first exchange may replace it). */
export function hasPlaceholderTitle(session: { title: string; createdAt: string }): boolean {
  return session.title === placeholderTitle(session.createdAt);
}

const MAX_WORDS = 7;
const MAX_CHARACTERS = 60;
/** Only the start of a message is read: a title comes from its first sentences. */
const READ_CHARACTERS = 2000;

/** Openings that are not the subject: greetings, and asking for help. Removed from the front, repeatedly. */
const OPENINGS = [
  /^(?:hi|hello|hey|hiya|good (?:morning|afternoon|evening)|thanks|thank you|ok(?:ay)?|so|right|well|please)(?=[\s,!.:;]|$)[\s,!.:;]*/iu,
  /^(?:can|could|would|will) you(?: please)?(?: help(?: me)?(?: with)?)?\s+/iu,
  /^(?:i(?:'d| would) like (?:you )?to|i (?:want|need) (?:you )?to|i need help with|help me(?: with)?|let's|lets)\s+/iu,
];

/** A sentence without the openings that are not its subject. */
function withoutOpenings(sentence: string): string {
  let rest = sentence.replace(/^[#>*\-\s`]+/u, '').trim();
  for (let changed = true; changed; ) {
    const before = rest;
    for (const opening of OPENINGS) rest = rest.replace(opening, '');
    changed = rest !== before;
  }
  return rest;
}

/** A short title from the first exchange's user message (else the assistant's); null when there are no words. */
export function titleFromExchange(user: string | undefined, assistant: string | undefined): string | null {
  const source = (user ?? '').trim() !== '' ? (user ?? '') : (assistant ?? '');
  // The first sentence with words of its own once a greeting or a request for help is taken off.
  const lines = source.slice(0, READ_CHARACTERS).split(/\r?\n/u);
  // Lines inside a code block are not what a conversation is about.
  let inCode = false;
  const prose = lines.filter((line) => {
    if (/^\s*(```|~~~)/u.test(line)) {
      inCode = !inCode;
      return false;
    }
    return !inCode;
  });
  const sentences = prose.flatMap((line) => line.split(/(?<=[.!?])\s+/u));
  const sentence = sentences.map(withoutOpenings).find((candidate) => /[\p{L}\p{N}]/u.test(candidate)) ?? '';
  const words = sentence.split(/\s+/u).filter((word) => word !== '');
  if (words.length === 0) return null;
  let title = words.slice(0, MAX_WORDS).join(' ');
  let cut = words.length > MAX_WORDS;
  const characters = Array.from(title);
  if (characters.length > MAX_CHARACTERS) {
    // Cut at a word when there is one to cut at, never inside a character (an emoji is two code units).
    const head = characters.slice(0, MAX_CHARACTERS).join('');
    title = /\s/u.test(head) ? head.replace(/\s+\S*$/u, '') : head;
    cut = true;
  }
  title = title.replace(/[\s,;:.!?\-–—]+$/u, '');
  return title === '' ? null : `${title.charAt(0).toUpperCase()}${title.slice(1)}${cut ? '…' : ''}`;
}
