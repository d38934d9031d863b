import { parseArtifactReferences, resolveArtifactReferences, type ResolvedArtifactVersion } from '../core/artifact-reference.js';
import { codeFence } from '../core/text.js';
import type { Tokenizer } from '../providers/tokenizer/tokenizer.js';
import type { TenantRepositories } from '../store/store.js';
import type { Assembly } from './assembly.js';
import type { ContextItem } from './context-package.js';

/** A truncated head shorter than this many tokens of content is not worth showing: the version is omitted instead. */
const MIN_ARTIFACT_HEAD_TOKENS = 24;

export interface ArtifactVersionOptions {
  repositories: TenantRepositories;
  sessionId: string;
  query: string;
  tokenizer: Tokenizer;
  /** Share of the budget the referenced versions may take together. */
  share: number;
  warnings: string[];
}

/** `[artifact <name>, version N from turn T]` and the content (fenced for code). */
function artifactText(entry: ResolvedArtifactVersion, content: string, note: string | null): string {
  const label = `[artifact ${entry.name}, version ${entry.version.version} from turn ${entry.version.turn}${note === null ? '' : `; ${note}`}]`;
  if (entry.kind !== 'code') return `${label}\n${content}`;
  const fence = codeFence(content);
  return `${label}\n${fence}${entry.language ?? ''}\n${content}\n${fence}`;
}

function item(entry: ResolvedArtifactVersion, text: string, tokens: number): ContextItem {
  return { text, tokens, sourceMessageIds: [entry.version.messageId], kind: 'artifact', turn: entry.version.turn, date: null, tier: null, factKind: null, role: null };
}

/**
 * The artifact versions the query refers to, added to the `artifacts` section within their share of
 * the budget: whole when they fit, else a truncated head with a note, else listed as omitted.
 * Reads the store only when the query contains a reference.
 */
export async function addArtifactVersions(assembly: Assembly, options: ArtifactVersionOptions): Promise<void> {
  const references = parseArtifactReferences(options.query);
  if (references.length === 0) return;
  const entries = resolveArtifactReferences(references, await options.repositories.artifacts.list({ sessionId: options.sessionId }));
  const { tokenizer } = options;
  const limit = assembly.used + Math.floor(assembly.budget * options.share);
  for (const entry of entries) {
    const room = Math.min(limit, assembly.budget) - assembly.used;
    const whole = artifactText(entry, entry.version.content, null);
    const tokens = tokenizer.count(whole);
    const cost = assembly.costOf('artifacts', tokens + 1);
    if (cost <= room) {
      assembly.add('artifacts', [item(entry, whole, tokens)], cost);
      continue;
    }
    const total = entry.version.tokens > 0 ? entry.version.tokens : tokenizer.count(entry.version.content);
    // Room for content: what is left once the label, the fence and the note are paid for (the note's numbers at their widest).
    const frame = tokenizer.count(artifactText(entry, '', `truncated: the first ${total} of ${total} tokens`));
    let headTokens = room - (assembly.costOf('artifacts', frame + 1) + 2);
    let added = false;
    while (headTokens >= MIN_ARTIFACT_HEAD_TOKENS) {
      const head = tokenizer.truncate(entry.version.content, headTokens);
      const text = artifactText(entry, `${head}\n…`, `truncated: the first ${tokenizer.count(head)} of ${total} tokens`);
      const textTokens = tokenizer.count(text);
      const textCost = assembly.costOf('artifacts', textTokens + 1);
      if (textCost <= room) {
        assembly.add('artifacts', [item(entry, text, textTokens)], textCost);
        options.warnings.push(`Artifact "${entry.name}" version ${entry.version.version} was truncated to fit the budget.`);
        added = true;
        break;
      }
      headTokens -= textCost - room;
    }
    if (!added) assembly.omit([entry.version.messageId], `budget: artifact ${entry.name} version ${entry.version.version} did not fit`);
  }
}
