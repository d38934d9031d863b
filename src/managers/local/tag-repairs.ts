/**
 * Repairs of a sentence's tags by its neighbours, where the lexicon alone guesses wrong: a sentence has a
 * verb ("Emma just turned 7"), a chain of nouns is a noun phrase, a clause-initial word before an object
 * is an imperative.
 */
import { lexiconTag } from './compromise-lexicon.js';
import { ROLE_NOUNS } from './function-words.js';
import { endsClause, type PartOfSpeech, type TaggedToken } from './tokens.js';

const NOUN_MAKERS = new Set(['the', 'a', 'an', 'my', 'our', 'your', 'his', 'her', 'their', 'its', 'this', 'that', 'these', 'those', 'some', 'any', 'no', 'every', 'each']);
const SUBJECT_PRONOUNS = new Set(['i', 'we', 'you', 'he', 'she', 'they', 'who']);
const VERB_MAKERS = new Set(['to', "let's", 'lets', 'i', 'we', 'you', 'they', 'please', 'it', 'he', 'she', 'who']);

const VERB_POS = new Set<PartOfSpeech>(['verb', 'copula', 'modal', 'auxiliary']);


/** A sentence needs a verb: "Emma just turned 7" has one even if the lexicon calls "turned" an adjective. */
function ensureVerb(tokens: TaggedToken[]): void {
  if (tokens.length < 3 || tokens.some((token) => VERB_POS.has(token.pos))) return;
  for (let index = 1; index < tokens.length; index += 1) {
    const token = tokens[index];
    const previous = tokens[index - 1];
    if (token === undefined || previous === undefined || token.capitalised) continue;
    const afterSubject = previous.pos === 'noun' || previous.pos === 'proper' || previous.pos === 'pronoun' || previous.pos === 'adverb';
    if (afterSubject && (/ed$/u.test(token.lower) || (/[^s]s$/u.test(token.lower) && previous.pos !== 'adverb'))) {
      token.pos = 'verb';
      token.past = /ed$/u.test(token.lower);
      return;
    }
  }
}

/** "the API rate limit is …": words the lexicon calls verbs, in a noun chain before the verb, are nouns. */
function fixNounChains(tokens: TaggedToken[]): void {
  for (let verb = 2; verb < tokens.length; verb += 1) {
    const pos = tokens[verb]?.pos;
    if (pos !== 'copula' && pos !== 'modal') continue;
    let first = verb;
    while (first - 1 >= 1) {
      const token = tokens[first - 1];
      if (token === undefined || token.pos !== 'verb' || token.past || token.capitalised || /ing$/u.test(token.lower) || endsClause(token)) break;
      first -= 1;
    }
    const before = tokens[first - 1];
    if (first === verb || before === undefined || endsClause(before)) continue;
    if (before.pos !== 'noun' && before.pos !== 'proper' && before.pos !== 'adjective') continue;
    for (let index = first; index < verb; index += 1) {
      const token = tokens[index];
      if (token !== undefined) token.pos = 'noun';
    }
  }
}

const IMPERATIVE_FOLLOWERS = new Set(['to', 'the', 'a', 'an', 'it', 'them', 'me', 'us', 'him', 'her', 'my', 'our', 'your', 'his', 'their', 'this', 'that', 'these', 'those', 'all', 'everything', 'off', 'out', 'up']);

/**
 * Neighbour rules for words the lexicon gives one class but context gives another ("the work", "to store",
 * and a request opening a clause: "Switch to American spelling", "Book the Almirante").
 */
export function fixImperatives(tokens: TaggedToken[]): void {
  for (let index = 0; index < tokens.length - 1; index += 1) {
    const token = tokens[index];
    const previous = tokens[index - 1];
    const next = tokens[index + 1];
    if (token === undefined || next === undefined || token.pos !== 'noun' || token.hasDigit || token.past) continue;
    if (previous !== undefined && !/[,;:–—]/u.test(previous.trailing)) continue;
    if (endsClause(token) || !IMPERATIVE_FOLLOWERS.has(next.lower) || lexiconTag(token.lower) === undefined) continue;
    if (/(?:s|ing|ed)$/u.test(token.lower) && !/ss$/u.test(token.lower)) continue;
    token.pos = 'verb';
  }
}

/** "and sadly terracotta is dead", "quarterly invoicing is better": a word between a clause's opening and its copula is its subject, not a verb. */
export function fixCopulaSubjects(tokens: TaggedToken[]): void {
  for (let index = 1; index < tokens.length - 1; index += 1) {
    const token = tokens[index];
    const previous = tokens[index - 1];
    if (token === undefined || previous === undefined || token.pos !== 'verb' || token.past || token.capitalised || tokens[index + 1]?.pos !== 'copula') continue;
    // ("quarterly invoicing is better": a gerund after its adjective is a noun too.)
    const describedGerund = previous.pos === 'adjective' && /ing$/u.test(token.lower);
    if (previous.pos === 'adverb' || previous.pos === 'conjunction' || previous.pos === 'determiner' || describedGerund || endsClause(previous)) token.pos = 'noun';
  }
}

/** "have crept back up", "pushed back": "back" right after a verb is a particle, not a noun. */
export function fixParticles(tokens: TaggedToken[]): void {
  for (let index = 1; index < tokens.length; index += 1) {
    const token = tokens[index];
    if (token?.lower === 'back' && token.pos === 'noun' && tokens[index - 1]?.pos === 'verb' && !endsClause(tokens[index - 1] as TaggedToken)) token.pos = 'adverb';
  }
}

/** Family words used as names: "Mum", "Dad", "Grandma" (capitalised, no "the" or "my" before). */
const FAMILY_NAMES = new Set(['mum', 'mom', 'mam', 'mummy', 'mommy', 'dad', 'daddy', 'grandma', 'grandpa', 'granny', 'grandad', 'granddad', 'gran', 'nan', 'nana', 'nanna', 'papa', 'mama', 'grandmother', 'grandfather']);

/** Words for people a name may stand beside: "my mum, Halina", "our CFO, Martin", "my friend, Jess". */
const NOT_PEOPLE = new Set(['venue', 'school', 'bank', 'insurer', 'pharmacy', 'client', 'customer', 'vendor', 'supplier', 'contact', 'mover', 'movers', 'caterer', 'builder']);
const PERSON_WORDS = new Set([...[...ROLE_NOUNS].filter((word) => !NOT_PEOPLE.has(word)), ...FAMILY_NAMES, 'wife', 'husband', 'partner', 'brother', 'sister', 'son', 'daughter', 'friend', 'neighbour', 'neighbor', 'aunt', 'uncle', 'cousin', 'niece', 'nephew', 'boyfriend', 'girlfriend', 'fiance', 'fiancé', 'fiancee', 'fiancée', 'flatmate', 'roommate']);

/** "My mum, Halina, heard …": a name set off by a comma after a word for a person names a person. */
export function fixAppositiveNames(tokens: TaggedToken[]): void {
  for (let index = 1; index < tokens.length; index += 1) {
    const token = tokens[index];
    const before = tokens[index - 1];
    if (token === undefined || before === undefined || token.pos !== 'proper' || token.entity !== null) continue;
    if (before.trailing.includes(',') && PERSON_WORDS.has(before.lower)) token.entity = 'person';
  }
}

/** "Dad has the dentist on Friday": a family word written as a name names a person, like "Caroline" would. */
export function fixFamilyNames(tokens: TaggedToken[]): void {
  for (let index = 0; index < tokens.length; index += 1) {
    const token = tokens[index];
    if (token === undefined || !token.capitalised) continue;
    const lower = token.lower.replace(/[’']s$/u, '');
    if (!FAMILY_NAMES.has(lower) || NOUN_MAKERS.has(tokens[index - 1]?.lower ?? '')) continue;
    token.pos = 'proper';
    token.entity = 'person';
  }
}

/** "that'll", "there'd", "who've": a pointing word with a verb contracted onto it points back; it names nothing. */
const POINTING_CONTRACTION = /^(?:that|this|there|here|who|what|where|which)['’](?:ll|d|ve|re)$/u;

/** Words after which an adjective has no noun left to describe: "the excess at £250", "the blue, please". */
const PHRASE_ENDERS = new Set<TaggedToken['pos']>(['preposition', 'copula', 'modal', 'auxiliary', 'verb', 'conjunction', 'value']);

/**
 * "I'd like the excess at £250": an adjective right after an article, with no noun to describe before a
 * preposition, a verb or the clause's end, is the noun itself; "that'll go in" is a pronoun, not a thing.
 */
export function fixBareAdjectives(tokens: TaggedToken[]): void {
  for (let index = 0; index < tokens.length; index += 1) {
    const token = tokens[index];
    if (token === undefined) continue;
    if (POINTING_CONTRACTION.test(token.lower)) {
      token.pos = 'pronoun';
      continue;
    }
    if (token.pos !== 'adjective' || token.capitalised || index === 0 || !['the', 'a', 'an'].includes(tokens[index - 1]?.lower ?? '')) continue;
    const next = tokens[index + 1];
    if (endsClause(token) || next === undefined || PHRASE_ENDERS.has(next.pos)) token.pos = 'noun';
  }
}

/** Words after a described word that leave it no object: it ends a noun phrase ("the Brightwater due date to 23 January"). */
const AFTER_DESCRIBED = new Set<TaggedToken['pos']>(['preposition', 'copula', 'modal', 'auxiliary', 'conjunction']);

/**
 * "the Brightwater due date to 23 January", "our final draft is": a present-tense word the lexicon calls a
 * verb, after an adjective that follows an article or a name, with nothing it could act on after it, is
 * the noun the adjective describes.
 */
export function fixDescribedNouns(tokens: TaggedToken[]): void {
  for (let index = 2; index < tokens.length; index += 1) {
    const token = tokens[index];
    const described = tokens[index - 1];
    const before = tokens[index - 2];
    if (token === undefined || described === undefined || before === undefined) continue;
    if (token.pos !== 'verb' || token.past || /ing$/u.test(token.lower) || described.pos !== 'adjective' || endsClause(described) || endsClause(before)) continue;
    if (!(NOUN_MAKERS.has(before.lower) || before.pos === 'proper' || before.pos === 'noun')) continue;
    const next = tokens[index + 1];
    if (endsClause(token) || next === undefined || AFTER_DESCRIBED.has(next.pos)) token.pos = 'noun';
  }
}

/**
 * "Deskwise says they can route …": a capitalised word opening the sentence that no word list knows, in
 * any number, is a name, as it would be mid-sentence (a known word there is only capitalised).
 */
export function fixOpeningName(tokens: TaggedToken[]): void {
  const first = tokens[0];
  if (first === undefined || !first.capitalised || first.pos !== 'noun' || first.hasDigit || !/^\p{Lu}\p{Ll}+$/u.test(first.text)) return;
  const lower = first.lower;
  const forms = [lower, lower.replace(/(?:es|s)$/u, ''), lower.replace(/ies$/u, 'y')];
  if (forms.some((form) => lexiconTag(form) !== undefined)) return;
  first.pos = 'proper';
}

/**
 * "We went with Soar Valley Skips": a capitalised word after a preposition or a determiner that opens a
 * run of names is the name's first word, whatever the lexicon makes of it ("soar" the verb).
 */
export function fixNameRuns(tokens: TaggedToken[]): void {
  for (let index = 1; index + 1 < tokens.length; index += 1) {
    const token = tokens[index];
    const before = tokens[index - 1];
    if (token === undefined || before === undefined || !token.capitalised || token.hasDigit || token.pos === 'proper' || endsClause(before)) continue;
    if (!['verb', 'noun', 'adjective'].includes(token.pos) || tokens[index + 1]?.pos !== 'proper') continue;
    if (before.pos === 'preposition' || NOUN_MAKERS.has(before.lower)) token.pos = 'proper';
  }
}

export function fixByNeighbours(tokens: TaggedToken[]): void {
  fixOpeningName(tokens);
  fixNameRuns(tokens);
  fixFamilyNames(tokens);
  fixAppositiveNames(tokens);
  fixBareAdjectives(tokens);
  fixDescribedNouns(tokens);
  fixNounChains(tokens);
  fixCopulaSubjects(tokens);
  fixParticles(tokens);
  ensureVerb(tokens);
  fixImperatives(tokens);
  for (let index = 1; index < tokens.length; index += 1) {
    const token = tokens[index];
    const previous = tokens[index - 1];
    if (token === undefined || previous === undefined || token.capitalised || token.hasDigit) continue;
    const next = tokens[index + 1];
    if (token.pos === 'adjective' && /ed$/u.test(token.lower) && SUBJECT_PRONOUNS.has(previous.lower)) {
      // "I adopted a puppy": a past verb, whatever the lexicon's first guess.
      token.pos = 'verb';
      token.past = true;
    } else if (token.pos === 'verb' && !token.past && NOUN_MAKERS.has(previous.lower) && !/ing$/u.test(token.lower)) {
      token.pos = 'noun';
    } else if (
      token.pos === 'verb' &&
      !token.past &&
      (previous.pos === 'proper' || previous.pos === 'adjective' || previous.pos === 'noun') &&
      next !== undefined &&
      next.pos === 'noun' &&
      !endsClause(previous) &&
      !endsClause(token)
    ) {
      // "LGBTQ support group": a noun modifier, not a verb.
      token.pos = 'noun';
    } else if (
      token.pos === 'noun' &&
      (VERB_MAKERS.has(previous.lower) || previous.pos === 'modal' || (previous.pos === 'negation' && previous.lower !== 'no')) &&
      lexiconTag(token.lower) !== undefined
    ) {
      token.pos = 'verb';
    }
  }
}
