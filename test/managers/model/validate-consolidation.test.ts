import { describe, expect, it } from 'vitest';
import type { ConsolidationProposal } from '../../../src/managers/model/consolidation-schema.js';
import { validateConsolidation } from '../../../src/managers/model/validate-consolidation.js';
import { FACTS } from './consolidation-fixtures.js';

function proposal(fields: Partial<ConsolidationProposal>): ConsolidationProposal {
  return { merge: [], remove: [], update: [], ...fields };
}

function problems(fields: Partial<ConsolidationProposal>): string[] {
  const result = validateConsolidation({ facts: FACTS, proposal: proposal(fields) });
  if (result.valid) throw new Error('expected a rejected proposal');
  return result.problems;
}

describe('validateConsolidation', () => {
  it('turns a valid proposal into consolidate changes: removals, rewrites, then merges', () => {
    const result = validateConsolidation({
      facts: FACTS,
      proposal: proposal({
        merge: [{ ids: ['f-db', 'f-db-version'], text: 'database: PostgreSQL 16 with nightly backups', kind: 'fact', reason: 'same database' }],
        remove: [{ id: 'f-budget-old', reason: 'superseded by budget: $45,000' }],
        update: [{ id: 'f-cards', text: 'card numbers: never store  full card numbers anywhere', kind: 'exception', reason: '' }],
      }),
    });
    expect(result).toEqual({
      valid: true,
      changes: [
        { op: 'consolidate', factId: 'f-budget-old', key: 'initial budget', kind: 'constraint', oldText: 'initial budget: $40,000', newText: null, reason: 'superseded by budget: $45,000', sourceMessageIds: ['m-1'] },
        { op: 'consolidate', factId: 'f-cards', key: 'card numbers', kind: 'exception', oldText: 'card numbers: never store full card numbers', newText: 'card numbers: never store full card numbers anywhere', reason: 'restated', sourceMessageIds: ['m-2'] },
        { op: 'consolidate', factId: 'f-db', key: 'database', kind: 'fact', oldText: 'database: PostgreSQL 16', newText: 'database: PostgreSQL 16 with nightly backups', reason: 'merged 2 facts: same database', sourceMessageIds: ['m-1', 'm-4'] },
        { op: 'consolidate', factId: 'f-db-version', key: 'database version', kind: 'fact', oldText: 'database version: PostgreSQL 16 with nightly backups', newText: null, reason: 'merged into "database": same database', sourceMessageIds: ['m-4'] },
      ],
    });
  });

  it('accepts an empty proposal, and skips a rewrite that changes nothing', () => {
    expect(validateConsolidation({ facts: FACTS, proposal: proposal({}) })).toEqual({ valid: true, changes: [] });
    expect(validateConsolidation({ facts: FACTS, proposal: proposal({ update: [{ id: 'f-db', text: 'database: PostgreSQL 16', kind: 'fact', reason: 'same' }] }) })).toEqual({ valid: true, changes: [] });
  });

  it('rejects removing a pinned exception, or merging or rewriting it into another kind', () => {
    expect(problems({ remove: [{ id: 'f-cards', reason: 'obsolete' }] })).toEqual(['remove 1 removes pinned exception "card numbers"; exceptions are never removed']);
    expect(problems({ update: [{ id: 'f-cards', text: 'card numbers: never store full card numbers', kind: 'preference', reason: 'softer' }] })).toEqual([
      'update 1 would turn pinned exception "card numbers" into a preference',
    ]);
    expect(problems({ merge: [{ ids: ['f-db', 'f-cards'], text: 'database: PostgreSQL 16; never store full card numbers', kind: 'fact', reason: 'tidy' }] })).toEqual([
      'merge 1 would turn pinned exception "card numbers" into a fact',
    ]);
  });

  it('rejects a removal without a reason', () => {
    expect(problems({ remove: [{ id: 'f-budget-old', reason: '  ' }] })).toEqual(['remove 1 removes "initial budget" without a reason']);
  });

  it('rejects texts not grounded in the facts they replace', () => {
    expect(problems({ merge: [{ ids: ['f-db', 'f-db-version'], text: 'database: PostgreSQL 17 on Azure', kind: 'fact', reason: 'same' }] })).toEqual([
      'merge 1 is not grounded in the facts it replaces: 17, Azure not found there',
    ]);
    // Grounded in the document, but not in the fact being rewritten.
    expect(problems({ update: [{ id: 'f-budget-old', text: 'initial budget: $45,000', kind: 'constraint', reason: 'current' }] })).toEqual([
      'update 1 is not grounded in the facts it replaces: 45000 not found there',
    ]);
  });

  it('rejects unknown ids, a fact changed twice, one-fact merges and empty texts, listing every problem', () => {
    expect(
      problems({
        merge: [
          { ids: ['f-db', 'f-ghost'], text: 'database: PostgreSQL 16', kind: 'fact', reason: 'same' },
          { ids: ['f-budget'], text: 'budget: $45,000', kind: 'constraint', reason: 'alone' },
        ],
        remove: [{ id: 'f-db', reason: 'duplicate' }],
        update: [{ id: 'f-db-version', text: ' ', kind: 'fact', reason: 'empty' }],
      }),
    ).toEqual([
      'update 1 has an empty text',
      'merge 1 uses fact f-db again; each fact may change once',
      'merge 1 names a fact that does not exist: f-ghost',
      'merge 2 names 1 fact; a merge joins two or more',
    ]);
  });
});
