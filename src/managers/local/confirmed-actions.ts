/**
 * Actions the user asked for and the assistant reports done: "Book the Swiss one." answered "Booked: Swiss
 * LX2084 on 11 May, 18:20 → 20:10, Flex CHF 389". The user's request names the choice in a word; the
 * assistant's confirmation holds what was chosen, in full. Such a confirmation is a decision of the user's
 * in the assistant's words, so its sentences may change the document though the assistant's may not.
 */
import type { AnalysedMessage } from './analysis.js';
import { messageClaims, type Claim, type MessageClaims } from './claims.js';

/** Verbs of an action an assistant can carry out for the user. */
const ACTIONS = 'book|rebook|reserve|cancel|order|schedule|buy|pay|send|submit|sign|arrange|switch|move|change';
/** A request for one: the verb opening a sentence ("Book the Swiss one."), or asked for ("can you cancel his room?", "book it"). */
const REQUEST = new RegExp(`^(?:(?:ok(?:ay)?|yes|yep|great|perfect|fine|then|so|and|please)[,!.]?\\s+)*(?:${ACTIONS})\\b|\\b(?:please|can you|could you|would you|go ahead and)\\s+(?:${ACTIONS})\\b|\\b(?:${ACTIONS}) (?:it|them|that|this)\\b`, 'iu');
/** Words reporting the action done. */
const DONE = 'booked|rebooked|reserved|cancell?ed|ordered|scheduled|confirmed|done|sent|submitted|paid|signed|arranged|switched|moved|changed';
/** A sentence reporting the action done. */
const CONFIRMATION = new RegExp(`^(?:${DONE})\\b`, 'iu');
/** "Booked:" opening a confirmation. */
const LABEL = new RegExp(`^(${DONE})\\s*[:—–-]\\s*`, 'iu');

/** Whether the user's message asks the assistant to carry out an action. */
function requestsAction(user: AnalysedMessage): boolean {
  return user.sentences.some((sentence) => REQUEST.test(sentence.text));
}

/**
 * The claims of the assistant's sentences that confirm an action the user asked for in the same turn,
 * as decisions; null when the turn has none.
 */
export function confirmedClaims(user: AnalysedMessage | undefined, assistant: AnalysedMessage, maxValueWords: number): MessageClaims | null {
  if (user === undefined || assistant.message.role !== 'assistant' || !requestsAction(user)) return null;
  const confirming = new Set(assistant.sentences.filter((sentence) => CONFIRMATION.test(sentence.text)));
  if (confirming.size === 0) return null;
  const all = messageClaims(assistant, { maxValueWords });
  const claims = all.claims.filter((claim) => confirming.has(claim.sentence) && claim.act !== 'question' && claim.act !== 'request' && claim.act !== 'proposal');
  if (claims.length === 0) return null;
  return { claims: claims.map(asDecision), mentioned: all.mentioned };
}

/**
 * The claim as the user's decision. Under the bare label of the confirmation ("Booked: …") it is keyed by
 * its day as well: the flight out on 11 May and the one home on 16 May are two bookings, and a new
 * booking for 16 May replaces the old one.
 */
function asDecision(claim: Claim): Claim {
  const decision: Claim = { ...claim, act: claim.act === 'fact' ? 'decision' : claim.act };
  // "Booked: …": the label is what was done, whatever the clause's own subject reads as.
  const label = LABEL.exec(claim.sentence.text)?.[1]?.toLowerCase();
  const bare = claim.key !== null && CONFIRMATION.test(claim.key) && !claim.key.includes(' ');
  const done = label ?? (bare ? claim.key : null);
  const day = claim.values.find((item) => item.type === 'date');
  if (done === null || day === undefined) return decision;
  // (The day alone: "16 May 17:40" and "16 May 19:05" are one day's booking.)
  const dayText = day.text.toLowerCase().replace(/[\s,]+(?:at\s+)?\d{1,2}[:.]\d{2}.*$/u, '');
  return { ...decision, key: `${done} ${dayText}`, value: claim.value.replace(LABEL, '') };
}


/** A reply that says yes to what was asked: "Yes. At 2,400 kcal …", "Sure, moved.", "Done." */
const ACCEPTANCE = /^(?:yes|yep|yeah|sure|absolutely|of course|certainly|definitely|done|ok(?:ay)?|agreed|will do|good idea|great idea|sounds good|makes sense)\b/iu;

/**
 * The user's claims, with each change they asked for ("Can we go to 2,400 instead of 2,600?") made a
 * decision when the assistant's reply in the same turn accepts it; asked changes stay proposals otherwise.
 */
export function acceptedProposals(claims: readonly Claim[], reply: AnalysedMessage | undefined): Claim[] {
  const first = reply?.sentences[0]?.text ?? '';
  if (reply?.message.role !== 'assistant' || !ACCEPTANCE.test(first)) return [...claims];
  return claims.map((claim) => (claim.act === 'proposal' && claim.correction ? { ...claim, act: 'decision' } : claim));
}
