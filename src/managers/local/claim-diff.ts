/**
 * The base-truth diff of a turn, from its claims. A claim updates the fact about the same subject and
 * attribute — the fact holding the value it sets aside ("54 now, not 60"), the fact under the same key,
 * or the fact whose key shares a word with the claim's subject and holds a value of the same class —
 * and is added otherwise: sharing a number or a common word is never enough. A removal drops the fact
 * it names. Proposals, questions and requests change nothing.
 */
import { liftedLimit } from './lifted-limit.js';
import { firstWord, namedBySetAside, replacesNamedChoice, supersededChoice, talksOfNamedChoice, unavailableChoice, weighedAlternative } from './superseded-choice.js';
import { leftOutOf, NOTHING_LEFT_OUT } from './left-out.js';
import { workingSet } from './working-facts.js';
import { lineOfClaim, withdrawnClaim } from './withdrawn-report.js';
import { COMMENT_CLAUSE } from './claim-doubt.js';
import type { BaseLinesCache } from './known-lines.js';
import { KIND_STRENGTH, type DiffEntry, type FactDiff } from '../../core/diff.js';
import { escapeRegExp, normalizeText } from '../../core/text.js';
import type { Fact } from '../../core/types.js';
import type { AnalysedMessage, AnalysedSentence } from './analysis.js';
import { TurnDocument, type Known } from './claim-document.js';
import { subjectWords } from './claim-target.js';
import { NEGATIONS } from './function-words.js';
import { HONORIFICS } from './subject-phrases.js';
import type { Claim } from './claims.js';
import { specific, type Specific } from './specifics.js';
import { shiftDays } from './date-shift.js';
import { isClockTime } from './claim-values.js';
import { classOfSpecific, COMPETING_CLASSES, PEOPLE_NOUNS, sameClass, type ValueClass } from './value-classes.js';

export interface ClaimDiffInput {
  /** The turn's messages that may change the document, each with its claims and the specifics it mentions. */
  messages: ReadonlyArray<{ message: AnalysedMessage; claims: readonly Claim[]; mentioned: readonly Specific[] }>;
  facts: readonly Fact[];
  /** Most lines (adds and updates) the turn may propose; the weightiest are kept. */
  maxLines: number;
  /** Plain facts the claims are compared with, the most recently established (see `workingFacts`). */
  workingFacts: number;
  /** The session and its kept base of lines, so a turn does not index the whole document again. */
  bases?: { sessionId: string; cache: BaseLinesCache };
  /** The turn's replies that may not change the document themselves (an unnamed assistant's), read for what they echo. */
  replies: readonly string[];
}

/** Specific types that make a plain fact worth keeping on its own: an amount, a measure, a version, a day. */
function isSolid(item: Specific): boolean {
  if (item.type === 'money' || item.type === 'percent' || item.type === 'quantity' || item.type === 'version') return true;
  if (item.type === 'date') return /\d|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|day/iu.test(item.text);
  return item.type === 'name' && item.category !== null;
}

/** Greetings in emoji, "off topic", "lol": a message that says it is chit-chat. */
const CHIT_CHAT_MARKERS = /\b(?:off[- ]topic|unrelated|kidding|lol|haha+|random question|fun fact)\b|(?:^|\s)[:;]-?[)(DPp](?=\s|$)|\p{Extended_Pictographic}/iu;

/** Removals that, naming nothing known, rule the thing out: "All nuts and peanuts are out", "walnut is off the table". */
const BANS = /\b(?:are|is) out\b|\boff the table\b|\bnot happening\b|\bout of the question\b/iu;

/** A change named without its value ("The deadline moved again"), waiting for a later clause of the message to give it. */
interface OpenChange {
  target: Known | null;
  claim: Claim;
}

/** Build the turn's diff from its claims and the document before it. */
export function claimDiff(input: ClaimDiffInput): FactDiff {
  const names = input.messages.flatMap(({ message }) => [
    ...(message.message.speaker === null ? [] : [message.message.speaker.split(/\s+/u)[0] ?? '']),
    // (The name, not the title: "Mr Patel" is Patel.)
    ...message.sentences.flatMap((sentence) => sentence.specifics.filter((item) => item.entity === 'person').map((item) => item.text.split(/\s+/u).find((word) => !HONORIFICS.has(word.toLowerCase().replace(/\.$/u, ''))) ?? '')),
  ]);
  const { working, partial } = workingSet(input.facts, input.workingFacts);
  const base = input.bases?.cache.lookup(input.bases.sessionId, working);
  // (A new line never takes the key of a fact left out of the work, and a remark about one is kept.)
  const leftOut = !partial
    ? NOTHING_LEFT_OUT
    : input.bases === undefined || base === undefined
      ? leftOutOf(input.facts, working)
      : input.bases.cache.documentKeys(input.bases.sessionId, input.facts).outside(base);
  const document = new TurnDocument(working, names, leftOut, base);
  // A plain fact of a task conversation must be about the task: a solid value, a subject the document
  // already tracks, or words the reply takes up. A conversation between named people keeps them all.
  const task = input.messages.every(({ message }) => message.message.speaker === null);
  const replyWords = document.wordsOf(input.replies);
  const aboutTheTask = (claim: Claim, chitChat: boolean): boolean => {
    if (!task || claim.act !== 'fact' || claim.correction) return true;
    if (chitChat) return false;
    // A past event is news ("Marta ate two croissants") unless it is the speaker's own, dated or priced, or
    // bears on what the document tracks.
    if (!claim.event && (input.facts.length < 3 || claim.values.some(isSolid))) return true;
    if (claim.event && (claim.personal || claim.values.some((item) => item.type === 'money' || (item.type === 'date' && /\d/u.test(item.text)) || /^(?:19|20)\d\d$/u.test(item.text)))) return true;
    return document.tracks(claim.key ?? '') || document.echoes(claim.key ?? '', replyWords);
  };

  for (const { message, claims } of input.messages) {
    // "I said Finance wanted annual upfront, but they've changed their minds": the line that said it goes,
    // and what the sentence says instead is a change ("quarterly invoicing is better").
    const withdrawing = new Set<AnalysedSentence>();
    for (const sentence of message.sentences) {
      const withdrawn = withdrawnClaim(sentence);
      const line = withdrawn === null ? null : lineOfClaim(withdrawn, document.knownLines());
      if (line === null) continue;
      document.removeFor(line, sentence.text, message.message.id);
      withdrawing.add(sentence);
    }
    const chitChat = task && CHIT_CHAT_MARKERS.test(message.prose);
    let open: OpenChange | null = null;
    const finish = (): void => {
      if (open?.target !== null && open !== null && open.claim.oldValues.length > 0) document.remove(open.target, open.claim);
      open = null;
    };
    for (const said of claims) {
      const claim = withdrawing.has(said.sentence) ? { ...said, correction: true } : said;
      // (A proposal changes the document only once accepted, as a decision.)
      if (claim.act === 'proposal') continue;
      // "Ravi cleared me to go above 35 km": the 35 km cap goes, whatever else the claim says.
      const lifted = liftedLimit(document.knownLines(), claim);
      if (lifted !== null) document.remove(lifted, claim);
      if (claim.key === null && !claim.correction) continue;
      // (A value that completes a change the message opened on a known fact is about the task: "I've changed
      // my mind about the school again … They're going to the Grundschule".)
      const opened = open?.target ?? null;
      const holdsOpenedClass = opened !== null && claim.classes.some((wanted) => document.holdsClass(opened, wanted));
      if (!(holdsOpenedClass && claim.values.length > 0) && !aboutTheTask(claim, chitChat)) continue;
      // "The deadline moved again": the next value of the message is its new value ("pushed back a week"
      // says it at once).
      if (claim.opens) {
        finish();
        const target = claim.key === null ? null : document.sure(claim, claim.key);
        if (target !== null && shiftDays(claim.value) !== null) {
          document.update(target, { ...claim, correction: true });
          continue;
        }
        open = { target, claim };
        continue;
      }
      // A removal drops what it names ("we no longer need the Hetzner box as a 3-month standby"); one that
      // gives a value the fact does not hold ("… but in Stockholm") changes it; one that names nothing
      // known ("All nuts and peanuts are out") rules it out.
      if (claim.act === 'removal' && applyRemoval(document, claim)) continue;
      // ("… to 2,400 instead of 2,600?" names no subject, but the value it sets aside names the fact.)
      let target = claim.key === null ? (claim.oldValues.length > 0 ? document.holderOf(claim.oldValues) : null) : document.sure(claim, claim.key);
      // ("… so it's 104 now", "it" guessed as Beth's friend Mia and matched to "uni friend kez", whose line holds
      // no number: a change said of "it" that only a look-alike key takes goes where such a value changes.)
      const guessed = target;
      const lookAlike = guessed !== null && claim.key !== null && guessed.key !== normalizeText(claim.key);
      if (guessed !== null && lookAlike && claim.pronoun && claim.correction && !claim.classes.some((wanted) => document.holdsClass(guessed, wanted))) {
        const placed = placeChange(document, message, claim);
        if (placed === 'applied') continue;
        if (placed !== null) target = placed;
      }
      // "March 15 is off": only the old value is named; it goes, unless a later clause gives the new one.
      if (target !== null && claim.values.length === 0 && claim.oldValues.length > 0) {
        if (open === null) open = { target, claim };
        else open = { target: open.target ?? target, claim: { ...open.claim, oldValues: [...open.claim.oldValues, ...claim.oldValues] } };
        continue;
      }
      // (`open` is as it was above: the branches between that change it go on to the next claim.)
      // ("They're going to the Grundschule" after "changed my mind about the school": a line keyed by the
      // same name as the opened one is that change's too.)
      const namedAlike = target !== null && open?.target != null && firstWord(target.key) === firstWord(open.target.key) && replacesNamedChoice(open.target, claim);
      // (Not a clause about the choice being left: "Isarhaus replied: no place until January" tells why.)
      const aboutOld = open?.target != null && talksOfNamedChoice(open.target, claim);
      if (open !== null && claim.values.length > 0 && !aboutOld && (opened === null || holdsOpenedClass) && (target === null || target === open.target || namedAlike)) {
        target = open.target;
        const opened = open.claim;
        open = null;
        // (A new named choice in place of the one the line is keyed by: every line keyed by that name goes.)
        if (target !== null && replacesNamedChoice(target, claim)) {
          for (const line of [target, ...document.linesAboutChoice(target)]) document.remove(line, claim);
          target = null;
        }
        if (target !== null) {
          document.update(target, { ...claim, correction: true, weight: Math.max(claim.weight, opened.weight) + 1 });
          continue;
        }
        document.add({ ...claim, key: opened.key ?? claim.key });
        continue;
      }
      // "So that's twelve on the books": a headcount said again is the headcount.
      if (target === null && (claim.correction || ((claim.pronoun || countsPeople(claim)) && claim.classes.includes('count')))) {
        const placed = placeChange(document, message, claim);
        if (placed === 'applied') continue;
        target = placed;
      }
      // "We got to VFS at 8:30 with both kids": what happened is news beside the fact, never its new value
      // (a change is said as one: "moved", "now", "instead").
      if (target !== null && claim.event && !claim.correction && claim.oldValues.length === 0) target = null;
      // "… cancelled, and went with Kestrel in the end": the choice the message sets aside goes.
      const superseded = target === null ? supersededChoice(() => document.withClass('name'), message, claim) : null;
      if (superseded !== null) document.remove(superseded, claim);
      // "… went with Soar Valley Skips in the end, they were £30 cheaper than Hurst": the quote it beat goes.
      const beaten = target === null && superseded === null ? weighedAlternative(() => document.withClass('name'), claim) : null;
      if (beaten !== null) document.remove(beaten, claim);
      // "… so she's out for the revision. I went with Petra Holm instead": the role Annika filled gets the
      // new choice; a line keyed by the name set aside goes.
      const unavailable = target === null && superseded === null ? unavailableChoice(() => document.withClass('name'), message, claim) : null;
      if (unavailable?.keyedByName === true) document.remove(unavailable.line, claim);
      else if (unavailable !== null) target = unavailable.line;

      // "We went with Hartwell instead of Halcombe" of "halcombe hall: holding the date": the fact named by
      // what the claim sets aside goes, and the new choice is a line under its own name.
      if (target !== null && claim.act === 'decision' && namedBySetAside(target, claim)) {
        document.remove(target, claim);
        target = null;
      }
      if (target !== null) document.update(target, claim);
      else if (claim.key !== null && claim.act !== 'removal') document.add(claim);
    }
    finish();
  }
  return toDiff(document, input.maxLines);
}

/**
 * A removal drops what it names ("we no longer need the Hetzner box as a 3-month standby"), says a rule
 * again, or rules out what it names when nothing known is named ("All nuts and peanuts are out"); false
 * when it does none of these (it may still change a fact: "… but in Stockholm").
 */
function applyRemoval(document: TurnDocument, claim: Claim): boolean {
  // 'So "guarantee" is out': a word ruled out is a rule about wording (pinned like any rule); it drops no fact.
  // (Written in lower case: 'The "Hillside" is out' drops a booking, it bans no word.)
  if (claim.key !== null && BANS.test(claim.value) && new RegExp(`["“]${escapeRegExp(claim.key)}["”]`, 'u').test(claim.sentence.text)) {
    document.add({ ...claim, act: 'rule', kind: 'exception' });
    return true;
  }
  // (Only the fact under its key, or the one its clause describes: sharing one word is not enough to drop a fact.)
  const target = document.removalTarget(claim);
  // "Under no circumstances another diesel. … So diesel is out.": ruling out what a rule forbids says
  // the rule again; it drops nothing.
  if (target !== null && prohibits(target)) {
    if (BANS.test(claim.value)) document.add({ ...claim, act: 'constraint', kind: 'constraint' });
    return true;
  }
  if (target !== null && !claim.telling.some((item) => item.type !== 'version' && !document.holds(target, item))) {
    // ("I've decided to skip Porto" drops every line about Porto, "porto fact" too.)
    for (const line of [target, ...document.sameSubjectLines(target)]) document.remove(line, claim);
    return true;
  }
  if (target === null && claim.key !== null && claim.values.length === 0 && BANS.test(claim.value)) {
    document.add({ ...claim, act: 'constraint', kind: 'constraint' });
    return true;
  }
  return false;
}

/**
 * A change with no sure target: the fact it points at, or 'applied' when it changed it already (the value
 * said earlier that names the fact is replaced, or the count of people in its line).
 */
function placeChange(document: TurnDocument, message: AnalysedMessage, claim: Claim): Known | null | 'applied' {
  // (Only what the claim's sentence or the one before it says: "the storm on Tuesday" three sentences
  // back has nothing to do with a start that "slid to June".)
  const near = nearby(message, claim);
  const target = pointedAt(claim, near, document);
  if (target === null) return null;
  // The value said earlier that names the fact is the one the claim replaces ("1:55 … aim for 2:00 instead").
  // (A value of the class the claim gives first: "Kaveri want to pack us" is no date "3 August" replaces,
  // the "1" of a vote "3–1" no count of cassettes, and "Wednesday's INR" no dose "2.5 mg from tonight".)
  const old = near.find(
    (item) =>
      item.text !== claim.values[0]?.text &&
      COMPETING_CLASSES.has(classOfSpecific(item)) &&
      sameClass(classOfSpecific(item), wantedClass(claim) ?? 'name') &&
      document.holds(target, item),
  );
  if (old !== undefined && claim.oldValues.length === 0) {
    document.update(target, { ...claim, correction: true, oldValues: [old] });
    return 'applied';
  }
  // "the headcount is 185" of "boxed lunches for about 210 people …": the count of people changes, the line stays.
  const counted = old !== undefined || !countsPeople(claim) ? null : peopleCountIn(target.text);
  if (counted !== null) {
    document.update(target, { ...claim, correction: true, oldValues: [specific('number', counted, 0)] });
    return 'applied';
  }
  return target;
}

/** Whether the claim's key names people counted: "the headcount is 185". */
function countsPeople(claim: Claim): boolean {
  return PEOPLE_NOUNS.has(claim.key?.split(' ').at(-1) ?? '');
}

/** The one count of people a line holds ("about 210 people" → "210"), or null. */
function peopleCountIn(text: string): string | null {
  const counts = [...text.slice(text.indexOf(':') + 1).matchAll(/\b(\d[\d,]*)\s+(\p{L}+)(?:\s+(\p{L}+))?/gu)].filter(
    (match) => PEOPLE_NOUNS.has(match[2]?.toLowerCase() ?? '') || PEOPLE_NOUNS.has(match[3]?.toLowerCase() ?? ''),
  );
  return counts.length === 1 ? (counts[0]?.[1] ?? null) : null;
}

/**
 * The specifics of the claim's sentence and of the sentence before it, times of day aside: a claim's
 * values never include one, so none is a value it replaces ("rang at 8:30" is no day "from tonight" moves).
 */
function nearby(message: AnalysedMessage, claim: Claim): Specific[] {
  const index = message.sentences.indexOf(claim.sentence);
  // (Of its own sentence, not what a clause of reason or comment after the value adds: "moved the due
  // date to 23 January, so more room before February" says nothing of the February line.)
  const given = claim.values[0];
  const comment = given === undefined ? -1 : claim.sentence.text.slice(given.end).search(COMMENT_CLAUSE);
  const cut = given === undefined || comment < 0 ? Number.POSITIVE_INFINITY : given.end + comment;
  const said = (sentence: AnalysedSentence, item: Specific): boolean => !isClockTime(sentence, item) && (sentence !== claim.sentence || item.start < cut);
  return message.sentences.slice(Math.max(0, index - 1), index + 1).flatMap((sentence) => sentence.specifics.filter((item) => said(sentence, item)));
}

/** The class of the value a change gives first (a count of people before anything else). */
function wantedClass(claim: Claim): ValueClass | undefined {
  return claim.classes.includes('count') ? 'count' : claim.classes[0];
}

/** A count said as a change: "down to 96 now", "back up to 12", "up to 40 again". */
const COUNT_CHANGED = /\b(?:down|up|back) to (\d[\d,]*)\b|\b(\d[\d,]*) (?:now|again)\b/u;

/** Whether a line's count was said as a change and is within half again of `said` ("96" of "104"). */
function changedCountNear(line: string, said: string): boolean {
  const match = COUNT_CHANGED.exec(line);
  const old = Number((match?.[1] ?? match?.[2] ?? '').replace(/,/gu, ''));
  const now = Number(said.replace(/[^\d.]/gu, ''));
  if (match === null || !(old > 0) || !(now > 0)) return false;
  return Math.max(old, now) / Math.min(old, now) <= 1.5;
}

/**
 * The fact a correction with no sure target points at: one holding a value of the same class said
 * earlier in the message ("5:30 is too fast … aim for 5:45 instead"), or, for a short correction that
 * names nothing ("Actually, make that $45k."), the newest fact holding an amount or a date like it.
 */
function pointedAt(claim: Claim, mentioned: readonly Specific[], document: TurnDocument): Known | null {
  const [first] = claim.values;
  const wanted = wantedClass(claim);
  if (first === undefined || wanted === undefined) return null;
  // (Names are set aside in words, "Hallam instead of Luis", not by being said earlier.)
  const earlier = COMPETING_CLASSES.has(wanted) ? mentioned.filter((item) => item.text !== first.text && sameClass(classOfSpecific(item), wanted)) : [];
  const holder = document.holderOf(earlier);
  // ("the grant came in at $1,500 …, and the cap is now $5,800": a line of this message with a subject of
  // its own holds its own value, not the one the cap replaces.)
  if (holder !== null && !(holder.factId === null && claim.key !== null && !claim.pronoun && !sharesSubject(holder.key, claim.key))) return holder;
  // "So that's thirteen of us on the books now": a count of people said as a change is the headcount,
  // when the document holds one and only one.
  if (wanted === 'count' && (claim.correction || countsPeople(claim))) {
    const counts = document.withClass('count');
    if (counts.length === 1) return counts[0] ?? null;
  }
  // "The numbers have crept back up … so it's 104 now" of "guest list: down to 96 now": a bare number
  // said as a change of what "it" is changes the only line whose bare number, of about the same size,
  // was said as a change too ("it's 450 now" is no new count of 3 volunteers).
  if ((wanted === 'count' || wanted === 'number') && claim.pronoun && claim.correction) {
    const changed = document.withClass(wanted).filter((line) => changedCountNear(line.text, first.text));
    if (changed.length === 1) return changed[0] ?? null;
  }
  if (claim.key !== null && !claim.pronoun) return null;
  if (claim.sentence.tokens.length > 12 || wanted === 'person' || wanted === 'name' || wanted === 'number') return null;
  return document.newestWithClass(wanted);
}

function toDiff(document: TurnDocument, maxLines: number): FactDiff {
  const kept = document
    .lines()
    .sort((a, b) => KIND_STRENGTH[b.kind] - KIND_STRENGTH[a.kind] || b.weight - a.weight || a.order - b.order)
    .slice(0, maxLines)
    .sort((a, b) => a.order - b.order);
  const add: DiffEntry[] = [];
  const update: DiffEntry[] = [];
  for (const line of kept) {
    const entry: DiffEntry = {
      text: line.text,
      kind: line.kind,
      key: line.key,
      sourceMessageIds: line.sources,
      ...(line.reason === undefined ? {} : { reason: line.reason }),
      ...(line.mayReplace === undefined ? {} : { mayReplace: line.mayReplace }),
    };
    (line.replaces ? update : add).push(entry);
  }
  return { add, update, remove: document.removals() };
}

/** Whether two keys share a subject word. */
function sharesSubject(first: string, second: string): boolean {
  const words = subjectWords(second);
  return [...subjectWords(first)].some((word) => words.has(word));
}

/** Whether a rule or a requirement forbids what it names ("never …", "no …", "under no circumstances …"). */
function prohibits(known: Known): boolean {
  if (known.kind !== 'exception' && known.kind !== 'constraint') return false;
  return known.text.slice(known.text.indexOf(':') + 1).toLowerCase().split(/[^\p{L}'’]+/u).some((word) => NEGATIONS.has(word.replace('’', "'")) || /n't$/u.test(word) || word === 'nobody' || word === 'nothing');
}
