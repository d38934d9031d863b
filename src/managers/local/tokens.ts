/** A whitespace-delimited word of a sentence, with its surrounding punctuation split off. */
export interface Token {
  /** The word as written, without leading or trailing punctuation. */
  text: string;
  /** Lower-case form with curly apostrophes straightened. */
  lower: string;
  /** Offset of `text` in the sentence. */
  start: number;
  /** Offset just after `text` in the sentence. */
  end: number;
  /** Punctuation written right after the word ('' when none), including stand-alone dashes that follow. */
  trailing: string;
  /** Whether the word starts with an upper-case letter. */
  capitalised: boolean;
  /** Whether the word contains a digit. */
  hasDigit: boolean;
}

const LEADING_PUNCTUATION = /^[("'“‘[{*_`<>•\-–—]+/u;
const TRAILING_PUNCTUATION = /[)"'”’\]}*_`.,!?;:…>\-–—]+$/u;
const WORD_CHARACTER = /[\p{L}\p{N}$€£¥%#@]/u;

/** Split a sentence into word tokens. Pure punctuation is attached to the previous token's `trailing`. */
export function tokenize(sentence: string): Token[] {
  const tokens: Token[] = [];
  for (const match of sentence.matchAll(/\S+/gu)) {
    const chunk = match[0];
    const offset = match.index;
    const lead = LEADING_PUNCTUATION.exec(chunk)?.[0].length ?? 0;
    const rest = chunk.slice(lead);
    const trail = TRAILING_PUNCTUATION.exec(rest);
    let core = trail === null ? rest : rest.slice(0, trail.index);
    let trailing = trail === null ? '' : trail[0];
    // Keep the dot of an abbreviation such as "U.S." or "e.g." inside the word.
    if (trailing.startsWith('.') && /\p{L}\.\p{L}$/u.test(core)) {
      core = `${core}.`;
      trailing = trailing.slice(1);
    }
    if (core === '' || !WORD_CHARACTER.test(core)) {
      const previous = tokens[tokens.length - 1];
      if (previous !== undefined) previous.trailing += chunk;
      continue;
    }
    const start = offset + lead;
    const first = core.charAt(0);
    tokens.push({
      text: core,
      lower: core.toLowerCase().replace(/[’‘]/gu, "'"),
      start,
      end: start + core.length,
      trailing,
      capitalised: first !== first.toLowerCase() && first === first.toUpperCase(),
      hasDigit: /\p{N}/u.test(core),
    });
  }
  return tokens;
}

/** Whether a clause ends after this token (comma, semicolon, colon, dash, sentence end). */
export function endsClause(token: Token): boolean {
  return /[,;:.!?…–—-]/u.test(token.trailing);
}

/** The sentence text from the start of token `from` to the end of token `to` (inclusive), verbatim. */
export function sliceTokens(sentence: string, tokens: readonly Token[], from: number, to: number): string {
  const first = tokens[from];
  const last = tokens[to];
  if (first === undefined || last === undefined || to < from) return '';
  return sentence.slice(first.start, last.end);
}
