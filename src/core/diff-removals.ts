import { turnReason } from './change-reason.js';
import type { DiffApplication } from './diff-application.js';
import { citedSources } from './diff-validation.js';
import type { RemoveEntry } from './fact-diff.js';
import { STOPWORDS } from './query-terms.js';
import { normalizeText, words } from './text.js';
import type { Fact } from './types.js';

/**
 * Apply a diff's removals, first of its parts. A removal must cite the exchange, match a fact, give a
 * reason and be named in the exchange; otherwise it is rejected and the fact stays.
 */
export function applyRemovals(application: DiffApplication, entries: readonly RemoveEntry[]): void {
  const { options } = application;
  let exchangeWords: ReadonlySet<string> | undefined;
  /** A removal is supported when the exchange names what it removes: a content word of the fact's key. */
  const mentioned = (fact: Fact): boolean => {
    exchangeWords ??= new Set(words(options.exchange));
    const named = exchangeWords;
    return words(`${fact.key} ${fact.text}`).some((word) => !STOPWORDS.has(word) && named.has(word));
  };

  for (const entry of entries) {
    const fact = application.facts.match(entry.key, application.threshold);
    const sources = citedSources(application, entry.sourceMessageIds);
    if (typeof sources === 'string' || fact === undefined || entry.reason.trim() === '' || !mentioned(fact)) {
      const reason =
        typeof sources === 'string'
          ? sources
          : fact === undefined
            ? 'remove matched no fact'
            : entry.reason.trim() === ''
              ? 'a removal needs a reason'
              : `not grounded in the exchange: it never mentions "${fact.key}"`;
      const key = normalizeText(entry.key);
      application.record({ factId: null, op: 'reject', key, kind: fact?.kind ?? 'fact', oldText: null, newText: null, reason, sourceMessageIds: [] });
      continue;
    }
    application.remove(fact, turnReason(options.turn, entry.reason, ''), sources);
  }
}
