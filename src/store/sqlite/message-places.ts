import type Database from 'better-sqlite3';

/** One row per message found: its `seq`, id, turn and position. */
export type MessagePlace = [seq: number, id: string, turn: number, position: number];

/**
 * A statement that finds where messages sit from their `seq`s (an index's rowids), given as one JSON
 * array parameter so any number of them is one statement; only the tenant's session's messages come
 * back. CROSS JOIN keeps the planner to one rowid lookup each (it would rather scan the session's index).
 */
export function prepareMessagePlaces(db: Database.Database): Database.Statement<[string, string, string], MessagePlace> {
  return db
    .prepare<[string, string, string], MessagePlace>(
      `SELECT message.seq, message.id, message.turn, message.position
         FROM json_each(?) AS ranked CROSS JOIN messages AS message ON message.seq = ranked.value
        WHERE message.tenant_id = ? AND message.session_id = ?`,
    )
    .raw(true);
}
