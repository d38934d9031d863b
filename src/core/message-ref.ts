/**
 * How the chat model names a message in a detail request: its turn and role, `12u` for the user's
 * message of turn 12, `12a` for the assistant's, `12t` for a tool result; a second message of the same
 * role in the turn adds its count (`12a2`, the assistant's second message, after its tool calls). The
 * lines of older turns begin with `[turn 12] user:`, so the model can name any line it sees.
 */
import type { Role } from './types.js';

const LETTERS: Readonly<Record<Role, string>> = { user: 'u', assistant: 'a', tool: 't' };
const ROLES: Readonly<Record<string, Role>> = { u: 'user', a: 'assistant', t: 'tool' };

export interface MessageRef {
  turn: number;
  role: Role;
  /** 1 for the first message of that role in the turn. */
  nth: number;
}

/** The refs of a turn's messages, in their order. */
export function messageRefs(messages: ReadonlyArray<{ turn: number; role: Role }>): string[] {
  const seen = new Map<string, number>();
  return messages.map((message) => {
    const key = `${message.turn}${LETTERS[message.role]}`;
    const nth = (seen.get(key) ?? 0) + 1;
    seen.set(key, nth);
    return nth === 1 ? key : `${key}${nth}`;
  });
}

/** The turn, role and count a ref names, or null when it is not one. */
export function parseMessageRef(ref: string): MessageRef | null {
  const match = /^(\d{1,9})([uat])(\d{1,4})?$/iu.exec(ref.trim());
  if (match?.[1] === undefined || match[2] === undefined) return null;
  const turn = Number(match[1]);
  const nth = match[3] === undefined ? 1 : Number(match[3]);
  const role = ROLES[match[2].toLowerCase()];
  return turn < 1 || nth < 1 || role === undefined ? null : { turn, role, nth };
}

/** The message a ref names among its turn's messages (in position order), or undefined. */
export function findByRef<T extends { turn: number; role: Role }>(messages: readonly T[], ref: MessageRef): T | undefined {
  return messages.filter((message) => message.turn === ref.turn && message.role === ref.role)[ref.nth - 1];
}
