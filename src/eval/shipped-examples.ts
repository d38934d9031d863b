/**
 * The key-fact conversations shipped with the package, for running the retention eval without a file
 * of one's own: every `examples/conversations/*.json`, then `examples/demo-conversation.json`, under the
 * package root. Each is named by its conversation id.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { StrataError } from '../core/errors.js';
import { conversationFiles, loadKeyFactConversation, type KeyFactConversation, type LoadedConversation } from './key-fact-conversation.js';

/** Where the shipped conversations are, relative to the package root. */
const SHIPPED_PATHS: readonly string[] = [join('examples', 'conversations'), join('examples', 'demo-conversation.json')];

/** One shipped conversation, as a list shows it. */
export interface ShippedExample {
  /** The conversation's id, which names it in requests. */
  name: string;
  description: string;
  /** Turns it replays: each user message begins one (as an import counts them). */
  turns: number;
  keyFacts: number;
  /** The budget its file sets. */
  budget: number;
}

/** Turns of a conversation as an import groups them: a new one at each user message (and at the first message, whoever sent it). */
export function turnCount(conversation: KeyFactConversation): number {
  const spoken = conversation.messages.filter((message) => message.role !== 'system');
  return spoken.filter((message, index) => index === 0 || message.role === 'user').length;
}

/** Every shipped conversation under `root`, loaded and validated; a path the package lacks is skipped. */
export function loadShippedExamples(root: string): LoadedConversation[] {
  const present = SHIPPED_PATHS.filter((path) => existsSync(join(root, path)));
  if (present.length === 0) return [];
  return conversationFiles(present, root).map((file) => loadKeyFactConversation(file, root));
}

/** The shipped conversations under `root`, for a list. */
export function listShippedExamples(root: string): ShippedExample[] {
  return loadShippedExamples(root).map(({ conversation }) => ({
    name: conversation.id,
    description: conversation.description,
    turns: turnCount(conversation),
    keyFacts: conversation.keyFacts.length,
    budget: conversation.budget,
  }));
}

/** The shipped conversation named `name`; NOT_FOUND naming the known ones when there is none. */
export function loadShippedExample(root: string, name: string): LoadedConversation {
  const examples = loadShippedExamples(root);
  const found = examples.find(({ conversation }) => conversation.id === name);
  if (found !== undefined) return found;
  const known = examples.map(({ conversation }) => conversation.id);
  const listed = known.length === 0 ? 'none are installed' : `the known ones are ${known.join(', ')}`;
  throw new StrataError('NOT_FOUND', `No example conversation named "${name.slice(0, 200)}"; ${listed}.`);
}
