import { StrataError } from '../core/errors.js';
import { replayFactEvents } from '../core/diff.js';
import { finish } from '../core/slices.js';
import { compareText, loneSurrogateIndex } from '../core/text.js';
import { toolPairingProblem } from '../core/tool-calls.js';
import { EXPORT_FORMAT, plainMessageSchema, sessionExportSchema, type PlainMessage, type SessionExport } from './export-schema.js';
import { checkContent, checkSpeaker, toTimestamp, type CheckedMessage } from './message-input.js';
import { isToolName, openAiToolUse, toolCallBytes } from './tool-use-input.js';

/** A parsed import file: a lossless Strata export, or plain messages grouped into turns. */
export type ImportPlan =
  | { kind: 'export'; data: SessionExport }
  | { kind: 'messages'; instructions: string; turns: CheckedMessage[][]; skipped: number; messageCount: number };

function invalid(message: string, cause?: unknown): StrataError {
  return new StrataError('IMPORT_INVALID', message, cause === undefined ? {} : { cause });
}

/** Parse JSON text, reporting truncation and syntax errors clearly. */
export function parseJsonText(text: string, source: string): unknown {
  if (text.trim() === '') throw invalid(`${source} is empty; expected JSON.`);
  try {
    return JSON.parse(text);
  } catch (error) {
    const detail = (error as Error).message;
    const position = /at position (\d+)/u.exec(detail);
    const truncated =
      /end of (json )?input|unterminated/iu.test(detail) || (position !== null && Number(position[1]) >= text.trimEnd().length);
    throw invalid(
      `${source} is ${truncated ? 'truncated (the JSON ends early)' : 'not valid JSON'}: ${detail}. Re-export or repair the file; nothing was imported.`,
      error,
    );
  }
}

function issuePath(path: readonly PropertyKey[]): string {
  return path.map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`)).join('').replace(/^\./u, '');
}

function textOf(message: PlainMessage): string | null {
  if (typeof message.content === 'string') return message.content;
  if (Array.isArray(message.content)) {
    const parts = message.content.filter((part) => part.type === 'text' && typeof part.text === 'string').map((part) => part.text ?? '');
    return parts.length === 0 ? null : parts.join('\n');
  }
  return null;
}

/** Messages checked between two yields of `planningMessages`. */
const CHECKED_PER_SLICE = 500;

function* planningMessages(list: readonly unknown[], options: { now: string; maxBytes: number; source: string }): Generator<void, ImportPlan, void> {
  const turns: CheckedMessage[][] = [];
  const instructions: string[] = [];
  let skipped = 0;
  let messageCount = 0;
  let current: CheckedMessage[] = [];
  let labels: string[] = [];
  // A turn ends where the next user message begins; its tool calls and results must pair up within it.
  const closeTurn = (): void => {
    if (current.length === 0) return;
    const problem = toolPairingProblem(current, (index) => labels[index] ?? options.source);
    if (problem !== null) throw invalid(problem);
    turns.push(current);
    current = [];
    labels = [];
  };
  for (const [index, raw] of list.entries()) {
    if (index > 0 && index % CHECKED_PER_SLICE === 0) yield;
    const label = `${options.source} messages[${index}]`;
    const parsed = plainMessageSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw invalid(`${label}${issue === undefined || issue.path.length === 0 ? '' : `.${issuePath(issue.path)}`}: ${issue?.message ?? 'invalid'}; each message needs "role" and "content".`);
    }
    const message = parsed.data;
    const text = textOf(message);
    if (message.role === 'system' || message.role === 'developer') {
      if (text !== null && text.trim() !== '') instructions.push(checkContent(text, `${label} (${message.role})`, options.maxBytes));
      continue;
    }
    // (The legacy `function` role has no call id to pair it with its call: left out, as empty replies are.)
    if (message.role === 'function' || (message.role === 'assistant' && text === null && (message.tool_calls === undefined || message.tool_calls === null))) {
      skipped += 1;
      continue;
    }
    if (message.role !== 'user' && message.role !== 'assistant' && message.role !== 'tool') {
      throw invalid(`${label}.role is "${message.role}"; expected user, assistant, system, developer or tool.`);
    }
    const toolUse = openAiToolUse({ ...message, role: message.role }, label);
    const calls = toolUse.toolCalls ?? [];
    if (message.role === 'assistant' && text === null && calls.length === 0) {
      skipped += 1;
      continue;
    }
    const allowance = { allowEmpty: message.role === 'tool' || calls.length > 0, extraBytes: toolCallBytes(calls) };
    // (A tool result or a calling reply may have no text; any other message must.)
    const content = checkContent(allowance.allowEmpty ? (text ?? '') : text, label, options.maxBytes, allowance);
    const time = message.timestamp ?? message.created_at;
    // A message the file gives no time keeps none: its relative dates stay as written, never the import time.
    const sentAt = time === undefined ? null : toTimestamp(time, `${label}.timestamp`);
    const checked: CheckedMessage = {
      role: message.role,
      content,
      speaker: message.role === 'tool' ? null : checkSpeaker(message.speaker ?? message.name, label),
      externalId: null,
      createdAt: sentAt ?? options.now,
      sentAt,
      ...toolUse,
    };
    const previous = current[current.length - 1];
    if (checked.role === 'user' && previous !== undefined && previous.role !== 'user') {
      closeTurn();
    }
    current.push(checked);
    labels.push(label);
    messageCount += 1;
  }
  closeTurn();
  if (messageCount === 0) throw invalid(`${options.source} holds no user, assistant or tool messages; nothing to import.`);
  return { kind: 'messages', instructions: instructions.join('\n\n'), turns, skipped, messageCount };
}

function firstDuplicate(values: readonly (string | number)[]): string | number | undefined {
  const seen = new Set<string | number>();
  for (const value of values) {
    if (seen.has(value)) return value;
    seen.add(value);
  }
  return undefined;
}

/** Canonical text of facts, for comparing the stored document with its replayed events. */
function factDigest(facts: readonly SessionExport['facts'][number][]): string {
  return JSON.stringify(
    [...facts]
      .map((fact) => [fact.id, fact.key, fact.text, fact.kind, fact.pinned, fact.sourceMessageIds, fact.mayReplace ?? null])
      .sort((a, b) => compareText(String(a[0]), String(b[0]))),
  );
}

/** Why an export's tool calls and results are malformed or do not pair up within their turns, or null. */
function exportToolProblem(messages: SessionExport['messages']): string | null {
  for (const message of messages) {
    const names = [...(message.toolCalls ?? []).flatMap((call) => [call.id, call.name]), ...(message.toolCallId === undefined ? [] : [message.toolCallId])];
    if (!names.every(isToolName)) return `message ${message.id} has a tool call id or name that is empty, over 200 characters, on several lines or badly encoded`;
    if ((message.toolCalls ?? []).some((call) => loneSurrogateIndex(call.arguments) >= 0)) return `message ${message.id} has tool call arguments with a lone UTF-16 surrogate`;
    if (message.role === 'tool' && message.speaker !== null) return `message ${message.id} is a tool result with a speaker`;
    if ((message.role === 'tool') !== (message.toolCallId !== undefined)) return `message ${message.id} is a ${message.role} message ${message.role === 'tool' ? 'without' : 'with'} a toolCallId`;
    if (message.toolCalls !== undefined && message.role !== 'assistant') return `message ${message.id} is a ${message.role} message with tool calls`;
  }
  const byTurn = new Map<number, SessionExport['messages']>();
  for (const message of [...messages].sort((a, b) => a.position - b.position)) {
    const turn = byTurn.get(message.turn);
    if (turn === undefined) byTurn.set(message.turn, [message]);
    else turn.push(message);
  }
  for (const turn of byTurn.values()) {
    const problem = toolPairingProblem(turn, (index) => `message ${turn[index]?.id ?? ''}`);
    if (problem !== null) return problem;
  }
  return null;
}

/** Check that an export is internally consistent, so importing it cannot touch other sessions or corrupt one. */
function checkExport(data: SessionExport, source: string, maxBytes: number): SessionExport {
  const fail = (problem: string): never => {
    throw invalid(`${source}: ${problem}; the export is inconsistent (edited by hand?). Re-export the session.`);
  };
  // The size limit holds for every way in: an export made where the limit was higher is refused here.
  for (const message of data.messages) {
    const bytes = Buffer.byteLength(message.content, 'utf8') + toolCallBytes(message.toolCalls);
    if (bytes > maxBytes) {
      throw invalid(
        `${source}: message ${message.id} is ${bytes.toLocaleString('en-US')} bytes; the limit here is ${maxBytes.toLocaleString('en-US')}. Raise maxMessageBytes (STRATA_MAX_MESSAGE_BYTES) to import it.`,
      );
    }
  }
  const sessionId = data.session.id;
  const owners: Array<[string, string]> = [
    ...data.messages.map((message): [string, string] => [`message ${message.id}`, message.sessionId]),
    ...data.turns.map((turn): [string, string] => [`turn ${turn.turn}`, turn.sessionId]),
    ...data.facts.map((fact): [string, string] => [`fact ${fact.id}`, fact.sessionId]),
    ...data.factEvents.map((event): [string, string] => [`fact event ${event.id}`, event.sessionId]),
    ...data.artifacts.map((artifact): [string, string] => [`artifact ${artifact.name}`, artifact.sessionId]),
  ];
  for (const [what, owner] of owners) if (owner !== sessionId) fail(`${what} belongs to session ${owner}, not ${sessionId}`);
  const checks: Array<[string, readonly (string | number)[]]> = [
    ['message id', data.messages.map((message) => message.id)],
    ['message position', data.messages.map((message) => message.position)],
    ['turn number', data.turns.map((turn) => turn.turn)],
    ['fact id', data.facts.map((fact) => fact.id)],
    ['fact event id', data.factEvents.map((event) => event.id)],
    ['fact event sequence', data.factEvents.map((event) => event.sequence)],
    ['artifact id', data.artifacts.map((artifact) => artifact.id)],
    ['artifact name', data.artifacts.map((artifact) => artifact.name)],
  ];
  for (const [what, values] of checks) {
    const duplicate = firstDuplicate(values);
    if (duplicate !== undefined) fail(`${what} ${duplicate} appears twice`);
  }
  const messageIds = new Set(data.messages.map((message) => message.id));
  const known = (id: string, where: string): void => {
    if (!messageIds.has(id)) fail(`${where} cites unknown message ${id}`);
  };
  for (const message of data.messages) {
    if (loneSurrogateIndex(message.content) >= 0) fail(`message ${message.id} contains a lone UTF-16 surrogate`);
  }
  const problem = exportToolProblem(data.messages);
  if (problem !== null) fail(problem);
  for (const turn of data.turns) for (const id of turn.messageIds) known(id, `turn ${turn.turn}`);
  for (const fact of data.facts) for (const id of fact.sourceMessageIds) known(id, `fact ${fact.id}`);
  for (const event of data.factEvents) for (const id of event.sourceMessageIds) known(id, `fact event ${event.id}`);
  const sequences = new Map(data.factEvents.map((event) => [event.id, event.sequence]));
  for (const event of data.factEvents) {
    const undone = event.undoes === undefined ? undefined : (sequences.get(event.undoes) ?? Number.POSITIVE_INFINITY);
    if (undone !== undefined && undone >= event.sequence) fail(`fact event ${event.id} undoes ${event.undoes ?? ''}, which is not an earlier event of the session`);
  }
  for (const artifact of data.artifacts) {
    const duplicate = firstDuplicate(artifact.versions.map((version) => version.version));
    if (duplicate !== undefined) fail(`artifact ${artifact.name} has version ${duplicate} twice`);
    for (const version of artifact.versions) {
      if (version.artifactId !== artifact.id) fail(`a version of artifact ${artifact.name} belongs to artifact ${version.artifactId}`);
      known(version.messageId, `artifact ${artifact.name}`);
    }
  }
  if (factDigest(replayFactEvents(data.factEvents)) !== factDigest(data.facts)) {
    fail('its facts are not what its fact events produce');
  }
  return data;
}

/** Recognise and validate an import: a Strata export, an array of messages, or `{ messages: [...] }`. */
export function planImport(value: unknown, options: { now: string; maxBytes: number; source: string }): ImportPlan {
  return finish(planningImport(value, options));
}

/** `planImport`, yielding between slices of a long list of messages. */
export function* planningImport(value: unknown, options: { now: string; maxBytes: number; source: string }): Generator<void, ImportPlan, void> {
  if (Array.isArray(value)) return yield* planningMessages(value, options);
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    if (record.format === EXPORT_FORMAT) {
      const parsed = sessionExportSchema.safeParse(value);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw invalid(`${options.source} is a Strata export but ${issue === undefined ? 'invalid' : `${issuePath(issue.path)}: ${issue.message}`}; re-export the session.`);
      }
      return { kind: 'export', data: checkExport(parsed.data, options.source, options.maxBytes) };
    }
    if (Array.isArray(record.messages)) return yield* planningMessages(record.messages, options);
  }
  throw invalid(
    `${options.source} is not an importable conversation: expected a Strata session export, an array of { "role", "content" } messages, or an object with a "messages" array.`,
  );
}

/** Give every id of an export a fresh value, keeping all references consistent. */
export function withNewIds(data: SessionExport, newId: () => string): SessionExport {
  const ids = new Map<string, string>();
  const map = (id: string): string => {
    let next = ids.get(id);
    if (next === undefined) {
      next = newId();
      ids.set(id, next);
    }
    return next;
  };
  const sessionId = map(data.session.id);
  return {
    ...data,
    session: { ...data.session, id: sessionId },
    messages: data.messages.map((message) => ({ ...message, id: map(message.id), sessionId })),
    turns: data.turns.map((turn) => ({ ...turn, sessionId, messageIds: turn.messageIds.map(map) })),
    facts: data.facts.map((fact) => ({
      ...fact,
      id: map(fact.id),
      sessionId,
      sourceMessageIds: fact.sourceMessageIds.map(map),
      ...(fact.mayReplace === undefined ? {} : { mayReplace: map(fact.mayReplace) }),
    })),
    factEvents: data.factEvents.map((event) => ({
      ...event,
      id: map(event.id),
      sessionId,
      factId: event.factId === null ? null : map(event.factId),
      sourceMessageIds: event.sourceMessageIds.map(map),
      ...(event.mayReplace === undefined ? {} : { mayReplace: map(event.mayReplace) }),
      ...(event.undoes === undefined ? {} : { undoes: map(event.undoes) }),
    })),
    artifacts: data.artifacts.map((artifact) => {
      const artifactId = map(artifact.id);
      return {
        ...artifact,
        id: artifactId,
        sessionId,
        versions: artifact.versions.map((version) => ({ ...version, artifactId, messageId: map(version.messageId) })),
      };
    }),
  };
}
