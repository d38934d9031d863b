import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { StrataError } from '../core/errors.js';
import { compareText } from '../core/text.js';
import { alternativeProblem } from './match.js';

/**
 * The key-fact conversation format (`../shared/design/evaluation.md` §2 and §2b):
 * `{ id, description, budget, messages: [{ role, content, timestamp? }], keyFacts: [{ id, tier, text, mustInclude }],
 * staleFacts?: [{ id, supersededBy, text, mustInclude }] }`. Unknown fields are ignored.
 *
 * A stale fact is a claim that was true or planned once and was later corrected, cancelled, reversed or
 * declined; `supersededBy` names the key fact that states the current truth, or is null when nothing
 * replaces it.
 */

const nonEmpty = (what: string): z.ZodString => z.string({ error: `${what} must be a string` }).trim().min(1, { error: `${what} must not be empty` });

const alternativeSchema = z
  .string({ error: 'an alternative must be a string' })
  .min(1, { error: 'an alternative must not be empty' })
  .superRefine((alternative, context) => {
    const problem = alternativeProblem(alternative);
    if (problem !== null) context.addIssue({ code: 'custom', message: problem });
  });

const mustIncludeSchema = z
  .array(
    z.array(alternativeSchema, { error: 'a group must be an array of alternatives' }).min(1, { error: 'a group needs at least one alternative; remove the empty group or list words in it' }),
    { error: 'mustInclude must be an array of groups (arrays of alternatives)' },
  )
  .min(1, { error: 'mustInclude needs at least one group, e.g. [["budget"], ["45 000", "45k"]]' });

export const keyFactSchema = z.object({
  id: nonEmpty('a key fact id'),
  tier: z.literal([1, 2, 3], { error: 'tier must be 1 (hard constraint), 2 (core requirement) or 3 (soft or future signal)' }),
  text: z.string({ error: 'text must be a string' }),
  mustInclude: mustIncludeSchema,
});

export const staleFactSchema = z.object({
  id: nonEmpty('a stale fact id'),
  supersededBy: z.union([nonEmpty('supersededBy'), z.null()], { error: 'supersededBy must be the id of a key fact, or null when nothing replaces the claim' }),
  text: z.string({ error: 'text must be a string' }),
  mustInclude: mustIncludeSchema,
});

const timestampSchema = z
  .string({ error: 'timestamp must be an ISO-8601 string such as 2026-03-02T18:40:00Z' })
  .refine((value) => !Number.isNaN(Date.parse(value)), { error: 'timestamp is not a valid time; use an ISO-8601 string such as 2026-03-02T18:40:00Z' });

export const conversationMessageSchema = z.object({
  role: z.enum(['system', 'user', 'assistant'], { error: 'role must be "user", "assistant" or "system"' }),
  content: z.string({ error: 'content must be a string' }),
  timestamp: timestampSchema.optional(),
});

export const keyFactConversationSchema = z
  .object({
    id: nonEmpty('id'),
    description: z.string({ error: 'description must be a string' }).default(''),
    budget: z.number({ error: 'budget must be a number of tokens' }).int({ error: 'budget must be a whole number' }).min(1, { error: 'budget must be ≥ 1' }),
    messages: z.array(conversationMessageSchema, { error: 'messages must be an array of { role, content }' }).min(1, { error: 'messages must not be empty' }),
    keyFacts: z.array(keyFactSchema, { error: 'keyFacts must be an array' }).min(1, { error: 'keyFacts needs at least one fact' }),
    staleFacts: z.array(staleFactSchema, { error: 'staleFacts must be an array' }).default([]),
  })
  .superRefine((conversation, context) => {
    const seen = new Set<string>();
    conversation.keyFacts.forEach((fact, index) => {
      if (seen.has(fact.id)) context.addIssue({ code: 'custom', path: ['keyFacts', index, 'id'], message: `key fact id "${fact.id}" appears twice` });
      seen.add(fact.id);
    });
    const staleSeen = new Set<string>();
    conversation.staleFacts.forEach((fact, index) => {
      if (staleSeen.has(fact.id)) context.addIssue({ code: 'custom', path: ['staleFacts', index, 'id'], message: `stale fact id "${fact.id}" appears twice` });
      staleSeen.add(fact.id);
      if (fact.supersededBy !== null && !seen.has(fact.supersededBy)) {
        context.addIssue({
          code: 'custom',
          path: ['staleFacts', index, 'supersededBy'],
          message: `"${fact.supersededBy}" names no key fact; use the id of the key fact that states the current truth, or null when nothing replaces the claim`,
        });
      }
    });
    if (!conversation.messages.some((message) => message.role !== 'system')) {
      context.addIssue({ code: 'custom', path: ['messages'], message: 'messages needs at least one user or assistant message' });
    }
  });

export type KeyFact = z.infer<typeof keyFactSchema>;
export type StaleFact = z.infer<typeof staleFactSchema>;
export type FactTier = KeyFact['tier'];
export type ConversationMessage = z.infer<typeof conversationMessageSchema>;
export type KeyFactConversation = z.infer<typeof keyFactConversationSchema>;

/** A conversation with the file it came from. */
export interface LoadedConversation {
  /** The path as given (or as found in a folder), for messages. */
  file: string;
  conversation: KeyFactConversation;
}

/** `keyFacts[2].mustInclude[0][1]`. */
function issuePath(path: readonly PropertyKey[]): string {
  return path.map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`)).join('').replace(/^\./u, '');
}

const ISSUES_SHOWN = 5;

function invalid(source: string, message: string, details: Record<string, unknown> = {}, cause?: unknown): StrataError {
  return new StrataError('INVALID_INPUT', message, { details: { file: source, ...details }, ...(cause === undefined ? {} : { cause }) });
}

/** The id of the key or stale fact an issue path points into, when it has one. */
function factNamed(value: unknown, path: readonly PropertyKey[]): string | null {
  const [list, index] = path;
  if ((list !== 'keyFacts' && list !== 'staleFacts') || typeof index !== 'number' || typeof value !== 'object' || value === null) return null;
  const facts = (value as Record<string, unknown>)[list];
  const fact: unknown = Array.isArray(facts) ? facts[index] : undefined;
  const id = typeof fact === 'object' && fact !== null ? (fact as Record<string, unknown>).id : undefined;
  return typeof id === 'string' && id.trim() !== '' ? id : null;
}

/** Validate a parsed key-fact conversation; errors name `source` and the path of each bad field. */
export function parseKeyFactConversation(value: unknown, source: string): KeyFactConversation {
  const parsed = keyFactConversationSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues;
  const lines = issues.slice(0, ISSUES_SHOWN).map((issue) => {
    const path = issuePath(issue.path);
    const fact = factNamed(value, issue.path);
    return `${path === '' ? '(top level)' : path}${fact === null ? '' : ` (fact "${fact}")`}: ${issue.message}`;
  });
  if (issues.length > ISSUES_SHOWN) lines.push(`… and ${issues.length - ISSUES_SHOWN} more`);
  const first = issues[0];
  throw invalid(
    source,
    `${source} is not a valid key-fact conversation: ${lines.join('; ')}. Expected { "id", "description", "budget", "messages": [{ "role", "content", "timestamp"? }], "keyFacts": [{ "id", "tier", "text", "mustInclude" }], "staleFacts"?: [{ "id", "supersededBy", "text", "mustInclude" }] }.`,
    { path: first === undefined ? '' : issuePath(first.path) },
  );
}

/** Read and validate one key-fact conversation file (`file` relative to `cwd`). */
export function loadKeyFactConversation(file: string, cwd = process.cwd()): LoadedConversation {
  let text: string;
  try {
    text = readFileSync(resolve(cwd, file), 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder' : code === 'EACCES' ? 'permission denied' : (error as Error).message;
    throw invalid(file, `Cannot read ${file}: ${reason}.`, {}, error);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw invalid(file, `${file} is not valid JSON: ${(error as Error).message}.`, {}, error);
  }
  return { file, conversation: parseKeyFactConversation(value, file) };
}

/**
 * The conversation files named by `paths`: a file stands for itself, a folder for every `*.json`
 * directly inside it, sorted by name. The same file named twice is taken once.
 */
export function conversationFiles(paths: readonly string[], cwd = process.cwd()): string[] {
  const files: string[] = [];
  const seen = new Set<string>();
  const add = (file: string): void => {
    const absolute = resolve(cwd, file);
    if (seen.has(absolute)) return;
    seen.add(absolute);
    files.push(file);
  };
  for (const path of paths) {
    let isFolder: boolean;
    try {
      isFolder = statSync(resolve(cwd, path)).isDirectory();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw invalid(path, `Cannot read ${path}: ${code === 'ENOENT' ? 'no such file or folder' : (error as Error).message}.`, {}, error);
    }
    if (!isFolder) {
      add(path);
      continue;
    }
    const names = readdirSync(resolve(cwd, path), { withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name.toLowerCase().endsWith('.json'))
      .map((entry) => entry.name)
      .sort(compareText);
    if (names.length === 0) throw invalid(path, `${path} holds no *.json conversation files.`);
    for (const name of names) add(join(path, name));
  }
  return files;
}

/** Load every conversation named by `paths` (files and folders); conversation ids must be unique. */
export function loadKeyFactConversations(paths: readonly string[], cwd = process.cwd()): LoadedConversation[] {
  if (paths.length === 0) throw new StrataError('INVALID_INPUT', 'Name at least one key-fact conversation file or folder.');
  const loaded = conversationFiles(paths, cwd).map((file) => loadKeyFactConversation(file, cwd));
  const owners = new Map<string, string>();
  for (const { file, conversation } of loaded) {
    const other = owners.get(conversation.id);
    if (other !== undefined) throw invalid(file, `${file} and ${other} both have the id "${conversation.id}"; conversation ids must be unique.`, { path: 'id' });
    owners.set(conversation.id, file);
  }
  return loaded;
}
