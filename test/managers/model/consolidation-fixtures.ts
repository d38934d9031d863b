import type { Fact, FactKind } from '../../../src/core/types.js';

function fact(id: string, key: string, text: string, kind: FactKind, sources: string[]): Fact {
  return {
    id,
    sessionId: 'session-1',
    key,
    text,
    kind,
    pinned: kind === 'exception',
    sourceMessageIds: sources,
    createdTurn: 1,
    updatedTurn: 1,
    createdAt: '2024-05-08T10:00:00Z',
    updatedAt: '2024-05-08T10:00:00Z',
  };
}

/** A document with two redundant lines, a superseded one and a pinned exception. */
export const FACTS: readonly Fact[] = [
  fact('f-db', 'database', 'database: PostgreSQL 16', 'fact', ['m-1']),
  fact('f-db-version', 'database version', 'database version: PostgreSQL 16 with nightly backups', 'fact', ['m-4']),
  fact('f-budget-old', 'initial budget', 'initial budget: $40,000', 'constraint', ['m-1']),
  fact('f-budget', 'budget', 'budget: $45,000 after the finance review', 'constraint', ['m-9']),
  fact('f-cards', 'card numbers', 'card numbers: never store full card numbers', 'exception', ['m-2']),
];
