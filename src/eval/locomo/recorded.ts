/**
 * LoCoMo's LLM-written memory as a recording for the recorded memory manager, aligned with the replay's turns:
 *
 * - every `observation` becomes a fact, proposed in the turn where its last evidence dialogue appears, citing
 *   its evidence dialogues (so a one-source observation credits its message under the credit rule);
 * - an observation that rests on exactly one dialogue is also that message's tier 2 and its side of the turn
 *   summary (the recording's own brief summary of the message); other messages keep their raw text;
 * - every `session_summary` becomes facts citing every dialogue of its session (split at sentences to stay
 *   within the engine's 500-character fact limit), proposed in the session's last turn. Citing many messages,
 *   they credit nothing for evidence recall; the engine may reject them (it only accepts citations of the
 *   exchange a fact is proposed in), and the run reports how many it rejected and why.
 */
import type { RecordedFact, RecordedTurn } from '../../managers/recorded/index.js';
import type { LocomoSample } from './dataset.js';
import { replayTurns, type ReplayTurn } from './replay.js';

/** Longest fact the engine accepts (characters). */
const MAX_FACT_CHARACTERS = 500;

/** Key prefix of the facts a session summary becomes. */
export const SESSION_SUMMARY_KEY = 'locomo session summary';

export interface RecordedScript {
  turns: RecordedTurn[];
  /** Facts proposed, by origin. */
  observationFacts: number;
  sessionSummaryFacts: number;
  /** Observations with no usable evidence: not played back. */
  skippedObservations: number;
}

/** Split text at sentence ends into pieces of at most `limit` characters (a longer sentence is cut at a word). */
export function splitSentences(text: string, limit: number): string[] {
  const sentences = text.match(/[^.!?]+(?:[.!?]+|$)/gu)?.map((sentence) => sentence.trim()).filter((sentence) => sentence !== '') ?? [];
  const pieces: string[] = [];
  let current = '';
  for (const sentence of sentences) {
    let rest = sentence;
    while (rest.length > limit) {
      const cut = rest.lastIndexOf(' ', limit - 1);
      const at = cut > 0 ? cut : limit - 1;
      if (current !== '') pieces.push(current);
      current = '';
      pieces.push(`${rest.slice(0, at).trim()}…`);
      rest = rest.slice(at).trim();
    }
    const joined = current === '' ? rest : `${current} ${rest}`;
    if (joined.length <= limit) current = joined;
    else {
      pieces.push(current);
      current = rest;
    }
  }
  if (current !== '') pieces.push(current);
  return pieces;
}

/** The recording of a sample, one entry per turn of `replayTurns(sample)`. */
export function recordedScript(sample: LocomoSample, turns: readonly ReplayTurn[] = replayTurns(sample)): RecordedScript {
  const turnOf = new Map<string, number>();
  const order = new Map<string, number>();
  turns.forEach((turn, index) => {
    for (const message of turn.messages) {
      turnOf.set(message.diaId, index);
      order.set(message.diaId, order.size);
    }
  });
  const facts: RecordedFact[][] = turns.map(() => []);
  const briefs = new Map<string, string[]>();
  let observationFacts = 0;
  let skippedObservations = 0;
  for (const observation of sample.observations) {
    const evidence = observation.evidence.filter((id) => turnOf.has(id));
    const last = evidence.reduce<string | undefined>((latest, id) => (latest === undefined || (order.get(id) ?? 0) > (order.get(latest) ?? 0) ? id : latest), undefined);
    const index = last === undefined ? undefined : turnOf.get(last);
    if (index === undefined) {
      skippedObservations += 1;
      continue;
    }
    facts[index]?.push({ text: observation.text, kind: 'fact', sources: evidence });
    observationFacts += 1;
    const [only] = evidence;
    if (evidence.length === 1 && only !== undefined) briefs.set(only, [...(briefs.get(only) ?? []), observation.text]);
  }

  let sessionSummaryFacts = 0;
  for (const summary of sample.sessionSummaries) {
    const session = sample.sessions.find((candidate) => candidate.index === summary.session);
    const lastTurn = turns.reduce((found, turn, index) => (turn.session === summary.session ? index : found), -1);
    if (session === undefined || lastTurn < 0) continue;
    const sources = session.dialogues.map((dialogue) => dialogue.diaId);
    splitSentences(summary.text, MAX_FACT_CHARACTERS).forEach((piece, part) => {
      facts[lastTurn]?.push({
        text: piece,
        kind: 'fact',
        key: `${SESSION_SUMMARY_KEY} ${summary.session} ${part + 1}`,
        sources,
      });
      sessionSummaryFacts += 1;
    });
  }

  const recorded = turns.map((turn, index): RecordedTurn => {
    const brief = (role: 'user' | 'assistant'): string | undefined => {
      const message = turn.messages.find((candidate) => candidate.role === role);
      const texts = message === undefined ? undefined : briefs.get(message.diaId);
      return texts === undefined ? undefined : texts.join(' ');
    };
    const userSummary = brief('user');
    const assistantSummary = brief('assistant');
    return {
      messages: turn.messages.map((message) => ({
        externalId: message.diaId,
        content: message.content,
        tier2: briefs.get(message.diaId)?.join(' ') ?? '',
        requiredTier: 2,
      })),
      ...(userSummary === undefined ? {} : { userSummary }),
      ...(assistantSummary === undefined ? {} : { assistantSummary }),
      facts: facts[index] ?? [],
    };
  });
  return { turns: recorded, observationFacts, sessionSummaryFacts, skippedObservations };
}
