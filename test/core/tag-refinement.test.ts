import { describe, expect, it } from 'vitest';
import { refineTag, type Member } from '../../src/core/tag-refinement.js';

const members = (values: readonly string[], placed = false): Member[] => values.map((value, index) => ({ id: `m${String(index + 1)}`, value, placed }));

describe('refining a crowded tag', () => {
  it('splits it by the words that set groups of members apart, named as the members write them', () => {
    const crowd = members([
      'Never send invoices without a PO number.',
      'Invoices go out on the 1st.',
      'Never send invoices to the old address.',
      'Deliveries come before 7 am.',
      'Deliveries need a signature.',
      'Check deliveries against the order.',
      'Rotas are done by Friday.',
    ]);
    expect(refineTag('rules', crowd, 5)).toEqual([
      { tag: 'rules/deliveries', memoryIds: ['m4', 'm5', 'm6'], reason: '"rules" holds 7 memories without a subtag; 3 of them are about "deliveries"' },
      { tag: 'rules/invoices', memoryIds: ['m1', 'm2', 'm3'], reason: '"rules" holds 7 memories without a subtag; 3 of them are about "invoices"' },
    ]);
  });

  it('does nothing at or under the threshold, for members with a subtag already, or with no telling word', () => {
    expect(refineTag('rules', members(['Never send invoices late.', 'Invoices go out on the 1st.', 'Never send invoices twice.']), 3)).toEqual([]);
    expect(refineTag('rules', members(['a', 'b', 'c', 'd', 'e'].map((letter) => `Invoices ${letter} go out.`), true), 2)).toEqual([]);
    // A word every member holds says nothing.
    expect(refineTag('rules', members(['Invoices go out early.', 'Invoices go out late.', 'Invoices go out on time.', 'Invoices go out signed.']), 2)).toEqual([]);
  });
});
