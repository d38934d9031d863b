/**
 * The handle of one session: its turns, its context, its chat, its facts (with a person's corrections
 * and undo), its messages, turns and artifacts, and its export. Every method reports an unknown session.
 */
import { replayFactEvents } from '../core/diff.js';
import { describeValue } from '../core/describe-value.js';
import { StrataError } from '../core/errors.js';
import { toolPairingProblem } from '../core/tool-calls.js';
import type { FactEvent } from '../core/types.js';
import { checkDetailRecords, checkDetailRequest, checkRound } from './detail-request-input.js';
import { applyDetailRequest, detailCounts } from './detail-requests.js';
import { editFact } from './edit-facts.js';
import type { ChatOptions, SessionHandle } from './memory-api.js';
import { checkMessageInput, toTimestamp, type CheckedMessage } from './message-input.js';
import { checkToolSteps, describeChecked } from './tool-use-input.js';
import { chatInSession } from './session-chat.js';
import { searchSession } from './session-search.js';
import { toMarkdown, toSessionExport } from './session-export.js';
import { checkInstructions, checkTitle, isOptions } from './session-input.js';
import { assemble, snapshot, type SessionServices } from './session-reads.js';
import { undoFactEvent } from './undo-fact-event.js';

/** A person's correction of a session's facts, run as the session's memory work (see `SessionFacts`). */
async function correct(services: SessionServices, sessionId: string, request: unknown, op: 'add' | 'edit' | 'remove'): Promise<FactEvent> {
  const { repositories, gate, now, newId, requireSession } = services.parts;
  await requireSession(sessionId);
  // (A request that is not an object goes through as it is, so the refusal says what is wrong with it.)
  const withOp = typeof request === 'object' && request !== null && !Array.isArray(request) ? { ...request, op } : request;
  return gate.enqueue(sessionId, () => editFact({ repositories, sessionId, request: withOp, now, newId }));
}

/** The options of `context()`, checked: an object with a budget (checked by the assembler) and an optional text query. */
function checkContextOptions(options: unknown): { budget: number; query: string | undefined } {
  if (!isOptions(options)) throw new StrataError('INVALID_INPUT', `context() takes { budget, query? } (got ${describeValue(options)}).`);
  const { budget, query } = options;
  if (query !== undefined && typeof query !== 'string') throw new StrataError('INVALID_INPUT', `The query must be text (got ${describeValue(query)}).`);
  return { budget: budget as number, query };
}

export function sessionHandle(services: SessionServices, sessionId: string): SessionHandle {
  const { settings, repositories, tokenizer, now, newId, lock, gate, writes, counters, requireSession } = services.parts;
  const { storeTurn, resumePending } = services.work;
  return {
    id: sessionId,
    info: () => requireSession(sessionId),
    record: async (input) => {
      if (typeof input !== 'object' || input === null) {
        throw new StrataError('INVALID_INPUT', 'record() takes { user?, tools?, assistant?, timestamp?, detailRequests? }.');
      }
      const createdAt = input.timestamp === undefined ? now() : toTimestamp(input.timestamp, 'The turn timestamp');
      const checked: CheckedMessage[] = [];
      if (input.user !== undefined) checked.push(checkMessageInput(input.user, 'user', createdAt, settings.maxMessageBytes));
      if (input.tools !== undefined) checked.push(...checkToolSteps(input.tools, createdAt, settings.maxMessageBytes));
      if (input.assistant !== undefined) checked.push(checkMessageInput(input.assistant, 'assistant', createdAt, settings.maxMessageBytes));
      const detailRequests = checkDetailRecords(input.detailRequests);
      if (checked.length === 0) throw new StrataError('INVALID_INPUT', 'record() needs a user message, an assistant message, or both.');
      const pairing = toolPairingProblem(checked, (index) => describeChecked(checked, index));
      if (pairing !== null) throw new StrataError('INVALID_INPUT', pairing);
      // (storeTurn reports an unknown session.) Turns an earlier run left underived go first, so memory is derived in turn order.
      void gate.enqueue(sessionId, () => resumePending(sessionId)).catch(() => undefined);
      const stored = await storeTurn(sessionId, checked, detailRequests.length === 0 ? undefined : { staleMemory: false, detailRequests });
      if (detailRequests.length > 0) counters.add(sessionId, detailCounts(detailRequests));
      return stored.memory;
    },
    context: async (options) => {
      const { budget, query } = checkContextOptions(options);
      // (assemble reports an unknown session.)
      await gate.enqueue(sessionId, () => resumePending(sessionId));
      return assemble(services, sessionId, budget, query);
    },
    requestDetail: async (request, options) => {
      const checked = checkDetailRequest(request);
      const round = checkRound(options);
      await requireSession(sessionId);
      return applyDetailRequest(services.parts, sessionId, checked, round);
    },
    search: (options) => searchSession(services.parts, sessionId, options),
    chat: ((input: unknown, chatOptions: unknown = {}) => {
      // Bad input fails the promise of a whole reply; a stream is refused at once (there is no promise yet).
      try {
        if (!isOptions(chatOptions)) throw new StrataError('INVALID_INPUT', `chat() options must be an object such as { stream, budget, tools } (got ${describeValue(chatOptions)}).`);
        return chatInSession(services, sessionId, input, chatOptions as ChatOptions);
      } catch (error) {
        if (isOptions(chatOptions) && chatOptions.stream === true) throw error;
        return Promise.reject(error);
      }
    }) as SessionHandle['chat'],
    facts: Object.assign(
      async (factOptions: { atTurn?: number } = {}) => {
        if (!isOptions(factOptions)) throw new StrataError('INVALID_INPUT', `facts() takes { atTurn? } (got ${describeValue(factOptions)}).`);
        const { turnCount } = await requireSession(sessionId);
        const atTurn = factOptions.atTurn;
        if (atTurn === undefined) return repositories.facts.list({ sessionId });
        if (typeof atTurn !== 'number' || !Number.isInteger(atTurn) || atTurn < 0 || atTurn > turnCount) {
          throw new StrataError('INVALID_INPUT', `atTurn must be a turn of this session, a whole number from 0 to ${turnCount} (got ${describeValue(atTurn)}).`, {
            details: { atTurn: typeof atTurn === 'number' ? atTurn : null, turnCount },
          });
        }
        return replayFactEvents(await repositories.facts.listEvents({ sessionId, upToTurn: atTurn }), { atTurn });
      },
      {
        add: (request: unknown) => correct(services, sessionId, request, 'add'),
        edit: (request: unknown) => correct(services, sessionId, request, 'edit'),
        remove: (request: unknown) => correct(services, sessionId, request, 'remove'),
      },
    ),
    factEvents: async () => {
      await requireSession(sessionId);
      return repositories.facts.listEvents({ sessionId });
    },
    undoFactEvent: async (eventId) => {
      await requireSession(sessionId);
      return gate.enqueue(sessionId, () => undoFactEvent({ repositories, sessionId, eventId, now, newId }));
    },
    messages: async (options = {}) => {
      if (typeof options !== 'object' || options === null) throw new StrataError('INVALID_INPUT', 'messages() takes nothing, or { offset, limit }.');
      const offset = pageNumber(options.offset, 'offset');
      const limit = pageNumber(options.limit, 'limit');
      await requireSession(sessionId);
      return repositories.messages.list({ sessionId, ...(offset === undefined ? {} : { offset }), ...(limit === undefined ? {} : { limit }) });
    },
    turns: async () => {
      await requireSession(sessionId);
      return repositories.turns.list({ sessionId });
    },
    artifacts: async () => {
      await requireSession(sessionId);
      return repositories.artifacts.list({ sessionId });
    },
    rename: async (title) => {
      const checked = checkTitle(title);
      if (!(await repositories.sessions.update({ sessionId, title: checked, updatedAt: now() }))) await requireSession(sessionId);
    },
    setInstructions: async (instructions) => {
      const checked = checkInstructions(instructions);
      if (!(await repositories.sessions.update({ sessionId, instructions: checked, updatedAt: now() }))) await requireSession(sessionId);
    },
    delete: () =>
      lock(sessionId, async () => {
        if (!(await repositories.sessions.delete({ sessionId }))) await requireSession(sessionId);
        // (A read in flight meanwhile caches nothing: the reader drops what a write overtook.)
        writes.announce({ sessionId });
      }),
    export: async (options) => {
      const format: unknown = isOptions(options) ? options.format : undefined;
      if (format !== 'json' && format !== 'markdown') {
        throw new StrataError('INVALID_INPUT', `Unknown export format ${describeValue(format)}; use "json" or "markdown".`);
      }
      const data = await snapshot(services.parts, sessionId);
      return format === 'json'
        ? `${JSON.stringify(toSessionExport(data, { exportedAt: now(), tokenizer: tokenizer.name }), null, 2)}\n`
        : toMarkdown(data);
    },
  };
}

/** A paging number as given: undefined, or a whole number ≥ 0 (anything else is refused, naming it). */
function pageNumber(value: unknown, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
  throw new StrataError('INVALID_INPUT', `messages({ ${name} }) must be a whole number ≥ 0 (got ${typeof value === 'number' ? value : typeof value}).`);
}
