import type Database from 'better-sqlite3';

/** One versioned schema change of the SQLite store. */
export interface Migration {
  version: number;
  name: string;
  /** The schema change, as SQL or as code for changes SQL alone cannot express. */
  change: string | ((db: Database.Database) => void);
}
