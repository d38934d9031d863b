import { mayReplaceNote } from './change-reason.js';
import type { DiffApplication } from './diff-application.js';
import { validEntry } from './diff-validation.js';
import type { DiffEntry } from './fact-diff.js';
import { newestOf } from './fact-index.js';
import { normalizeText } from './text.js';
import type { FactKind } from './types.js';

/** How binding each kind is; restating a fact can only make it more binding. */
export const KIND_STRENGTH: Readonly<Record<FactKind, number>> = { fact: 0, preference: 1, goal: 2, constraint: 3, exception: 4 };

/**
 * Apply a diff's additions, last of its parts. A line already in the document adds nothing (but may
 * strengthen its kind), and one whose key a fact already has updates that fact instead, with a warning.
 */
export function applyAdditions(application: DiffApplication, entries: readonly DiffEntry[]): void {
  for (const entry of entries) {
    const valid = validEntry(application, entry, '');
    if (valid === null) continue;
    const { facts } = application;
    const same = facts.withText(normalizeText(valid.text));
    if (same !== undefined) {
      // Said again: nothing to add, but a stronger kind (an exception gets pinned) is taken.
      if (KIND_STRENGTH[entry.kind] > KIND_STRENGTH[same.kind]) application.update(same, same.text, entry.kind, valid.sources, `restated as ${entry.kind}`);
      continue;
    }
    const sameKey = newestOf(facts.withKey(valid.key));
    if (sameKey !== undefined) {
      application.record({
        factId: sameKey.id,
        op: 'warning',
        key: valid.key,
        kind: entry.kind,
        oldText: sameKey.text,
        newText: valid.text,
        reason: 'add matched an existing key; applied as an update so the document never holds two values for one key',
        sourceMessageIds: valid.sources,
      });
      application.update(sameKey, valid.text, entry.kind, valid.sources, 'add with an existing key');
      continue;
    }
    const doubted = entry.mayReplace === undefined ? undefined : facts.match(entry.mayReplace, application.threshold);
    const reason = doubted === undefined ? 'added' : `added${mayReplaceNote(doubted)}`;
    application.add(valid.key, valid.text, entry.kind, valid.sources, reason, doubted);
  }
}
