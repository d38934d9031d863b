/**
 * The rows of Strata's tables, column by column, and their mapping to the core types: shared by every
 * SQL adapter, whose schemas use the same table and column names. A flag is an integer 0/1 or a boolean,
 * and a list of ids JSON text or an array, whichever the database gives back.
 */
import { StrataError } from '../core/errors.js';
import type {
  ArtifactKind,
  ArtifactVersion,
  DetailRequestRecord,
  Fact,
  FactEvent,
  FactEventOp,
  FactKind,
  Message,
  Role,
  Session,
  Tier,
  ToolCall,
  TurnDepth,
  TurnStatus,
  TurnSummary,
} from '../core/types.js';
import type { ApiKeyRecord, MemoryRetry } from './store.js';

/** A list of ids as a column holds it: JSON text (SQLite) or an array (a JSON column of another database). */
export type IdList = string | readonly string[];

/** The ids of a list column, failing loudly on corruption. */
export function parseIdList(stored: IdList, column: string): string[] {
  let value: unknown = stored;
  if (typeof stored === 'string') {
    try {
      value = JSON.parse(stored);
    } catch (error) {
      throw new StrataError('STORE_FAILURE', `Column ${column} holds ${stored.slice(0, 80)}, not a list of ids; the database is corrupt.`, { cause: error });
    }
  }
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) {
    const shown = typeof stored === 'string' ? stored : JSON.stringify(stored);
    throw new StrataError('STORE_FAILURE', `Column ${column} holds ${shown.slice(0, 80)}, not a list of ids; the database is corrupt.`);
  }
  return typeof stored === 'string' ? (value as string[]) : [...(value as string[])];
}

export interface SessionRow {
  id: string;
  title: string;
  instructions: string;
  created_at: string;
  updated_at: string;
  message_count: number;
  turn_count: number;
  token_count: number;
}

export function toSession(row: SessionRow): Session {
  return {
    id: row.id,
    title: row.title,
    instructions: row.instructions,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    messageCount: row.message_count,
    turnCount: row.turn_count,
    tokenCount: row.token_count,
  };
}

export interface MessageRow {
  id: string;
  session_id: string;
  turn: number;
  position: number;
  role: Role;
  speaker: string | null;
  content: string;
  tier1: string;
  tier2: string;
  tier1_tokens: number;
  tier2_tokens: number;
  tier3_tokens: number;
  required_tier: Tier;
  created_at: string;
  sent_at: string | null;
  external_id: string | null;
  /** JSON of the message's `ToolCall` list, or null. */
  tool_calls: string | null;
  tool_call_id: string | null;
}

/**
 * A message's values for an INSERT, in the order of the messages table's columns after tenant and
 * session: id, turn, position, role, speaker, content, tier1, tier2, the three tiers' tokens, required
 * tier, created, sent, external id, tool calls (JSON) and the tool call answered.
 */
export function messageValues(message: Message): Array<string | number | null> {
  return [
    message.id,
    message.turn,
    message.position,
    message.role,
    message.speaker,
    message.content,
    message.tier1,
    message.tier2,
    message.tokens.tier1,
    message.tokens.tier2,
    message.tokens.tier3,
    message.requiredTier,
    message.createdAt,
    message.sentAt,
    message.externalId,
    message.toolCalls === undefined ? null : JSON.stringify(message.toolCalls),
    message.toolCallId ?? null,
  ];
}

export function toMessage(row: MessageRow): Message {
  return {
    id: row.id,
    sessionId: row.session_id,
    turn: row.turn,
    position: row.position,
    role: row.role,
    speaker: row.speaker,
    content: row.content,
    tier1: row.tier1,
    tier2: row.tier2,
    tokens: { tier1: row.tier1_tokens, tier2: row.tier2_tokens, tier3: row.tier3_tokens },
    requiredTier: row.required_tier,
    createdAt: row.created_at,
    sentAt: row.sent_at,
    externalId: row.external_id,
    ...(row.tool_calls === null ? {} : { toolCalls: JSON.parse(row.tool_calls) as ToolCall[] }),
    ...(row.tool_call_id === null ? {} : { toolCallId: row.tool_call_id }),
  };
}

export interface TurnRow {
  session_id: string;
  turn: number;
  message_ids: IdList;
  user_summary: string;
  assistant_summary: string;
  depth: TurnDepth;
  status: TurnStatus;
  window_extension: number;
  tokens: number;
  created_at: string;
  stale_memory: number | boolean;
  detail_requests?: string | null;
}

export function toSummary(row: TurnRow): TurnSummary {
  return {
    sessionId: row.session_id,
    turn: row.turn,
    messageIds: parseIdList(row.message_ids, 'turns.message_ids'),
    userSummary: row.user_summary,
    assistantSummary: row.assistant_summary,
    depth: row.depth,
    status: row.status,
    windowExtension: row.window_extension,
    tokens: row.tokens,
    createdAt: row.created_at,
    ...(row.stale_memory === 1 || row.stale_memory === true ? { staleMemory: true } : {}),
    ...(row.detail_requests == null ? {} : { detailRequests: parseDetailRequests(row.detail_requests) }),
  };
}

/**
 * A turn summary's values for an INSERT, in the order of the turns table's columns after the tenant:
 * session, turn, message ids (JSON), the two summaries, depth, status, window extension, tokens,
 * created, whether its memory is stale (as `flag` writes a flag: a boolean, or 0/1 for SQLite), and its
 * detail requests (JSON, or null for none).
 */
export function summaryValues(summary: TurnSummary, flag: (set: boolean) => number | boolean = (set) => set): Array<string | number | boolean | null> {
  return [
    summary.sessionId,
    summary.turn,
    JSON.stringify(summary.messageIds),
    summary.userSummary,
    summary.assistantSummary,
    summary.depth,
    summary.status,
    summary.windowExtension,
    summary.tokens,
    summary.createdAt,
    flag(summary.staleMemory === true),
    summary.detailRequests === undefined || summary.detailRequests.length === 0 ? null : JSON.stringify(summary.detailRequests),
  ];
}

/** An API key as its table holds it. */
export interface ApiKeyRow {
  id: string;
  tenant_id: string;
  name: string;
  hash: string;
  created_at: string;
  revoked_at: string | null;
}

export function toApiKey(row: ApiKeyRow): ApiKeyRecord {
  return { id: row.id, tenantId: row.tenant_id, name: row.name, hash: row.hash, createdAt: row.created_at, revokedAt: row.revoked_at };
}

const OUTCOMES: ReadonlySet<string> = new Set(['raised', 'unchanged', 'searched', 'ignored', 'over-limit']);

/** The stored JSON of a turn's detail requests, checked (a malformed column fails loudly, naming it). */
function parseDetailRequests(text: string): DetailRequestRecord[] {
  const parsed: unknown = JSON.parse(text);
  const valid =
    Array.isArray(parsed) &&
    parsed.every((entry: Partial<DetailRequestRecord>) => Number.isInteger(entry.round) && (entry.kind === 'tier' || entry.kind === 'search') && typeof entry.target === 'string' && OUTCOMES.has(String(entry.outcome)));
  if (!valid) throw new StrataError('STORE_FAILURE', `turns.detail_requests holds something that is not a list of detail requests: ${text.slice(0, 120)}`);
  return parsed as DetailRequestRecord[];
}

/** The columns of a fact row, in the order `FactRow` holds them. */
export const FACT_COLUMNS = 'id, session_id, key, text, kind, pinned, source_message_ids, created_turn, updated_turn, created_at, updated_at, may_replace';

/**
 * A fact row as a list of its `FACT_COLUMNS` (read raw: a session's facts are read whole on its first
 * package, thousands of them, and a row object per fact only to copy it cost a third of that read).
 */
export type FactRow = [
  id: string,
  sessionId: string,
  key: string,
  text: string,
  kind: FactKind,
  pinned: number | boolean,
  sourceMessageIds: IdList,
  createdTurn: number,
  updatedTurn: number,
  createdAt: string,
  updatedAt: string,
  mayReplace: string | null,
];

export interface EventRow {
  id: string;
  session_id: string;
  sequence: number;
  fact_id: string | null;
  op: FactEventOp;
  key: string;
  kind: FactKind;
  old_text: string | null;
  new_text: string | null;
  turn: number;
  actor: string;
  reason: string;
  source_message_ids: IdList;
  created_at: string;
  may_replace: string | null;
  undoes: string | null;
}

export function toFact(row: FactRow): Fact {
  const [id, sessionId, key, text, kind, pinned, sourceMessageIds, createdTurn, updatedTurn, createdAt, updatedAt, mayReplace] = row;
  return {
    id,
    sessionId,
    key,
    text,
    kind,
    pinned: pinned === 1 || pinned === true,
    sourceMessageIds: parseIdList(sourceMessageIds, 'facts.source_message_ids'),
    createdTurn,
    updatedTurn,
    createdAt,
    updatedAt,
    ...(mayReplace === null ? {} : { mayReplace }),
  };
}

export function toEvent(row: EventRow): FactEvent {
  return {
    id: row.id,
    sessionId: row.session_id,
    sequence: row.sequence,
    factId: row.fact_id,
    op: row.op,
    key: row.key,
    kind: row.kind,
    oldText: row.old_text,
    newText: row.new_text,
    turn: row.turn,
    actor: row.actor,
    reason: row.reason,
    sourceMessageIds: parseIdList(row.source_message_ids, 'fact_events.source_message_ids'),
    createdAt: row.created_at,
    ...(row.may_replace === null ? {} : { mayReplace: row.may_replace }),
    ...(row.undoes === null || row.undoes === undefined ? {} : { undoes: row.undoes }),
  };
}

export interface ArtifactRow {
  id: string;
  session_id: string;
  name: string;
  kind: ArtifactKind;
  language: string | null;
}

export interface VersionRow {
  artifact_id: string;
  version: number;
  turn: number;
  message_id: string;
  content: string;
  tokens: number;
  created_at: string;
}

export function toVersion(row: VersionRow): ArtifactVersion {
  return {
    artifactId: row.artifact_id,
    version: row.version,
    turn: row.turn,
    messageId: row.message_id,
    content: row.content,
    tokens: row.tokens,
    createdAt: row.created_at,
  };
}

export interface RetryRow {
  session_id: string;
  turn: number;
  attempts: number;
  next_attempt_at: string;
  reason: string;
  last_error: string;
  created_at: string;
  updated_at: string;
}

export function toRetry(row: RetryRow): MemoryRetry {
  return {
    sessionId: row.session_id,
    turn: row.turn,
    attempts: row.attempts,
    nextAttemptAt: row.next_attempt_at,
    reason: row.reason,
    lastError: row.last_error,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
