/**
 * A message's search terms for the PostgreSQL store, made as the SQLite store's FTS5 index makes them
 * (`tokenize = 'porter unicode61 remove_diacritics 2'`, sqlite/search-index.ts), so that both stores find
 * and rank the same messages: tokens are runs of letters, digits, private-use and (as SQLite's Unicode
 * 6.1 tables have it) unassigned code points, plus the combining accents FTS5 lets a token go on
 * through; each is case-folded with its diacritics removed, then stemmed by FTS5's Porter stemmer.
 * PostgreSQL keeps them as a tsvector whose positions give each term's frequency, and the token count
 * as the message's length for BM25.
 */
import { Buffer } from 'node:buffer';
import { porterStem } from './porter-stemmer.js';

/**
 * Non-ASCII code points FTS5's unicode61 tokenizer takes for separators (its Unicode 6.1 punctuation,
 * symbols, marks, spaces and controls), found by tokenizing every code point with SQLite 3.53 (the parity
 * test checks it against SQLite): ranges, each written as its distance from the end of the one before
 * (the first from U+007F) and, after a dot, how many more code points it spans, in base 36.
 */
const SEPARATOR_RANGES =
  '0.15 1.6 2 1.2 2 3 n v cq.3 c.d 5.6 1 1.3k 5 8 5.1 1 32 3v.7 5s.5 15.1 4 1.1i 17.1 b.4 1.l 2.1 17.k a.3 2 2r 1.e 2.6 f.1 1.d 1 1 u.q 2j.a ' +
  '1m.8 2.3 s.3 1.8 1.2 1.4 2.e q.2 2 3p.q 1.3 1i.2 1.h 1.6 a.3 a g.2 1k 1.6 2.1 2.2 9 a.1 e.1 6.1 5.2 1k 1.4 4.1 2.2 3 u.1 3 b.2 1k 1.7 1.2 ' +
  '1.2 k.1 c.1 f.2 1k 1.6 2.1 2.2 8.1 a.1 c h 1n.4 3.2 1.3 9 r.7 6.2 1m.6 1.2 1.3 7.1 b.1 r 2.1 1k 1.6 1.2 1.3 7.1 b.1 u.1 1m.6 1.2 1.3 9 a.1 l ' +
  '8.1 1y 4.5 1 1.7 i.2 1o 2.6 4 7.8 a.1 2d 2.5 1.1 b.5 1f.u k.b 1d.m 5.a 1.z 1.e 1.c 28.j b.5 6.3 4.2 1.2 2.6 3.3 d.b 1 a.5 2j gx.b 13.9 2u ' +
  'h8.1 h q.1 26.2 10.2 t.4 r.1 u.1 1s.y 1.3 1 y.e 4a 3a.b 4.b 4 3.1 2y.g 7.1 k.x n.4 2.1 1h.9 1.s 2 w.6 1.5 2a.4 1b.g l.y 3.2 u.c 1k.d 8.3 ' +
  '10.j 3.4 1q.1 1s.7 8.o 4 4.2 5n.12 l.3 cd 1.2 b.2 d.2 d.2 d.1 1.2s 5.5 a.4 b.4 h.p m.w f.1 1.3 1.1 a 1.2 5.5 1 1 1 4 b.1 4.4 5.3 1 1s.gz ' +
  'c.12 p.a 29.25 m.e7 1.38 u.qg 3.9 az.5 4.2 7.3 1.1 34 e 2o.26 1.b 1w.p 1.2g c.5x q.b 4.4 3.o 9.6 5.1 5.2 2h.3 3 2i 44.1 4.9 w.z s.u b.t 8 ' +
  'f.v a.12 f.1q 1.73 534.1r h3k.1i 1j.1 7h.2 2n.f w 28.7 8.m 9.1 2v.1 3b 3 4 n.8 a.3 1m.3 8.1 1e.g 9.1 g.h 6.2 17.9 n.c b w.3 1b.q g.1 21.d c ' +
  '8.1 e.3 n.2 1 1g 1.2 2.1 5.1 1 s.1 b.6 3.1 6k.a fn4 a 3s.f ak.1 58.1 2.p 6.6 9.y 1.i 1.3 43 1.e a.6 q.5 q.a 3e.6 1.6 a.6 74.2 1g.8 1l.g 6.b ' +
  '1g.19 bl 1c w6 5j v 5d.2 1.1 5.3 14.2 4 g.8 12 55.6 xs.2 1h.l 1e.2 19.h 1q.2 10.d b.3 1o.2 1c.d 4.3 yq.c 2pk.3 esd.19 g.3 j1p.6t a.12 2.50 ' +
  'y.1x 56.2e oa p v p v p v p v p 4ks.1 7i.17 4.2r c.e 2.d 2.e 1.e 1c.u 1.1n 4.16 23.s d.16 5.8 7.1 4u.w f.5 1.1x 3.j c.10 1.4 l.g f.1q 1 1.51 ' +
  '1.3 3.1p 2.3 c.n 43.1x 4.a 1c.1x 1m.37 gwi5 u.2n 3k.6n';

/** The combining accents (U+0300–U+0331) a token goes on through, dropped from it: [first, last] code points. */
const DIACRITICS: ReadonlyArray<readonly [number, number]> = [
  [0x300, 0x304], [0x306, 0x30c], [0x30f, 0x30f], [0x311, 0x311], [0x31b, 0x31b], [0x323, 0x328], [0x32d, 0x32e], [0x330, 0x331],
];

/** Where SQLite's case folding is not JavaScript's lower-casing: folds lower-casing misses (final sigma, long s …). */
const EXTRA_FOLDS = new Map<number, number>([
  [0xb5, 0x3bc], [0x17f, 0x73], [0x3c2, 0x3c3], [0x3d0, 0x3b2], [0x3d1, 0x3b8], [0x3d5, 0x3c6], [0x3d6, 0x3c0],
  [0x3f0, 0x3ba], [0x3f1, 0x3c1], [0x3f5, 0x3b5], [0x1e9b, 0x1e61], [0x1fbe, 0x3b9],
]);

/** Capital letters newer than SQLite's Unicode 6.1 tables, which it leaves as they are. */
const UNFOLDED: ReadonlyArray<readonly [number, number]> = [
  [0x37f, 0x37f], [0x528, 0x52f], [0x13a0, 0x13f5], [0x1c89, 0x1c89], [0x1c90, 0x1cbf], [0x2c2f, 0x2c2f],
  [0xa698, 0xa69b], [0xa796, 0xa79f], [0xa7ab, 0xa7ae], [0xa7b0, 0xa7ff],
];

/** Letters with diacritics SQLite's table keeps (a with dot above and macron). */
const KEPT_DIACRITICS: ReadonlySet<number> = new Set([0x1e1]);

const inRanges = (ranges: ReadonlyArray<readonly [number, number]>, code: number): boolean => ranges.some(([first, last]) => code >= first && code <= last);

/** What a code point of the Basic Multilingual Plane is to the tokenizer. */
const TOKEN = 0;
const SEPARATOR = 1;
const ACCENT = 2;

/** The Basic Multilingual Plane's code points (TOKEN, SEPARATOR or ACCENT) and the astral separator ranges, decoded once. */
const separators = ((): { basic: Uint8Array; astral: number[][] } => {
  const basic = new Uint8Array(0x10000);
  const astral: number[][] = [];
  let end = 0x7f;
  for (const entry of SEPARATOR_RANGES.split(' ')) {
    const [gap = '0', span = '0'] = entry.split('.');
    const first = end + 1 + parseInt(gap, 36);
    end = first + parseInt(span, 36);
    if (first > 0xffff) astral.push([first, end]);
    else basic.fill(SEPARATOR, first, Math.min(end, 0xffff) + 1);
  }
  for (let code = 0; code < 0x80; code += 1) basic[code] = /[0-9A-Za-z]/u.test(String.fromCharCode(code)) ? TOKEN : SEPARATOR;
  // A lone surrogate reaches SQLite as U+FFFD, a separator.
  basic.fill(SEPARATOR, 0xd800, 0xe000);
  for (const [first, last] of DIACRITICS) basic.fill(ACCENT, first, last + 1);
  return { basic, astral };
})();

/** Whether a code point starts or continues a token. */
function isTokenCharacter(code: number): boolean {
  if (code <= 0xffff) return separators.basic[code] === TOKEN;
  let low = 0;
  let high = separators.astral.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const [first = 0, last = 0] = separators.astral[middle] ?? [];
    if (code < first) high = middle - 1;
    else if (code > last) low = middle + 1;
    else return false;
  }
  return true;
}

/** The code point lower-cased as SQLite folds it (before removing diacritics). */
function lowerCase(code: number): number {
  const extra = EXTRA_FOLDS.get(code);
  if (extra !== undefined) return extra;
  if (inRanges(UNFOLDED, code)) return code;
  const lower = String.fromCharCode(code).toLowerCase();
  return lower.length === 1 ? lower.charCodeAt(0) : code;
}

/** A letter whose decomposition is an ASCII letter and accents becomes that letter, in lower case. */
function withoutDiacritics(code: number): number {
  if (code < 0xc0 || KEPT_DIACRITICS.has(code)) return code;
  const parts = String.fromCharCode(code).normalize('NFD');
  const base = parts.charCodeAt(0) | 0x20;
  if (parts.length < 2 || base < 0x61 || base > 0x7a) return code;
  for (let index = 1; index < parts.length; index += 1) {
    const mark = parts.charCodeAt(index);
    if (mark < 0x300 || mark > 0x36f) return code;
  }
  return base;
}

/** Folds of the Basic Multilingual Plane, computed once each: -1 not yet, 0 dropped (an accent). */
const basicFolds = new Int32Array(0x10000).fill(-1);

/** A non-ASCII token character folded as FTS5 folds it (0: dropped). */
function fold(code: number): number {
  if (code > 0xffff) return code >= 0x10400 && code <= 0x10427 ? code + 40 : code;
  let folded = basicFolds[code] ?? -1;
  if (folded < 0) {
    folded = separators.basic[code] === ACCENT ? 0 : withoutDiacritics(lowerCase(code));
    basicFolds[code] = folded;
  }
  return folded;
}

/** The folded token starting at `start`, where it ends, and whether it is all ASCII once folded. */
function readToken(text: string, start: number): { token: string; end: number; ascii: boolean } {
  const pieces: string[] = [];
  let index = start;
  let plainFrom = start;
  let ascii = true;
  while (index < text.length) {
    const code = text.codePointAt(index) ?? 0;
    if (code < 0x80) {
      if (separators.basic[code] === SEPARATOR) break;
      index += 1;
      continue;
    }
    if (!isTokenCharacter(code) && separators.basic[code] !== ACCENT) break;
    const folded = fold(code);
    pieces.push(text.slice(plainFrom, index).toLowerCase());
    if (folded !== 0) pieces.push(String.fromCodePoint(folded));
    ascii &&= folded < 0x80;
    index += code > 0xffff ? 2 : 1;
    plainFrom = index;
  }
  pieces.push(text.slice(plainFrom, index).toLowerCase());
  return { token: pieces.length === 1 ? (pieces[0] ?? '') : pieces.join(''), end: index, ascii };
}

/** Calls `each` with every token of `text`, folded as FTS5's unicode61 folds it (not stemmed), and whether it is all ASCII. */
function forEachToken(text: string, each: (token: string, ascii: boolean) => void): void {
  let index = 0;
  while (index < text.length) {
    const code = text.codePointAt(index) ?? 0;
    if (!isTokenCharacter(code)) {
      index += code > 0xffff ? 2 : 1;
      continue;
    }
    const { token, end, ascii } = readToken(text, index);
    each(token, ascii);
    index = end;
  }
}

/** FTS5 stems tokens of 3 to 64 bytes (of UTF-8), byte by byte; every rule looks at an ASCII ending. */
function stem(token: string, ascii: boolean): string {
  if (token.length > 64 || token.charCodeAt(token.length - 1) >= 0x80) return token;
  if (ascii) return token.length < 3 ? token : porterStem(token);
  const bytes = Buffer.from(token, 'utf8');
  if (bytes.length < 3 || bytes.length > 64) return token;
  return Buffer.from(porterStem(bytes.toString('latin1')), 'latin1').toString('utf8');
}

/** The terms FTS5 indexes for `text`, in order: each token folded and stemmed (repeats kept). */
export function searchTokens(text: string): string[] {
  const tokens: string[] = [];
  forEachToken(text, (token, ascii) => tokens.push(stem(token, ascii)));
  return tokens;
}

// The tsvector of a message.

/** PostgreSQL's limits (tsvector.h): bytes of a lexeme, a position, positions of a lexeme, bytes of a vector's lexemes and positions. */
const MAX_LEXEME_BYTES = 2046;
const MAX_POSITION = 16383;
const MAX_POSITIONS = 256;
const MAX_VECTOR_BYTES = 1048575;

/** What a messages row keeps for the search: `search_vector` and `search_length`. */
export interface SearchTerms {
  /** A tsvector literal: each lexeme quoted, with the places it holds ("'paint':1,4 'fenc':2"). */
  vector: string;
  /** The row's size in tokens as FTS5 counts it for BM25: the speaker's and the text's, and one for the session column. */
  length: number;
}

/** A lexeme quoted for a tsvector or tsquery literal. */
export function quoteLexeme(lexeme: string): string {
  const escaped = /['\\]/u.test(lexeme) ? lexeme.replaceAll('\\', '\\\\').replaceAll("'", "''") : lexeme;
  return `'${escaped}'`;
}

/** The places PostgreSQL can keep: one past 16383 takes the highest place ≤ 16383 the lexeme does not hold, so the count stays. */
function keptPlaces(places: number[]): number[] {
  if ((places[places.length - 1] ?? 0) <= MAX_POSITION) return places;
  const kept = places.filter((place) => place <= MAX_POSITION);
  const taken = new Set(kept);
  const moved: number[] = [];
  for (let place = MAX_POSITION; kept.length + moved.length < places.length; place -= 1) if (!taken.has(place)) moved.push(place);
  return [...kept, ...moved].sort((first, second) => first - second);
}

/** The tsvector literal: lexemes in order of first appearance, within PostgreSQL's size (see `searchTerms`). */
function vectorLiteral(places: ReadonlyMap<string, number[]>): string {
  const entries: string[] = [];
  let bytes = 0;
  for (const [lexeme, held] of places) {
    const size = Buffer.byteLength(lexeme, 'utf8');
    if (size === 0 || size > MAX_LEXEME_BYTES) continue;
    // The lexeme, a byte of alignment at most, the count of positions and the positions, 2 bytes each.
    bytes += size + 1 + 2 * (held.length + 1);
    if (bytes > MAX_VECTOR_BYTES) break;
    entries.push(`${quoteLexeme(lexeme)}:${keptPlaces(held).join(',')}`);
  }
  return entries.join(' ');
}

/**
 * The search terms of a message's row: its speaker's tokens (places 1, 2 …), then, a place apart so no
 * phrase spans the two, those of its indexed text (`messageText`). Linear in the text. For PostgreSQL's
 * limits: a lexeme over 2046 bytes is left out, a lexeme keeps its first 256 places (a term frequency is
 * capped at 256), places past 16383 are moved below it, and once the vector would pass 1 MB, lexemes first
 * seen later are left out (only a message of hundreds of kilobytes of distinct words gets there). The length
 * counts every token all the same.
 */
export function searchTerms(speaker: string | null, text: string): SearchTerms {
  const places = new Map<string, number[]>();
  let place = 0;
  let tokens = 0;
  const add = (token: string, ascii: boolean): void => {
    const lexeme = stem(token, ascii);
    place += 1;
    tokens += 1;
    const held = places.get(lexeme);
    if (held === undefined) places.set(lexeme, [place]);
    else if (held.length < MAX_POSITIONS) held.push(place);
  };
  forEachToken(speaker ?? '', add);
  if (place > 0) place += 1;
  forEachToken(text, add);
  return { vector: vectorLiteral(places), length: tokens + 1 };
}

/**
 * The lexemes to look up for one query term (a word of `queryTerms`), made as the index makes them: usually
 * one; several are a phrase (their tokens one after another); none (or one PostgreSQL cannot hold) match nothing.
 */
export function queryLexemes(term: string): string[] {
  const lexemes = searchTokens(term);
  return lexemes.some((lexeme) => Buffer.byteLength(lexeme, 'utf8') > MAX_LEXEME_BYTES) ? [] : lexemes;
}
