import type Database from 'better-sqlite3';
import { createHash } from 'node:crypto';

/**
 * The FTS5 definition of a tenant's search index: contentless, porter-stemmed, diacritics folded. Each
 * message's row holds its speaker, its content and its session's token (`sessionToken`).
 */
export function searchIndexDefinition(table: string): string {
  return `CREATE VIRTUAL TABLE IF NOT EXISTS ${table} USING fts5 (
    speaker, content, session, content = '', contentless_delete = 1, tokenize = 'porter unicode61 remove_diacritics 2'
  )`;
}

/**
 * The one index token naming a session: "x" and digits, which no tokenizer splits or stems, taken from
 * a hash of the session id (an id may hold any characters). Two sessions sharing a token would only rank
 * each other's messages, which the search's lookup of the ranked rows (by session) then leaves out.
 */
export function sessionToken(sessionId: string): string {
  return `x${BigInt(`0x${createHash('sha256').update(sessionId).digest('hex').slice(0, 15)}`).toString()}`;
}

/** Table name of the search index of the tenant with this rowid (an integer, so the name is safe). */
export function searchIndexName(tenantRowId: number | bigint): string {
  return `search_tenant_${String(tenantRowId)}`;
}

/**
 * One BM25 index per tenant, so term statistics, and so rankings, depend on that tenant's data alone.
 * Created with the tenant's first session; shared by the tenant's repositories.
 */
export class TenantSearchIndex {
  private name: string | null = null;
  private readonly rowId: Database.Statement<[string], number | bigint | undefined>;

  constructor(
    private readonly db: Database.Database,
    private readonly tenantId: string,
  ) {
    this.rowId = db.prepare<[string], number | bigint | undefined>('SELECT rowid FROM tenants WHERE id = ?').pluck();
  }

  /** The index table, or null when the tenant has never stored anything. */
  table(): string | null {
    if (this.name !== null) return this.name;
    const rowId = this.rowId.get(this.tenantId);
    if (rowId === undefined) return null;
    const name = searchIndexName(rowId);
    const exists = this.db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?").get(name) !== undefined;
    if (exists) this.name = name;
    return this.name;
  }

  /** The index table, created when missing (the tenant row must exist). */
  ensure(): string {
    const existing = this.table();
    if (existing !== null) return existing;
    const rowId = this.rowId.get(this.tenantId);
    if (rowId === undefined) throw new Error(`tenant ${this.tenantId} has no row yet`);
    const name = searchIndexName(rowId);
    this.db.exec(searchIndexDefinition(name));
    this.name = name;
    return name;
  }

  /** Forget the cached name (after a rolled-back transaction may have undone its creation). */
  reset(): void {
    this.name = null;
  }
}
