import type Database from 'better-sqlite3';
import type { TurnStatus, TurnSummary } from '../../core/types.js';
import type { TurnRepository } from '../store.js';
import { summaryValues, toSummary, type TurnRow } from '../rows.js';
import type { Run } from './run.js';
import type { TurnJournal } from './turn-changes.js';

export function createTurnRepository(db: Database.Database, tenantId: string, run: Run, journal: TurnJournal): TurnRepository {
  const upsert = db.prepare(`INSERT INTO turns
    (tenant_id, session_id, turn, message_ids, user_summary, assistant_summary, depth, status, window_extension, tokens, created_at, stale_memory, detail_requests)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (tenant_id, session_id, turn) DO UPDATE SET
      message_ids = excluded.message_ids, user_summary = excluded.user_summary,
      assistant_summary = excluded.assistant_summary, depth = excluded.depth, status = excluded.status,
      window_extension = excluded.window_extension, tokens = excluded.tokens,
      stale_memory = max(turns.stale_memory, excluded.stale_memory),
      detail_requests = coalesce(excluded.detail_requests, turns.detail_requests)`);
  const get = db.prepare<[string, string, number], TurnRow>(
    'SELECT * FROM turns WHERE tenant_id = ? AND session_id = ? AND turn = ?',
  );
  const before = db.prepare<[string, string, number, number], TurnRow>(
    'SELECT * FROM turns WHERE tenant_id = ? AND session_id = ? AND turn < ? ORDER BY turn DESC LIMIT ?',
  );
  const all = db.prepare<[string, string], TurnRow>('SELECT * FROM turns WHERE tenant_id = ? AND session_id = ? ORDER BY turn');
  // For the rare statuses, "status <> 'summarised'" lets SQLite use the partial index turns_status
  // instead of scanning every turn.
  const statusQuery = (inSession: boolean, rare: boolean): string =>
    `SELECT * FROM turns WHERE tenant_id = ?${inSession ? ' AND session_id = ?' : ''} AND status = ?${rare ? " AND status <> 'summarised'" : ''}
      ORDER BY ${inSession ? '' : 'session_id, '}turn LIMIT ?`;
  const byStatus = {
    rare: db.prepare<[string, TurnStatus, number], TurnRow>(statusQuery(false, true)),
    common: db.prepare<[string, TurnStatus, number], TurnRow>(statusQuery(false, false)),
  };
  const byStatusInSession = {
    rare: db.prepare<[string, string, TurnStatus, number], TurnRow>(statusQuery(true, true)),
    common: db.prepare<[string, string, TurnStatus, number], TurnRow>(statusQuery(true, false)),
  };

  const write = db.transaction((summary: TurnSummary) => {
    upsert.run(tenantId, ...summaryValues(summary, (set) => (set ? 1 : 0)));
    journal.note(summary.sessionId, [summary.turn]);
  });

  return {
    upsert: ({ summary }) =>
      run(() => {
        write(summary);
      }),
    changes: ({ sessionId, after }) => run(() => journal.changes(sessionId, after)),
    get: ({ sessionId, turn }) =>
      run(() => {
        const row = get.get(tenantId, sessionId, turn);
        return row === undefined ? null : toSummary(row);
      }),
    listBefore: ({ sessionId, beforeTurn, limit }) => run(() => before.all(tenantId, sessionId, beforeTurn, limit).map(toSummary)),
    list: ({ sessionId }) => run(() => all.all(tenantId, sessionId).map(toSummary)),
    listByStatus: ({ sessionId, status, limit }) =>
      run(() =>
        (sessionId === undefined
          ? byStatus[status === 'summarised' ? 'common' : 'rare'].all(tenantId, status, limit)
          : byStatusInSession[status === 'summarised' ? 'common' : 'rare'].all(tenantId, sessionId, status, limit)
        ).map(toSummary),
      ),
  };
}
