/**
 * Artifacts: every fenced code block becomes a `code` artifact version; a long prose reply written
 * on request ("here's the cover letter") becomes a `draft`. A revision continues the known
 * artifact's name so the engine records a new version.
 */
import { scopedMemo } from '../../core/memo-space.js';
import { mapPacked } from '../../core/packed-map.js';
import { normalizeText, words as normalizedWords } from '../../core/text.js';
import type { ArtifactDraft, KnownArtifact } from '../memory-manager.js';
import type { AnalysedMessage } from './analysis.js';
import type { CodeBlock } from './code-blocks.js';

const FILE_NAME =
  /(?:^|[\s`'"(:[/])((?:[\w.-]+\/)*[\w-][\w.-]*\.(?:tsx?|jsx?|mjs|cjs|py|rb|go|rs|java|kt|kts|swift|c|h|cc|cpp|hpp|cs|php|sql|sh|bash|zsh|ps1|ya?ml|json|toml|ini|cfg|conf|md|html?|css|scss|less|vue|svelte|tf|lua|r|scala|exs?|dart|xml|env|txt|graphql|gql|proto|ipynb|gradle|dockerfile))(?=$|[\s`'"),:;.!?\]])|(?:^|[\s`'"(])(Dockerfile|Makefile|Procfile|Gemfile|Rakefile)(?=$|[\s`'"),:;.!?])/iu;

const EXTENSION_LANGUAGE: Readonly<Record<string, string>> = {
  ts: 'typescript', tsx: 'tsx', js: 'javascript', jsx: 'jsx', mjs: 'javascript', cjs: 'javascript', py: 'python',
  rb: 'ruby', go: 'go', rs: 'rust', java: 'java', kt: 'kotlin', swift: 'swift', c: 'c', h: 'c', cpp: 'cpp',
  cs: 'csharp', php: 'php', sql: 'sql', sh: 'bash', bash: 'bash', yml: 'yaml', yaml: 'yaml', json: 'json',
  toml: 'toml', md: 'markdown', html: 'html', css: 'css', scss: 'scss', vue: 'vue', svelte: 'svelte',
};

/** Declarations, in no particular priority: the earliest one in the code names it. */
const DECLARATIONS: readonly RegExp[] = [
  /\b(?:export\s+)?(?:default\s+)?(?:abstract\s+)?class\s+([A-Za-z_$][\w$]*)/u,
  /\b(?:export\s+)?(?:default\s+)?(?:async\s+)?function\s*\*?\s*([A-Za-z_$][\w$]*)/u,
  /\b(?:export\s+)?(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::[^=\n]+)?=\s*(?:async\s+)?(?:function\b|\([^)]*\)\s*(?::[^=\n]+)?=>|[A-Za-z_$][\w$]*\s*=>)/u,
  /^\s*(?:async\s+)?def\s+([A-Za-z_]\w*)/mu,
  /^\s*class\s+([A-Za-z_]\w*)/mu,
  /\bfunc\s+(?:\([^)]*\)\s*)?([A-Za-z_]\w*)/u,
  /\bfn\s+([A-Za-z_]\w*)/u,
  /\bcreate\s+(?:or\s+replace\s+)?(?:temporary\s+)?(?:table|view|function|procedure|index|type)\s+(?:if\s+not\s+exists\s+)?[`"[]?([\w.]+)/iu,
  /\b(?:interface|struct|enum|trait|protocol)\s+([A-Za-z_]\w*)/u,
  /\b(?:export\s+)?type\s+([A-Z]\w*)\s*=/u,
  /^\s*(?:public\s+|private\s+|protected\s+)?(?:static\s+)?(?:final\s+)?[\w<>[\]]+\s+([a-z]\w*)\s*\([^)]*\)\s*\{/mu,
];

function fileNameIn(text: string): string | null {
  const match = FILE_NAME.exec(text);
  return match?.[1] ?? match?.[2] ?? null;
}

/** The first declared identifier of the code (function, class, table, component …). */
function declaredName(code: string): string | null {
  let best: { index: number; name: string } | null = null;
  for (const pattern of DECLARATIONS) {
    const match = pattern.exec(code);
    const name = match?.[1];
    if (match === null || name === undefined) continue;
    if (best === null || match.index < best.index) best = { index: match.index, name };
  }
  return best?.name ?? null;
}

function firstLineComment(code: string): string | null {
  const first = code.split('\n', 1)[0] ?? '';
  const comment = /^\s*(?:\/\/|#|--|\/\*|<!--|;|%)\s*(.*?)\s*(?:\*\/|-->)?\s*$/u.exec(first);
  return comment?.[1] ?? null;
}

/** The prose line right before the block (the last sentence of it), where a file name is usually given. */
function lineBefore(text: string, block: CodeBlock): string {
  const before = text.slice(Math.max(0, block.start - 300), block.start).trimEnd();
  const lines = before.split('\n');
  return lines[lines.length - 1] ?? '';
}

function languageOf(block: CodeBlock, name: string | null): string | null {
  if (block.language !== null) return block.language;
  const extension = name === null ? null : /\.([\w]+)$/u.exec(name)?.[1]?.toLowerCase();
  return extension === undefined || extension === null ? null : (EXTENSION_LANGUAGE[extension] ?? extension);
}

interface Candidate {
  name: string;
  kind: 'code' | 'draft';
  language: string | null;
  content: string;
  /** The message that made it in this turn (null for artifacts of earlier turns). */
  messageId: string | null;
}

/** Where a name came from: a file name, a declaration in the code, or nothing (a fallback name). */
type NameSource = 'file' | 'declared' | 'fallback';

/**
 * A known artifact this content revises: the same name (unless the name is a fallback such as
 * `python-snippet`), else — for unnamed content — the same language and similar content or the
 * same first declaration.
 */
function revisionOf(candidate: Candidate, known: readonly Candidate[], threshold: number, source: NameSource): Candidate | null {
  if (source !== 'fallback') {
    const exact = known.find((artifact) => artifact.name === candidate.name && artifact.kind === candidate.kind);
    if (exact !== undefined) return exact;
    if (source === 'file') return null;
  }
  const declared = candidate.kind === 'code' ? declaredName(candidate.content) : null;
  const words = wordsOf(candidate.content);
  let best: Candidate | null = null;
  let bestScore = threshold;
  for (const artifact of known) {
    if (artifact.kind !== candidate.kind) continue;
    // Two blocks of one message are two artifacts unless a name says otherwise.
    if (artifact.messageId !== null && artifact.messageId === candidate.messageId) continue;
    if (artifact.language !== null && candidate.language !== null && artifact.language !== candidate.language) continue;
    let score = dice(words, wordsOf(artifact.content));
    if (declared !== null && declaredOf(artifact.content) === declared) score = Math.max(score, threshold + 0.01);
    if (score > bestScore) {
      best = artifact;
      bestScore = score;
    }
  }
  return best;
}

/** Word sets and declared names of artifact contents, remembered: a session's artifacts are compared with every new block. */
const wordsOf = scopedMemo((content: string): ReadonlySet<string> => new Set(normalizedWords(content)));
const declaredOf = scopedMemo(declaredName);

/** Sørensen–Dice over word sets, as `wordSimilarity` in core/text computes it. */
function dice(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  for (const word of a) if (b.has(word)) shared += 1;
  return (2 * shared) / (a.size + b.size);
}

const DRAFT_NOUNS =
  'cover letter|letter|email|e-mail|essay|blog post|post|article|story|poem|speech|bio|biography|proposal|announcement|description|introduction|toast|review|report|outline|script|message|summary|statement|pitch|newsletter|press release|resume|cv|lyrics|song|invitation|note';
const DRAFT_REQUEST = new RegExp(
  `\\b(?:write|draft|compose|rewrite|redo|revise|edit|polish|improve|shorten|expand|create|prepare|make|update|change|fix|tweak|adjust|modify|tailor|customi[sz]e|translate)\\b[^.?!\\n]{0,60}?\\b(${DRAFT_NOUNS})\\b`,
  'iu',
);
const DRAFT_INTRO = new RegExp(`^\\s*(?:sure[,!.]?\\s*)?(?:here(?:'s| is| are)|below is|this is)\\s+(?:a|an|the|your|my)?\\s*(?:\\w+\\s+){0,3}?(${DRAFT_NOUNS}|draft)\\b`, 'iu');

function draftName(noun: string): string {
  return normalizeText(noun).replace(/\s+/gu, '-');
}

export interface ArtifactInput {
  messages: readonly AnalysedMessage[];
  known: readonly KnownArtifact[];
  revisionSimilarity: number;
  draftMinWords: number;
}

/** The artifact drafts of a turn, and per message the names given to its code blocks. */
export function turnArtifacts(input: ArtifactInput): { drafts: ArtifactDraft[]; codeNames: Map<string, { name: string; language: string | null; lines: number }[]> } {
  const known: Candidate[] = mapPacked(input.known, (artifact) => ({
    name: artifact.name,
    kind: artifact.kind,
    language: artifact.language,
    content: artifact.latest,
    messageId: null,
  }));
  const drafts: ArtifactDraft[] = [];
  const codeNames = new Map<string, { name: string; language: string | null; lines: number }[]>();
  const usedThisTurn = new Set<string>();

  for (const message of input.messages) {
    const names: { name: string; language: string | null; lines: number }[] = [];
    const content = message.message.content;
    for (const block of message.codeBlocks) {
      if (block.content.trim() === '') continue;
      const infoName = fileNameIn(` ${block.info}`);
      const commentName = infoName ?? fileNameIn(` ${firstLineComment(block.content) ?? ''}`);
      const fileName = commentName ?? fileNameIn(` ${lineBefore(content, block)}`);
      const language = languageOf(block, fileName);
      const declared = fileName === null ? declaredName(block.content) : null;
      let name = fileName ?? declared ?? `${language ?? 'code'}-snippet`;
      const candidate: Candidate = { name, kind: 'code', language, content: block.content, messageId: message.message.id };
      const source: NameSource = fileName !== null ? 'file' : declared !== null ? 'declared' : 'fallback';
      const revised = revisionOf(candidate, known, input.revisionSimilarity, source);
      if (revised !== null) name = revised.name;
      else if (usedThisTurn.has(name)) {
        let counter = 2;
        while (usedThisTurn.has(`${name}-${counter}`) || known.some((artifact) => artifact.name === `${name}-${counter}`)) counter += 1;
        name = `${name}-${counter}`;
      }
      usedThisTurn.add(name);
      drafts.push({ name, kind: 'code', language, content: block.content, messageId: message.message.id });
      known.push({ name, kind: 'code', language, content: block.content, messageId: message.message.id });
      names.push({ name, language, lines: block.content.split('\n').length });
    }
    codeNames.set(message.message.id, names);
  }

  // Long prose written on request becomes a draft artifact (the request is looked for only when a reply is long enough).
  let request: string | null | undefined;
  for (const message of input.messages) {
    if (message.message.role !== 'assistant' || message.codeBlocks.length > 0 || message.words < input.draftMinWords) continue;
    request ??=
      mapPacked(
        input.messages.filter((user) => user.message.role === 'user'),
        (user) => DRAFT_REQUEST.exec(user.prose)?.[1] ?? null,
      ).find((noun) => noun !== null) ?? null;
    const intro = DRAFT_INTRO.exec(message.prose)?.[1] ?? null;
    const noun = request ?? intro;
    if (noun === null) continue;
    const candidate: Candidate = { name: draftName(noun), kind: 'draft', language: null, content: message.prose.trim(), messageId: message.message.id };
    const revised = revisionOf(candidate, known, input.revisionSimilarity, 'declared');
    const name = revised?.name ?? candidate.name;
    drafts.push({ name, kind: 'draft', language: null, content: candidate.content, messageId: message.message.id });
    known.push({ ...candidate, name });
  }
  return { drafts, codeNames };
}
