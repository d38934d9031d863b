/**
 * The local memory manager: deterministic, offline, rule-based. For each turn it derives tier 1 and
 * tier 2 of every message, the turn summary, the required tiers, a base-truth diff and the artifacts.
 */
import { MemoSpace } from '../../core/memo-space.js';
import { pacedPause } from '../../core/event-loop.js';
import { finish, mappingInSlices, stepThrough } from '../../core/slices.js';
import { mapPacked } from '../../core/packed-map.js';
import { routeTurn } from '../../core/routing.js';
import { limitWords } from '../../core/text.js';
import type { ConsolidateOptions, ConsolidationResult, MemoryManager, MessageMemory, PrepareMessageOptions, ProcessTurnOptions, TurnMemory, TurnMessageInput } from '../memory-manager.js';
import { LocalConsolidator } from './local-consolidation.js';
import { turnArtifacts } from './artifacts.js';
import { allowsFacts } from './assistant-facts.js';
import { acceptedProposals, confirmedClaims } from './confirmed-actions.js';
import { claimDiff, type ClaimDiffInput } from './claim-diff.js';
import { DateParserNeeded, loadDateParser } from './date-parser.js';
import { PreparedMessages } from './prepared-messages.js';
import { BaseLinesCache } from './known-lines.js';
import type { MessageWork } from './prepared-messages.js';
import { messageContext, workingOn } from './message-work.js';
import { requiredTier } from './required-tier.js';
import { resolveSettings } from './settings.js';
import type { LocalManagerSettings, ResolvedSettings } from './settings.js';
import { warmUpTagger } from './tagging.js';
import { tierOne } from './tier-one.js';
import { tierTwo } from './tier-two.js';
import { ASSISTANT_SUMMARY_WORDS, USER_SUMMARY_WORDS, sideSummary } from './turn-summary.js';
import { calledTools, isToolTraffic, toolTrafficMemory, withCalls } from './tool-traffic.js';

/** Longest word kept whole in tiers and summaries (a pasted blob or a long link is cut with an ellipsis). */
const MAX_WORD_CHARACTERS = 48;

const LONG_WORD = new RegExp(`\\S{${MAX_WORD_CHARACTERS + 1},}`, 'gu');

function tidy(text: string): string {
  // Cheap test first: a word this long is rare.
  let run = 0;
  let long = false;
  for (let index = 0; index < text.length && !long; index += 1) {
    const code = text.charCodeAt(index);
    run = code === 32 || code === 10 || code === 9 ? 0 : run + 1;
    long = run > MAX_WORD_CHARACTERS;
  }
  return long ? text.replace(LONG_WORD, (word) => `${word.slice(0, MAX_WORD_CHARACTERS)}…`) : text;
}

/** A message's memory with `change` applied to both tiers. */
function mapTiers(memory: MessageMemory, change: (text: string) => string): MessageMemory {
  return { ...memory, tier1: change(memory.tier1), tier2: change(memory.tier2) };
}

/**
 * Derive everything the local manager produces for one turn, yielding between slices of its messages'
 * sentences. The first message's work is taken from `prepared` when it was done ahead for this very
 * message and time.
 */
function* derivingTurn(options: ProcessTurnOptions, settings: ResolvedSettings, kept: KeptWork = {}): Generator<void, TurnMemory, void> {
  const { prepared, bases } = kept;
  const context = messageContext(settings);
  // Tool calls and results are summarised apart; the pipeline reads what the user and assistant said.
  const conversation = options.messages.filter((message) => !isToolTraffic(message));
  const works: MessageWork[] = [];
  for (const [index, message] of conversation.entries()) {
    const ready = index === 0 ? prepared?.take(message, options.timestamp) : undefined;
    if (ready === undefined) {
      works.push(yield* workingOn(message, context));
      continue;
    }
    context.taggingBudget.sentences = ready.taggingLeft;
    works.push(ready);
  }
  yield;
  return yield* finishingTurn(options, settings, { conversation, works, bases });
}

/** The turn's memory from its messages' work (tiers, summaries, the diff, the artifacts), yielding between its steps. */
function* finishingTurn(
  options: ProcessTurnOptions,
  settings: ResolvedSettings,
  done: { conversation: TurnMessageInput[]; works: MessageWork[]; bases: BaseLinesCache | undefined },
): Generator<void, TurnMemory, void> {
  const { conversation, works, bases } = done;
  const analysed = mapPacked(works, (work) => work.analysed);
  const statements = mapPacked(works, (work) => work.statements);
  const units = mapPacked(works, (work) => work.units);
  const route = routeTurn(mapPacked(conversation, (message) => message.content));
  const { drafts, codeNames } = turnArtifacts({
    messages: analysed,
    known: options.artifacts,
    revisionSimilarity: settings.revisionSimilarity,
    draftMinWords: settings.draftMinWords,
  });
  yield;

  const messages: MessageMemory[] = yield* mappingInSlices(analysed, 1, (message, index) => {
    const code = codeNames.get(message.message.id) ?? [];
    const memory = {
      messageId: message.message.id,
      tier1: tidy(tierOne({ message, statements: statements[index] ?? [], code, share: settings.tierOneShare })),
      tier2: tidy(tierTwo({ message, units: units[index] ?? [], code, share: settings.tierTwoShare })),
      requiredTier: requiredTier(message, settings.verbatimMaxWords),
    };
    return withCalls(memory, message.message.toolCalls ?? []);
  });
  for (const message of options.messages) if (isToolTraffic(message)) messages.push(mapTiers(toolTrafficMemory(message, options.messages), tidy));
  yield;

  const side = (role: 'user' | 'assistant', limit: number): string => {
    const indexes = analysed.flatMap((message, index) => (message.message.role === role ? [index] : []));
    const ofRole = indexes.flatMap((index) => analysed[index] ?? []);
    const code = ofRole.flatMap((message) => mapPacked(codeNames.get(message.message.id) ?? [], (block) => block.name));
    return sideSummary({ messages: ofRole, units: mapPacked(indexes, (index) => units[index] ?? []), code, limit });
  };

  // Messages that may change the document give their claims; the others are read for what they echo.
  const speaking: ClaimDiffInput['messages'][number][] = [];
  const replies: string[] = [];
  const user = analysed.find((message) => message.message.role === 'user');
  const reply = analysed.find((message) => message.message.role === 'assistant');
  for (const work of works) {
    if (allowsFacts(work.analysed, settings.assistantFacts)) {
      // "Can we go to 2,400 instead of 2,600?" — "Yes. …": the change asked for is made.
      const claims = work.analysed.message.role === 'user' ? acceptedProposals(work.claims.claims, reply) : work.claims.claims;
      speaking.push({ message: work.analysed, claims, mentioned: work.claims.mentioned });
      continue;
    }
    replies.push(work.analysed.prose);
    // "Book the Swiss one." — "Booked: Swiss LX2084 on 11 May …": the confirmation holds the choice in full.
    const confirmed = confirmedClaims(user, work.analysed, settings.maxFactWords);
    if (confirmed !== null) speaking.push({ message: work.analysed, claims: confirmed.claims, mentioned: confirmed.mentioned });
  }
  yield;
  const diff = claimDiff({
    messages: speaking,
    facts: options.facts,
    maxLines: settings.maxFactsPerTurn,
    workingFacts: settings.workingFacts,
    replies,
    ...(bases === undefined ? {} : { bases: { sessionId: options.sessionId, cache: bases } }),
  });

  yield;
  const called = calledTools(options.messages);
  const replySummary = side('assistant', ASSISTANT_SUMMARY_WORDS);
  return {
    messages,
    userSummary: tidy(side('user', USER_SUMMARY_WORDS)),
    assistantSummary: tidy(called === '' ? replySummary : limitWords(`${called} ${replySummary}`, ASSISTANT_SUMMARY_WORDS)),
    depth: route.depth,
    windowExtension: route.windowExtension,
    diff,
    artifacts: drafts,
  };
}

/** Prepared messages a manager keeps (one per chat turn in flight, of any session), and their characters at most. */
const PREPARED_LIMITS = { maxEntries: 64, maxCharacters: 1_000_000 };

const warm = new Set<ResolvedSettings['tagger']>();

/**
 * The NLP libraries build their tables lazily on first use; pay that once per process, when idle after
 * the first manager is created, rather than in a recorded turn. The date parser is loaded only when a
 * turn first needs it (most dates — weekdays, "today", "tomorrow" — are read without it).
 */
function warmUp(tagger: ResolvedSettings['tagger']): void {
  if (warm.has(tagger)) return;
  warm.add(tagger);
  warmUpTagger(tagger);
  const turn: ProcessTurnOptions = {
    sessionId: 'warm-up',
    turn: 1,
    messages: [
      { id: 'warm-up-user', role: 'user', speaker: null, content: 'We must never deploy on Fridays; the deadline moved to Monday and I prefer Lisbon, actually.', sentAt: '2024-01-01T00:00:00Z' },
      { id: 'warm-up-assistant', role: 'assistant', speaker: null, content: 'Noted.', sentAt: '2024-01-01T00:00:00Z' },
    ],
    facts: [],
    artifacts: [],
    timestamp: '2024-01-01T00:00:00Z',
  };
  try {
    finish(derivingTurn(turn, resolveSettings({ tagger })));
  } catch (error) {
    if (!(error instanceof DateParserNeeded)) throw error;
  }
}

/** `slices` with each of its steps run in `space` (a manager's memos). */
function* inSpace<T>(space: MemoSpace, slices: Generator<void, T, void>): Generator<void, T, void> {
  for (;;) {
    const step = space.run(() => slices.next());
    if (step.done === true) return step.value;
    yield;
  }
}

/** What a manager keeps between turns: messages analysed ahead, and each recent session's indexed document. */
interface KeptWork {
  prepared?: PreparedMessages;
  bases?: BaseLinesCache;
}

/** Analyse a message ahead of its turn and keep the work in `prepared` (see `MemoryManager.prepare`), in slices. */
function* preparing(options: PrepareMessageOptions, settings: ResolvedSettings, prepared: PreparedMessages): Generator<void, void, void> {
  const context = messageContext(settings);
  // A copy: the work refers to the message, and the caller's object may change before the turn comes.
  const message = { ...options.message };
  try {
    const work = yield* workingOn(message, context);
    prepared.keep(message, options.timestamp, { ...work, taggingLeft: context.taggingBudget.sentences });
  } catch (error) {
    // The message holds a date only the parser reads: start loading it, so the turn finds it ready
    // (processTurn loads it again, and reports it, should this fail).
    if (error instanceof DateParserNeeded) loadDateParser().catch(() => undefined);
    else throw error;
  }
}

/**
 * Create the local memory manager (`name: 'local'`): rule-based extraction with compromise
 * (tagging), chrono-node (dates) and the ICU sentence segmenter. No network, deterministic:
 * the same turn always gives the same memory.
 */
export function createLocalMemoryManager(settings?: LocalManagerSettings): MemoryManager {
  const resolved = resolveSettings(settings);
  const prepared = new PreparedMessages(PREPARED_LIMITS);
  const bases = new BaseLinesCache();
  const consolidator = new LocalConsolidator();
  // The memos of text analysis this manager's work fills, bounded in bytes (core/memo-space.ts).
  const caches = new MemoSpace(resolved.cacheBytes);
  // Preparations still running, by message id: a turn waits for its opening message's rather than redo it.
  const preparations = new Map<string, Promise<void>>();
  // Warm up when the event loop is idle (a short-lived command that records nothing never pays for it).
  setImmediate(() => caches.run(() => warmUp(resolved.tagger))).unref();
  /**
   * Run `slices` to its end in this manager's memo space. Once it has worked `sliceMs` in one go, other
   * work (requests, other sessions' turns) gets a turn of the event loop before the next slice.
   */
  const sliced = <T>(slices: Generator<void, T, void>): Promise<T> => stepThrough(inSpace(caches, slices), pacedPause(resolved.sliceMs));
  /** The turn's memory, or null when it holds a date only the parser reads and the parser is not loaded yet. */
  const deriving = async (options: ProcessTurnOptions, kept: KeptWork): Promise<TurnMemory | null> => {
    try {
      return await sliced(derivingTurn(options, resolved, kept));
    } catch (error) {
      if (error instanceof DateParserNeeded) return null;
      throw error;
    }
  };
  return {
    name: 'local',
    async processTurn(options: ProcessTurnOptions): Promise<TurnMemory> {
      try {
        caches.run(() => warmUp(resolved.tagger));
        const opening = options.messages[0];
        if (opening !== undefined) await preparations.get(opening.id)?.catch(() => undefined);
        // The first turn of a large document here: what it needs of the document is made in slices first.
        await sliced(bases.preparing(options.sessionId, options.facts, resolved.workingFacts));
        const memory = await deriving(options, { prepared, bases });
        if (memory !== null) return memory;
        // The turn holds a date only the parser reads: load it once, then derive the turn again.
        await loadDateParser();
        return await sliced(derivingTurn(options, resolved, { bases }));
      } catch (error) {
        throw error instanceof Error ? error : new Error(String(error));
      }
    },
    async consolidate(options: ConsolidateOptions): Promise<ConsolidationResult> {
      // A large document takes seconds to compare whole (the first consolidation of a session in a
      // process): other requests and sessions get the event loop between its slices.
      return sliced(consolidator.slices(options));
    },
    prepare(options: PrepareMessageOptions): Promise<void> {
      caches.run(() => warmUp(resolved.tagger));
      const id = options.message.id;
      const done: Promise<void> = sliced(preparing(options, resolved, prepared)).finally(() => {
        if (preparations.get(id) === done) preparations.delete(id);
      });
      preparations.set(id, done);
      // (Handled here too: a caller that drops the promise must not leave a rejection unhandled.)
      void done.catch(() => undefined);
      return done;
    },
  };
}
