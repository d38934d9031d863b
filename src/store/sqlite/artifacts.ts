import type Database from 'better-sqlite3';
import type { Artifact, ArtifactVersion } from '../../core/types.js';
import type { ArtifactRepository } from '../store.js';
import { toVersion, type ArtifactRow, type VersionRow } from '../rows.js';
import type { Run } from './run.js';

export function createArtifactRepository(db: Database.Database, tenantId: string, run: Run): ArtifactRepository {
  const byName = db.prepare<[string, string, string], ArtifactRow>(
    'SELECT * FROM artifacts WHERE tenant_id = ? AND session_id = ? AND name = ?',
  );
  const insertArtifact = db.prepare(
    'INSERT INTO artifacts (tenant_id, session_id, id, name, kind, language) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const nextVersion = db.prepare<[string, string], { version: number | null }>(
    'SELECT max(version) AS version FROM artifact_versions WHERE tenant_id = ? AND artifact_id = ?',
  );
  const insertVersion = db.prepare(`INSERT INTO artifact_versions
    (tenant_id, artifact_id, version, turn, message_id, content, tokens, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`);
  const list = db.prepare<[string, string], ArtifactRow>(
    'SELECT * FROM artifacts WHERE tenant_id = ? AND session_id = ? ORDER BY name',
  );
  const versions = db.prepare<[string, string], VersionRow & { artifact_id: string }>(
    `SELECT v.* FROM artifact_versions v JOIN artifacts a ON a.tenant_id = v.tenant_id AND a.id = v.artifact_id
      WHERE v.tenant_id = ? AND a.session_id = ? ORDER BY v.artifact_id, v.version`,
  );

  const latest = db.prepare<[string, string], VersionRow>(
    `SELECT v.* FROM artifact_versions v JOIN artifacts a ON a.tenant_id = v.tenant_id AND a.id = v.artifact_id
      WHERE v.tenant_id = ? AND a.session_id = ?
        AND v.version = (SELECT max(version) FROM artifact_versions w WHERE w.tenant_id = v.tenant_id AND w.artifact_id = v.artifact_id)`,
  );

  const withVersions = (sessionId: string, rows: readonly VersionRow[]): Artifact[] => {
    const byArtifact = new Map<string, ArtifactVersion[]>();
    for (const row of rows) {
      const versions = byArtifact.get(row.artifact_id) ?? [];
      versions.push(toVersion(row));
      byArtifact.set(row.artifact_id, versions);
    }
    return list.all(tenantId, sessionId).map((row) => ({
      id: row.id,
      sessionId: row.session_id,
      name: row.name,
      kind: row.kind,
      language: row.language,
      versions: byArtifact.get(row.id) ?? [],
    }));
  };

  const insertAll = (artifact: Artifact): void => {
    insertArtifact.run(tenantId, artifact.sessionId, artifact.id, artifact.name, artifact.kind, artifact.language);
    for (const version of artifact.versions) {
      insertVersion.run(tenantId, artifact.id, version.version, version.turn, version.messageId, version.content, version.tokens, version.createdAt);
    }
  };

  return {
    addVersion: ({ sessionId, artifactId, name, kind, language, version }) =>
      run(() => {
        const existing = byName.get(tenantId, sessionId, name);
        const id = existing?.id ?? artifactId;
        if (existing === undefined) insertArtifact.run(tenantId, sessionId, id, name, kind, language);
        const number = (nextVersion.get(tenantId, id)?.version ?? 0) + 1;
        insertVersion.run(tenantId, id, number, version.turn, version.messageId, version.content, version.tokens, version.createdAt);
        return { ...version, artifactId: id, version: number };
      }),
    list: ({ sessionId }) => run(() => withVersions(sessionId, versions.all(tenantId, sessionId))),
    listLatest: ({ sessionId }) => run(() => withVersions(sessionId, latest.all(tenantId, sessionId))),
    restore: ({ artifact }) => run(() => insertAll(artifact)),
  };
}
