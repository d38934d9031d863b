import { describeValue } from '../core/describe-value.js';
import { StrataError } from '../core/errors.js';
import { loneSurrogateIndex } from '../core/text.js';
import type { Role, ToolCall } from '../core/types.js';

/** One side of a turn: the text, or the text with the speaker's name. */
export type MessageInput = string | { content: string; speaker?: string | null };

/** A validated message ready to store. */
export interface CheckedMessage {
  /** Given when the message's id was settled before it was stored (a chat turn's user message); otherwise one is made. */
  id?: string;
  role: Role;
  content: string;
  speaker: string | null;
  externalId: string | null;
  createdAt: string;
  /** When the message was sent, when known (see `Message.sentAt`). */
  sentAt: string | null;
  /** An assistant message's tool calls (see `Message.toolCalls`). */
  toolCalls?: ToolCall[];
  /** The call a `tool` message answers (see `Message.toolCallId`). */
  toolCallId?: string;
  /** Tokens of the message as stored (its content and tool use), when counted ahead (see counted-ahead.ts). */
  tier3Tokens?: number;
}

/** Parse an ISO-8601 string, a Date or epoch milliseconds into an ISO string. */
export function toTimestamp(value: unknown, label: string): string {
  const date =
    value instanceof Date ? value : typeof value === 'string' || typeof value === 'number' ? new Date(value) : new Date(Number.NaN);
  if (Number.isNaN(date.getTime())) {
    throw new StrataError('INVALID_INPUT', `${label} is not a valid time (got ${describeValue(value)}); use an ISO-8601 string such as 2026-11-22T10:00:00Z.`);
  }
  return date.toISOString();
}

/** What a message's text may be besides plain: empty (a tool's result, an assistant's text beside its tool calls), sharing the size limit with its tool calls. */
export interface ContentAllowance {
  allowEmpty?: boolean;
  /** Bytes of the message's tool calls, counted within the limit with its text. */
  extraBytes?: number;
}

/**
 * Check one message: non-empty, valid UTF-16 (no lone surrogates) and within the size limit.
 * Errors say which message and how to fix it; nothing is stored before every message passes.
 */
export function checkContent(content: unknown, label: string, maxBytes: number, allowance: ContentAllowance = {}): string {
  if (typeof content !== 'string') {
    throw new StrataError('INVALID_INPUT', `${label} must be a string (got ${content === null ? 'null' : typeof content}).`);
  }
  if (content.trim() === '' && allowance.allowEmpty !== true) {
    throw new StrataError('INVALID_INPUT', `${label} is empty or only whitespace; send the text of the message, or leave that side of the turn out.`);
  }
  const surrogate = loneSurrogateIndex(content);
  if (surrogate >= 0) {
    throw new StrataError(
      'INVALID_INPUT',
      `${label} contains a lone UTF-16 surrogate at index ${surrogate} (broken text encoding); decode the input as UTF-8/UTF-16 correctly or replace the character.`,
      { details: { index: surrogate } },
    );
  }
  const bytes = Buffer.byteLength(content, 'utf8') + (allowance.extraBytes ?? 0);
  if (bytes > maxBytes) {
    throw new StrataError(
      'INVALID_INPUT',
      `${label} is ${bytes.toLocaleString('en-US')} bytes; the limit is ${maxBytes.toLocaleString('en-US')}. Split the message, store large documents as files, or raise maxMessageBytes (STRATA_MAX_MESSAGE_BYTES).`,
      { details: { bytes, maxBytes } },
    );
  }
  return content;
}

export function checkSpeaker(speaker: unknown, label: string): string | null {
  if (speaker === undefined || speaker === null) return null;
  if (typeof speaker !== 'string' || speaker.trim() === '' || speaker.length > 200 || loneSurrogateIndex(speaker) >= 0) {
    throw new StrataError('INVALID_INPUT', `${label} speaker must be a non-empty name of at most 200 characters.`);
  }
  return speaker.trim();
}

export function checkMessageInput(input: MessageInput, role: Role, createdAt: string, maxBytes: number): CheckedMessage {
  const label = `The ${role} message`;
  if (typeof input === 'string') {
    return { role, content: checkContent(input, label, maxBytes), speaker: null, externalId: null, createdAt, sentAt: createdAt };
  }
  if (typeof input !== 'object' || input === null) {
    throw new StrataError('INVALID_INPUT', `${label} must be a string or { content, speaker? }.`);
  }
  return {
    role,
    content: checkContent(input.content, label, maxBytes),
    speaker: checkSpeaker(input.speaker, label),
    externalId: null,
    createdAt,
    sentAt: createdAt,
  };
}
