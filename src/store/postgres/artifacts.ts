import type { Artifact, ArtifactVersion } from '../../core/types.js';
import type { ArtifactRepository } from '../store.js';
import { toVersion, type ArtifactRow, type VersionRow } from '../rows.js';
import type { Sql } from './sql.js';

const VERSION_COLUMNS = 'v.artifact_id, v.version, v.turn, v.message_id, v.content, v.tokens, v.created_at';

export function createArtifactRepository(sql: Sql, tenantId: string): ArtifactRepository {
  /** The session's artifacts (by name) with the versions given. */
  const withVersions = async (reader: Sql, sessionId: string, rows: readonly VersionRow[]): Promise<Artifact[]> => {
    const byArtifact = new Map<string, ArtifactVersion[]>();
    for (const row of rows) {
      const versions = byArtifact.get(row.artifact_id) ?? [];
      versions.push(toVersion(row));
      byArtifact.set(row.artifact_id, versions);
    }
    const artifacts = await reader.query<ArtifactRow>('SELECT id, session_id, name, kind, language FROM artifacts WHERE tenant_id = $1 AND session_id = $2 ORDER BY name', [tenantId, sessionId]);
    return artifacts.rows.map((row) => ({ id: row.id, sessionId: row.session_id, name: row.name, kind: row.kind, language: row.language, versions: byArtifact.get(row.id) ?? [] }));
  };
  const listWith = (sessionId: string, condition: string): Promise<Artifact[]> =>
    sql.read(async (reader) => {
      const versions = await reader.query<VersionRow>(
        `SELECT ${VERSION_COLUMNS} FROM artifact_versions v JOIN artifacts a ON a.tenant_id = v.tenant_id AND a.id = v.artifact_id
          WHERE v.tenant_id = $1 AND a.session_id = $2${condition} ORDER BY v.artifact_id, v.version`,
        [tenantId, sessionId],
      );
      return withVersions(reader, sessionId, versions.rows);
    });

  return {
    addVersion: ({ sessionId, artifactId, name, kind, language, version }) =>
      sql.write(async (write) => {
        const existing = (await write.query<{ id: string }>('SELECT id FROM artifacts WHERE tenant_id = $1 AND session_id = $2 AND name = $3', [tenantId, sessionId, name])).rows[0];
        const id = existing?.id ?? artifactId;
        if (existing === undefined) await write.query('INSERT INTO artifacts (tenant_id, session_id, id, name, kind, language) VALUES ($1, $2, $3, $4, $5, $6)', [tenantId, sessionId, id, name, kind, language]);
        const number = ((await write.query<{ version: number | null }>('SELECT max(version) AS version FROM artifact_versions WHERE tenant_id = $1 AND artifact_id = $2', [tenantId, id])).rows[0]?.version ?? 0) + 1;
        await write.query('INSERT INTO artifact_versions (tenant_id, artifact_id, version, turn, message_id, content, tokens, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)', [
          tenantId,
          id,
          number,
          version.turn,
          version.messageId,
          version.content,
          version.tokens,
          version.createdAt,
        ]);
        return { ...version, artifactId: id, version: number };
      }),
    list: ({ sessionId }) => listWith(sessionId, ''),
    listLatest: ({ sessionId }) => listWith(sessionId, ' AND v.version = (SELECT max(version) FROM artifact_versions w WHERE w.tenant_id = v.tenant_id AND w.artifact_id = v.artifact_id)'),
    restore: ({ artifact }) =>
      sql.write(async (write) => {
        await write.query('INSERT INTO artifacts (tenant_id, session_id, id, name, kind, language) VALUES ($1, $2, $3, $4, $5, $6)', [tenantId, artifact.sessionId, artifact.id, artifact.name, artifact.kind, artifact.language]);
        for (const version of artifact.versions) {
          await write.query('INSERT INTO artifact_versions (tenant_id, artifact_id, version, turn, message_id, content, tokens, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)', [
            tenantId,
            artifact.id,
            version.version,
            version.turn,
            version.messageId,
            version.content,
            version.tokens,
            version.createdAt,
          ]);
        }
      }),
  };
}
