import type { DiffApplication } from './diff-application.js';
import type { DiffEntry } from './fact-diff.js';
import { checkGrounding } from './grounding.js';
import { factKey, normalizeText } from './text.js';

/** An entry fit to apply: its text with spaces tidied, its normalised key and the messages it cites. */
export interface ValidEntry {
  text: string;
  key: string;
  sources: string[];
}

/**
 * The messages an entry cites (every message of the exchange when it names none), or why it may not cite
 * them: a diff is about its own exchange, so a line citing older messages is not grounded by them.
 */
export function citedSources(application: DiffApplication, ids: readonly string[]): string[] | string {
  const { exchangeMessageIds } = application.options;
  const unknown = ids.filter((id) => !exchangeMessageIds.includes(id));
  if (unknown.length > 0) return `cites messages outside this exchange: ${unknown.join(', ')}`;
  return ids.length > 0 ? [...new Set(ids)] : [...exchangeMessageIds];
}

/**
 * Reject (with an event) an entry that is empty, too long, cites foreign messages or is not grounded.
 * `context` is text the entry may also draw on, such as the line of the fact it updates.
 */
export function validEntry(application: DiffApplication, entry: DiffEntry, context: string): ValidEntry | null {
  const { options } = application;
  const maxLength = options.maxTextLength ?? 500;
  const text = entry.text.trim().replace(/\s+/gu, ' ');
  const key = normalizeText(entry.key ?? factKey(text));
  const reject = (reason: string): null => {
    application.record({ factId: null, op: 'reject', key, kind: entry.kind, oldText: null, newText: text, reason, sourceMessageIds: [] });
    return null;
  };
  if (text === '' || key === '') return reject('empty fact text');
  if (text.length > maxLength) return reject(`fact text is ${text.length} characters; the limit is ${maxLength}`);
  const sources = citedSources(application, entry.sourceMessageIds);
  if (typeof sources === 'string') return reject(sources);
  const grounding = checkGrounding(text, `${options.exchange}\n${context}`, options.exchangeTimes);
  if (!grounding.grounded) {
    return reject(`not grounded in the exchange: ${grounding.missing.join(', ')} not found there`);
  }
  return { text, key, sources };
}
