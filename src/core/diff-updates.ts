import { mayReplaceNote, turnReason } from './change-reason.js';
import type { DiffApplication } from './diff-application.js';
import { validEntry } from './diff-validation.js';
import type { DiffEntry } from './fact-diff.js';
import { numbersIn } from './grounding.js';
import { STOPWORDS } from './query-terms.js';
import { factKey, words } from './text.js';
import type { Fact } from './types.js';

/**
 * Apply a diff's updates, after its removals. An update changes the fact its key matches; one matching
 * no fact is added instead, with a warning, and one about another subject than its fact is rejected.
 */
export function applyUpdates(application: DiffApplication, entries: readonly DiffEntry[]): void {
  for (const entry of entries) applyUpdate(application, entry);
}

function applyUpdate(application: DiffApplication, entry: DiffEntry): void {
  const { options, threshold } = application;
  const target = application.facts.match(entry.key ?? factKey(entry.text), threshold);
  const valid = validEntry(application, entry, target?.text ?? '');
  if (valid === null) return;
  // An update must be about the fact's subject: a line keyed otherwise that shares only a word or a number
  // with it ("headcount: back to 12" sent as an update of "payday: the 12th") is rejected.
  const lineKey = factKey(valid.text);
  const only = target === undefined || target.key === lineKey ? null : onlySharedTerm({ key: lineKey, text: valid.text }, target);
  if (target !== undefined && only !== null) {
    application.record({
      factId: null,
      op: 'reject',
      key: valid.key,
      kind: entry.kind,
      oldText: null,
      newText: valid.text,
      reason: `update shares only "${only}" with the fact "${target.key}"; an update must be about the same subject and attribute: use that fact's key, or add a new fact`,
      sourceMessageIds: [],
    });
    return;
  }
  if (target === undefined) {
    application.record({
      factId: null,
      op: 'warning',
      key: valid.key,
      kind: entry.kind,
      oldText: null,
      newText: valid.text,
      reason: 'update matched no existing fact; applied as an add',
      sourceMessageIds: valid.sources,
    });
    application.add(valid.key, valid.text, entry.kind, valid.sources, 'update with no matching fact');
    return;
  }
  const doubted = entry.mayReplace === undefined ? undefined : application.facts.match(entry.mayReplace, threshold, target.id);
  const reason = `${turnReason(options.turn, entry.reason, valid.text)}${doubted === undefined ? '' : mayReplaceNote(doubted)}`;
  application.update(target, valid.text, entry.kind, valid.sources, reason, doubted);
}

/** Subject words of a line: its key and text without stop words, one-letter words and numbers. */
function subjectTerms(key: string, text: string): Set<string> {
  return new Set(words(`${key} ${text}`).filter((word) => word.length > 1 && !STOPWORDS.has(word) && !/\d/u.test(word)));
}

/**
 * When an update and the fact it would change share no more than one word or number (their keys share
 * no word), that word or number; null when they are about the same subject.
 */
function onlySharedTerm(entry: { key: string; text: string }, target: Fact): string | null {
  const entryKey = new Set(words(entry.key).filter((word) => !STOPWORDS.has(word) && !/\d/u.test(word)));
  if (words(target.key).some((word) => entryKey.has(word))) return null;
  const mine = subjectTerms(entry.key, entry.text);
  const shared = [...subjectTerms(target.key, target.text)].filter((word) => mine.has(word));
  if (shared.length >= 2) return null;
  const held = new Set(numbersIn(target.text));
  const numbers = numbersIn(entry.text).filter((number) => held.has(number));
  return shared[0] ?? numbers[0] ?? 'nothing';
}
