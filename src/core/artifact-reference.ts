/**
 * References to earlier artifact versions in a user message ("the version from turn 3", "the first
 * draft of the cover letter", "v2 of the parser", "the one before that"), and their resolution
 * against a session's artifacts. Pure: no I/O.
 *
 * Parsing is syntactic and deliberately narrow: a phrase counts only when a turn number, a version
 * number or an ordinal stands next to a version noun (version, draft, revision …) or an artifact-like
 * name. Resolution then keeps only references that name an artifact of the session (or, when they name
 * none, an unambiguous one), so ordinary talk about turns and versions adds nothing.
 */
import { STOPWORDS } from './query-terms.js';
import { compareText, words } from './text.js';
import type { Artifact, ArtifactKind, ArtifactVersion } from './types.js';
import {
  ARTICLES,
  BEFORE_ANCHORS,
  BEFORE_THAT,
  BEFORE_THE_LATEST_NOUNS,
  CODE_NOUNS,
  DETERMINERS,
  DRAFT_NOUNS,
  EARLIER,
  EARLIER_NOUNS,
  FILLERS,
  LATEST,
  LEADING_VERBS,
  NUMBERED_NOUNS,
  NUMBER_WORDS,
  OF_OR_FOR,
  ORDINAL_WORDS,
  TURN_PREPOSITIONS,
  VERSION_NOUNS,
} from './artifact-reference-words.js';

/** Which version a reference asks for: the one current at a turn, or one by its place in the history. */
export type VersionSelector = { turn: number } | { ordinal: number | 'first' | 'previous' | 'latest' };

/** A reference to an artifact version found in a text. */
export interface ArtifactReference {
  /** Normalised words that name the artifact ("cover", "letter"); empty when the reference names none. */
  nameHint: string[];
  /** The kind a generic noun points to ("script", "function" → code; "draft" → draft), or null. */
  kindHint: ArtifactKind | null;
  selector: VersionSelector;
  /** The words of the text that make the reference, lower-cased. */
  phrase: string;
}

/** A reference resolved to one stored version. */
export interface ResolvedArtifactVersion {
  artifactId: string;
  name: string;
  kind: ArtifactKind;
  language: string | null;
  version: ArtifactVersion;
}

/** At most this many references are read from one text, and resolved. */
const MAX_ARTIFACT_REFERENCES = 4;

interface Token {
  /** Lower-cased text; '' for a break (punctuation, line end). */
  text: string;
  kind: 'word' | 'possessive' | 'break';
  /** Looks like an identifier or a file name: backticked, snake_case, camelCase, a path or an extension. */
  identifier: boolean;
  /** As written. */
  raw: string;
}

const TOKEN = /`([^`\n]{1,80})`|([\p{L}\p{N}_]+(?:[./-][\p{L}\p{N}_]+)*)|(['’]s\b)|([.,;:!?()[\]"\n]|\s-\s)/gu;

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  for (const match of text.matchAll(TOKEN)) {
    const [, code, word, possessive] = match;
    if (code !== undefined) tokens.push({ text: code.toLowerCase(), kind: 'word', identifier: true, raw: code });
    else if (word !== undefined) {
      const identifier = /[_/]|[a-z][A-Z]|\.[A-Za-z]/u.test(word);
      tokens.push({ text: word.toLowerCase(), kind: 'word', identifier, raw: word });
    } else if (possessive !== undefined) tokens.push({ text: "'s", kind: 'possessive', identifier: false, raw: possessive });
    else tokens.push({ text: '', kind: 'break', identifier: false, raw: match[0] });
  }
  return tokens;
}

/** A whole number of at most six digits. */
function numberOf(token: Token | undefined): number | null {
  return token?.kind === 'word' && /^\d{1,6}$/u.test(token.text) ? Number(token.text) : null;
}

/** Whether `token` is the word `words` names: one word, or any of a set. */
function isWord(token: Token | undefined, words: ReadonlySet<string> | string): boolean {
  return token?.kind === 'word' && (typeof words === 'string' ? token.text === words : words.has(token.text));
}

/** A word that may be part of a name: not a function word, a filler or a version noun. */
function isNameWord(token: Token | undefined): boolean {
  if (token?.kind !== 'word') return false;
  if (token.identifier) return true;
  return !STOPWORDS.has(token.text) && !FILLERS.has(token.text) && !VERSION_NOUNS.has(token.text) && !/^\d+$/u.test(token.text);
}

/** Name words from `index` on, at most three. */
function wordsAfter(tokens: readonly Token[], index: number): Token[] {
  const found: Token[] = [];
  for (let position = index; found.length < 3 && isNameWord(tokens[position]); position += 1) found.push(tokens[position] as Token);
  return found;
}

/** Name words ending right before `index`, at most three, in text order. */
function wordsBefore(tokens: readonly Token[], index: number): Token[] {
  const found: Token[] = [];
  for (let position = index - 1; found.length < 3 && isNameWord(tokens[position]); position -= 1) found.unshift(tokens[position] as Token);
  return found;
}

/** "of the cover letter" / "for parse_config" starting at `index`: the name words and where the phrase ends. */
function ofClause(tokens: readonly Token[], index: number): { words: Token[]; end: number } {
  if (!isWord(tokens[index], OF_OR_FOR)) return { words: [], end: index };
  let position = index + 1;
  if (isWord(tokens[position], DETERMINERS)) position += 1;
  const words = wordsAfter(tokens, position);
  return words.length === 0 ? { words: [], end: index } : { words, end: position + words.length };
}

/** "the parser's" ending right before `index`: the name words before the possessive. */
function possessiveName(tokens: readonly Token[], index: number): Token[] {
  return tokens[index - 1]?.kind === 'possessive' ? wordsBefore(tokens, index - 1) : [];
}

/** Whether the words look like an artifact: a version noun, a code or draft noun, or an identifier. */
function artifactLike(words: readonly Token[]): boolean {
  return words.some((word) => word.identifier || VERSION_NOUNS.has(word.text) || CODE_NOUNS.has(word.text) || DRAFT_NOUNS.has(word.text) || word.text === 'one');
}

interface Match {
  start: number;
  end: number;
  words: Token[];
  selector: VersionSelector;
  versionNoun: string | null;
}

function reference(tokens: readonly Token[], match: Match): ArtifactReference {
  const nameHint = [...new Set(match.words.flatMap((word) => words(word.text)))].filter(
    (word) => !VERSION_NOUNS.has(word) && !FILLERS.has(word) && !ORDINAL_WORDS.has(word),
  );
  const kindHint: ArtifactKind | null = nameHint.some((word) => CODE_NOUNS.has(word))
    ? 'code'
    : match.versionNoun === 'draft' || match.versionNoun === 'drafts'
      ? 'draft'
      : null;
  const phrase = tokens
    .slice(match.start, match.end)
    .map((token) => token.text)
    .join(' ')
    .replace(/ 's/gu, "'s");
  return { nameHint, kindHint, selector: match.selector, phrase };
}

/** "the parser from turn 3", "turn 3's version", "the turn 3 version of the letter", anchored at "turn". */
function turnMatch(tokens: readonly Token[], index: number): Match | null {
  const turn = numberOf(tokens[index + 1]);
  if (!isWord(tokens[index], 'turn') || turn === null || turn < 1) return null;
  const selector = { turn };
  const next = tokens[index + 2];
  if (next?.kind === 'possessive') {
    const words = wordsAfter(tokens, index + 3);
    const noun = tokens[index + 3 + words.length];
    const head = isWord(noun, VERSION_NOUNS) ? [...words, noun as Token] : words;
    if (head.length === 0) return null;
    const of = ofClause(tokens, index + 3 + head.length);
    return { start: index, end: Math.max(index + 3 + head.length, of.end), words: [...head, ...of.words], selector, versionNoun: noun?.text ?? null };
  }
  if (isWord(next, VERSION_NOUNS) && isWord(tokens[index - 1], DETERMINERS)) {
    const of = ofClause(tokens, index + 3);
    return { start: index - 1, end: Math.max(index + 3, of.end), words: of.words, selector, versionNoun: next?.text ?? null };
  }
  if (!isWord(tokens[index - 1], TURN_PREPOSITIONS)) return null;
  const before = isWord(tokens[index - 1], 'of') && isWord(tokens[index - 2], 'as') ? index - 2 : index - 1;
  // The head: name words or a version noun ("the version", "the parser", "parse_config", "the one").
  const head: Token[] = [];
  for (let position = before - 1; head.length < 4; position -= 1) {
    const token = tokens[position];
    if (token?.kind !== 'word' || (!isNameWord(token) && !VERSION_NOUNS.has(token.text) && token.text !== 'one')) break;
    head.unshift(token);
  }
  // Without a determiner the head starts at its first identifier or version noun ("restore parse_config from turn 4").
  if (!isWord(tokens[before - 1 - head.length], DETERMINERS)) {
    const first = head.findIndex((word) => word.identifier || VERSION_NOUNS.has(word.text));
    if (first < 0) return null;
    head.splice(0, first);
  }
  if (head.length === 0) return null;
  const start = before - head.length;
  const noun = head.find((word) => VERSION_NOUNS.has(word.text));
  return { start: start - (isWord(tokens[start - 1], DETERMINERS) ? 1 : 0), end: index + 2, words: head, selector, versionNoun: noun?.text ?? null };
}

/** "version 2 of the parser", "draft 3", "v2", anchored at the noun (or the v-number). */
function numberedMatch(tokens: readonly Token[], index: number): Match | null {
  const token = tokens[index];
  if (token === undefined || token.kind !== 'word') return null;
  let ordinal: number | null = null;
  let end = index + 1;
  let versionNoun: string | null = null;
  const short = /^v(\d{1,3})$/u.exec(token.text);
  // Only a lower-case v: "V8" is an engine.
  if (short !== null && !token.identifier && token.raw.startsWith('v')) ordinal = Number(short[1]);
  else if (NUMBERED_NOUNS.has(token.text)) {
    ordinal = numberOf(tokens[index + 1]);
    end = index + 2;
    versionNoun = token.text;
  }
  if (ordinal === null || ordinal < 1 || ordinal > 999) return null;
  // A noun right before is a product ("Python version 3", "API v2"), not an artifact of this conversation.
  const previous = tokens[index - 1];
  if (previous?.kind === 'word' && !STOPWORDS.has(previous.text) && !LEADING_VERBS.has(previous.text) && !DETERMINERS.has(previous.text)) return null;
  const of = ofClause(tokens, end);
  const owner = possessiveName(tokens, index);
  const start = owner.length > 0 ? index - 1 - owner.length : index;
  return { start, end: Math.max(end, of.end), words: [...owner, ...of.words], selector: { ordinal }, versionNoun };
}

/** "the first draft of the cover letter", "the second version", "the original script", anchored at the ordinal. */
function ordinalMatch(tokens: readonly Token[], index: number): Match | null {
  const token = tokens[index];
  if (token?.kind !== 'word') return null;
  let width = 1;
  let ordinal: number | 'first' | 'previous' | 'latest' | null = null;
  if (token.text === 'first') ordinal = 'first';
  else if (token.text in NUMBER_WORDS) ordinal = NUMBER_WORDS[token.text] ?? null;
  else if (/^(?:[2-9]|[1-9]\d)(?:st|nd|rd|th)$/u.test(token.text)) ordinal = Number.parseInt(token.text, 10);
  else if (token.text in EARLIER) ordinal = EARLIER[token.text] ?? null;
  else if (LATEST.has(token.text)) ordinal = 'latest';
  else if (token.text === 'most' && isWord(tokens[index + 1], 'recent')) {
    ordinal = 'latest';
    width = 2;
  }
  if (ordinal === null) return null;
  const previous = tokens[index - 1];
  // "a first draft" is a new one; a reference is definite.
  if (isWord(previous, ARTICLES)) return null;
  const owner = possessiveName(tokens, index);
  const between = wordsAfter(tokens, index + width);
  const noun = tokens[index + width + between.length];
  const earlier = token.text in EARLIER;
  const nouns = earlier ? EARLIER_NOUNS : VERSION_NOUNS;
  let start = owner.length > 0 ? index - 1 - owner.length : index;
  if (owner.length === 0 && isWord(previous, DETERMINERS)) start -= 1;
  if (isWord(noun, nouns) && noun !== undefined) {
    const nounEnd = index + width + between.length + 1;
    const of = ofClause(tokens, nounEnd);
    return { start, end: Math.max(nounEnd, of.end), words: [...owner, ...between, ...of.words], selector: { ordinal }, versionNoun: noun.text };
  }
  // Only "original", "previous" and the like stand before a bare name, and only an artifact-like one.
  if (!earlier || between.length === 0 || !artifactLike(between) || !isWord(previous, DETERMINERS)) return null;
  const of = ofClause(tokens, index + width + between.length);
  return { start, end: Math.max(index + width + between.length, of.end), words: [...between, ...of.words], selector: { ordinal }, versionNoun: null };
}

/** "the one before that", "the version before the current one", anchored at "before". */
function beforeMatch(tokens: readonly Token[], index: number): Match | null {
  if (!isWord(tokens[index], 'before') || !isWord(tokens[index - 1], BEFORE_ANCHORS)) return null;
  const next = tokens[index + 1];
  let end: number;
  if (isWord(next, BEFORE_THAT)) {
    const after = tokens[index + 2];
    // "the one before that date" is about something else.
    if (after?.kind === 'word' && !STOPWORDS.has(after.text) && !FILLERS.has(after.text)) return null;
    end = index + 2;
  } else if (isWord(next, 'the') && isWord(tokens[index + 2], LATEST)) {
    end = index + 3 + (isWord(tokens[index + 3], BEFORE_THE_LATEST_NOUNS) ? 1 : 0);
  } else return null;
  const start = index - 1 - (isWord(tokens[index - 2], DETERMINERS) ? 1 : 0);
  return { start, end, words: [], selector: { ordinal: 'previous' }, versionNoun: tokens[index - 1]?.text ?? null };
}

const MATCHERS = [turnMatch, numberedMatch, ordinalMatch, beforeMatch] as const;

/** References to artifact versions in a text, in text order (at most {@link MAX_ARTIFACT_REFERENCES}). */
export function parseArtifactReferences(text: string): ArtifactReference[] {
  const tokens = tokenize(text.slice(0, 4_000));
  const matches: Match[] = [];
  // Matchers in priority order; a later match may not overlap an earlier one.
  for (const matcher of MATCHERS) {
    for (let index = 0; index < tokens.length; index += 1) {
      const match = matcher(tokens, index);
      if (match !== null && !matches.some((taken) => match.start < taken.end && taken.start < match.end)) matches.push(match);
    }
  }
  return matches
    .sort((a, b) => a.start - b.start)
    .slice(0, MAX_ARTIFACT_REFERENCES)
    .map((match) => reference(tokens, match));
}

/** A light stem, so "parser", "parsers" and "parse" meet: a plural s, then an -er, -ing, -ed or -e ending. */
function stem(word: string): string {
  const singular = word.length > 3 && word.endsWith('s') ? word.slice(0, -1) : word;
  const ending = /(?:er|ing|ed|e)$/u.exec(singular);
  return ending !== null && singular.length - ending[0].length >= 4 ? singular.slice(0, -ending[0].length) : singular;
}

function nameWords(name: string): Set<string> {
  return new Set(words(name).map(stem));
}

function latestTurn(artifact: Artifact): number {
  return artifact.versions.reduce((turn, version) => Math.max(turn, version.turn), 0);
}

/** Most recently revised first; ties by name, so the order is stable. */
function byRecency(a: Artifact, b: Artifact): number {
  return latestTurn(b) - latestTurn(a) || b.versions.length - a.versions.length || compareText(a.name, b.name);
}

/** The version the selector asks for, or null. `exactTurn`: only a version made in that very turn. */
function pickVersion(artifact: Artifact, selector: VersionSelector, exactTurn: boolean): ArtifactVersion | null {
  const versions = [...artifact.versions].sort((a, b) => a.version - b.version);
  if ('turn' in selector) {
    const candidates = versions.filter((version) => (exactTurn ? version.turn === selector.turn : version.turn <= selector.turn));
    return candidates[candidates.length - 1] ?? null;
  }
  const { ordinal } = selector;
  if (ordinal === 'first') return versions[0] ?? null;
  if (ordinal === 'latest') return versions[versions.length - 1] ?? null;
  if (ordinal === 'previous') return versions.length < 2 ? null : (versions[versions.length - 2] ?? null);
  return versions.find((version) => version.version === ordinal) ?? null;
}

function resolved(artifact: Artifact, version: ArtifactVersion): ResolvedArtifactVersion {
  return { artifactId: artifact.id, name: artifact.name, kind: artifact.kind, language: artifact.language, version };
}

/** The artifacts one reference may mean, best first. */
function candidatesFor(reference: ArtifactReference, artifacts: readonly Artifact[]): { artifacts: Artifact[]; named: boolean } {
  const hint = reference.nameHint.map(stem);
  if (hint.length > 0) {
    const scored = artifacts
      .map((artifact) => {
        const words = nameWords(artifact.name);
        const shared = hint.filter((word) => words.has(word)).length;
        return { artifact, shared, coverage: words.size === 0 ? 0 : shared / words.size };
      })
      .filter((entry) => entry.shared > 0)
      .sort((a, b) => b.shared - a.shared || b.coverage - a.coverage || byRecency(a.artifact, b.artifact));
    const best = scored[0];
    if (best !== undefined) return { artifacts: scored.filter((entry) => entry.shared === best.shared && entry.coverage === best.coverage).map((entry) => entry.artifact), named: true };
    // A hint of generic nouns only ("the original script") falls back to the kind; a real name that matches nothing resolves to nothing.
    if (reference.nameHint.some((word) => !CODE_NOUNS.has(word))) return { artifacts: [], named: true };
  }
  const ofKind = reference.kindHint === null ? [] : artifacts.filter((artifact) => artifact.kind === reference.kindHint);
  return { artifacts: [...(ofKind.length > 0 ? ofKind : artifacts)].sort(byRecency), named: false };
}

/**
 * Resolve references against the session's artifacts (all versions). A name hint picks the artifact
 * whose name shares the most words with it; without one, a turn picks the artifacts revised in that
 * turn, and anything else the only artifact (of the hinted kind) or else the most recently revised one
 * that has the version asked for. Duplicates are dropped; at most {@link MAX_ARTIFACT_REFERENCES} results.
 */
export function resolveArtifactReferences(references: readonly ArtifactReference[], artifacts: readonly Artifact[]): ResolvedArtifactVersion[] {
  const results: ResolvedArtifactVersion[] = [];
  const add = (artifact: Artifact, version: ArtifactVersion | null): void => {
    if (version === null || results.some((result) => result.artifactId === artifact.id && result.version.version === version.version)) return;
    if (results.length < MAX_ARTIFACT_REFERENCES) results.push(resolved(artifact, version));
  };
  for (const reference of references) {
    const { artifacts: candidates, named } = candidatesFor(reference, artifacts);
    if (named) {
      const artifact = candidates[0];
      if (artifact !== undefined) add(artifact, pickVersion(artifact, reference.selector, false));
    } else if ('turn' in reference.selector) {
      for (const artifact of candidates) add(artifact, pickVersion(artifact, reference.selector, true));
    } else {
      const artifact = candidates.find((candidate) => pickVersion(candidate, reference.selector, false) !== null);
      if (artifact !== undefined) add(artifact, pickVersion(artifact, reference.selector, false));
    }
  }
  return results;
}
