/** Artifacts of the in-memory fake store: one per name in a session, with numbered versions. */
import type { Artifact, ArtifactVersion } from '../../../src/core/types.js';
import type { ArtifactRepository } from '../../../src/store/store.js';
import { compareText, requireSession, storeFailure, type SessionState, type StateAccess, type TenantState } from './state.js';

function artifactsOf(state: TenantState, sessionId: string): Artifact[] {
  return [...(state.sessions.get(sessionId)?.artifacts ?? [])].sort((a, b) => compareText(a.name, b.name));
}

/** A new artifact for the session: refused when the tenant holds its id or the session its name. */
function addArtifact(state: TenantState, session: SessionState, artifact: Omit<Artifact, 'versions'>): Artifact {
  const { id, name, kind, language } = artifact;
  if ([...state.sessions.values()].some((other) => other.artifacts.some((existing) => existing.id === id))) {
    throw storeFailure(`An artifact "${id}" is already stored in this tenant; artifact ids must be unique.`, { artifactId: id });
  }
  if (session.artifacts.some((existing) => existing.name === name)) throw storeFailure(`Session "${session.session.id}" already has an artifact named "${name}".`, { name });
  const created: Artifact = { id, sessionId: session.session.id, name, kind, language, versions: [] };
  session.artifacts.push(created);
  return created;
}

function addVersion(artifact: Artifact, version: ArtifactVersion): void {
  if (artifact.versions.some((existing) => existing.version === version.version)) {
    throw storeFailure(`Artifact "${artifact.id}" already has a version ${version.version}.`, { artifactId: artifact.id, version: version.version });
  }
  const { turn, messageId, content, tokens, createdAt } = version;
  artifact.versions.push({ artifactId: artifact.id, version: version.version, turn, messageId, content, tokens, createdAt });
  artifact.versions.sort((a, b) => a.version - b.version);
}

export function createArtifactRepository(access: StateAccess): ArtifactRepository {
  return {
    addVersion: ({ sessionId, artifactId, name, kind, language, version }) =>
      access.write((draft) => {
        const session = requireSession(draft, sessionId, `artifact "${name}"`);
        const artifact = session.artifacts.find((existing) => existing.name === name) ?? addArtifact(draft, session, { id: artifactId, sessionId, name, kind, language });
        const stored = { ...version, artifactId: artifact.id, version: (artifact.versions.at(-1)?.version ?? 0) + 1 };
        addVersion(artifact, stored);
        return stored;
      }),
    list: ({ sessionId }) => access.read((state) => artifactsOf(state, sessionId)),
    listLatest: ({ sessionId }) => access.read((state) => artifactsOf(state, sessionId).map((artifact) => ({ ...artifact, versions: artifact.versions.slice(-1) }))),
    restore: ({ artifact }) =>
      access.write((draft) => {
        const restored = addArtifact(draft, requireSession(draft, artifact.sessionId, `artifact "${artifact.name}"`), artifact);
        for (const version of artifact.versions) addVersion(restored, version);
      }),
  };
}
