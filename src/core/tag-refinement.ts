/**
 * The local tag refiner: when a tag holds more memories than a person can scan, split it by what its
 * members are about. Each subtag is named by the most distinctive word of the memories it gathers (one
 * that many members hold, but not most of them), taken greedily: the word covering the most members not
 * yet placed first. Offline and deterministic. Pure; no I/O.
 */
import { singularWord } from './long-term-memory.js';
import { aboutWords } from './promotion.js';

/** A tag holding more current memories than this is refined (default K). */
export const REFINE_ABOVE = 20;

/** A subtag must gather at least this many members, and a word held by more than this share of them says nothing. */
const SMALLEST_GROUP = 3;
const TOO_COMMON = 0.6;
const MOST_SUBTAGS = 8;

export interface Member {
  id: string;
  value: string;
  /** Whether it holds a subtag of the tag already (it is placed). */
  placed: boolean;
}

export interface Subtag {
  tag: string;
  memoryIds: string[];
  reason: string;
}

function wordsOf(member: Member, tag: string): Set<string> {
  const tagWords = new Set(tag.split(/[/-]/u).map(singularWord));
  return new Set([...aboutWords(member.value).content].filter((word) => !tagWords.has(word) && !/^\p{N}+$/u.test(word) && /^[\p{L}\p{N}-]{2,64}$/u.test(word)));
}

/** How the members write each word (singular as compared) most often, lower case: a subtag reads "deliveries", not "deliverie". */
function writtenForms(members: readonly Member[]): Map<string, string> {
  const counts = new Map<string, Map<string, number>>();
  for (const member of members) {
    for (const match of member.value.matchAll(/[\p{L}\p{N}]+/gu)) {
      const written = match[0].toLowerCase();
      const forms = counts.get(singularWord(written)) ?? new Map<string, number>();
      forms.set(written, (forms.get(written) ?? 0) + 1);
      counts.set(singularWord(written), forms);
    }
  }
  return new Map([...counts].map(([word, forms]) => [word, [...forms].sort((left, right) => right[1] - left[1] || (left[0] < right[0] ? -1 : 1))[0]?.[0] ?? word]));
}

/**
 * Subtags (`<tag>/<word>`) that split the members of `tag`, when more than `above` of them carry no
 * subtag of it yet; none otherwise. A member goes under at most one new subtag.
 */
export function refineTag(tag: string, members: readonly Member[], above = REFINE_ABOVE): Subtag[] {
  const prefix = `${tag}/`;
  const open = members.filter((member) => !member.placed);
  if (open.length <= above) return [];
  const words = new Map(open.map((member) => [member.id, wordsOf(member, tag)]));
  // A word most members hold says nothing that sets some apart.
  const held = new Map<string, number>();
  for (const set of words.values()) for (const word of set) held.set(word, (held.get(word) ?? 0) + 1);
  const telling = (word: string): boolean => (held.get(word) ?? 0) <= open.length * TOO_COMMON;
  const forms = writtenForms(open);
  const unplaced = new Set(open.map((member) => member.id));
  const subtags: Subtag[] = [];
  while (subtags.length < MOST_SUBTAGS) {
    const counts = new Map<string, number>();
    for (const id of unplaced) for (const word of words.get(id) ?? []) counts.set(word, (counts.get(word) ?? 0) + 1);
    const best = [...counts]
      .filter(([word, count]) => count >= SMALLEST_GROUP && telling(word))
      .sort((left, right) => right[1] - left[1] || (left[0] < right[0] ? -1 : 1))[0];
    if (best === undefined) break;
    const [word, count] = best;
    const memoryIds = [...unplaced].filter((id) => words.get(id)?.has(word) === true);
    for (const id of memoryIds) unplaced.delete(id);
    const name = forms.get(word) ?? word;
    subtags.push({ tag: `${prefix}${name}`, memoryIds, reason: `"${tag}" holds ${String(open.length)} memories without a subtag; ${String(count)} of them are about "${name}"` });
  }
  return subtags;
}
