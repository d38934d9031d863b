import { describeValue } from '../core/describe-value.js';
import { existsSync, readFileSync } from 'node:fs';
import { z } from 'zod';
import { StrataError } from '../core/errors.js';
import { isTenantId, TENANT_ID_RULE } from '../core/tenant-id.js';

/** Settings that can come from options, `STRATA_*` variables or a config file, validated by one schema. */
export const settingsSchema = z.strictObject({
  /** SQLite database file (default `./strata.db`), or a `postgres://` URL for the PostgreSQL store. Variable: STRATA_DB. */
  path: z.string().min(1).default('./strata.db'),
  /** Tenant that owns the data (default `default`). Variable: STRATA_TENANT. */
  tenant: z.string().refine(isTenantId, { message: TENANT_ID_RULE }).default('default'),
  /** Token encoding (default `o200k_base`). Variable: STRATA_TOKENIZER. */
  tokenizer: z.enum(['o200k_base', 'cl100k_base']).default('o200k_base'),
  /** Turns kept verbatim at the end of a package (default 6). Variable: STRATA_RAW_WINDOW_TURNS. */
  rawWindowTurns: z.number().int().min(0).max(1000).default(6),
  /** Largest accepted message in UTF-8 bytes (default 524,288). Variable: STRATA_MAX_MESSAGE_BYTES. */
  maxMessageBytes: z.number().int().min(1).max(64 * 1024 * 1024).default(512 * 1024),
  /** `full` (default) fsyncs every commit; `normal` is faster and still crash-safe. Variable: STRATA_DURABILITY. */
  durability: z.enum(['full', 'normal']).default('full'),
  /** How long a write waits for another process's lock (default 5000 ms). Variable: STRATA_BUSY_TIMEOUT_MS. */
  busyTimeoutMs: z.number().int().min(0).max(600_000).default(5000),
  /**
   * Analyse large imports with the local manager in a worker thread, in parallel with storing them
   * (default true). Variable: STRATA_IMPORT_WORKER (true/false).
   */
  importWorker: z.boolean().default(true),
  /** Budget of the context package a chat turn sends to the chat model (default 30,000 tokens). Variable: STRATA_CONTEXT_BUDGET. */
  contextBudget: z.number().int().min(1).max(10_000_000).default(30_000),
  /**
   * How long a chat turn waits for the session's previous memory work before it proceeds on stale memory
   * (default 10,000 ms). Variable: STRATA_MEMORY_WAIT_MS.
   */
  memoryWaitMs: z.number().int().min(0).max(600_000).default(10_000),
  /**
   * Extra rounds a chat turn gives the chat model to ask for detail (`[REQUEST_TIER:3:12u]`,
   * `[SEARCH_EPISODIC: query]`) before it answers; 0 turns the protocol off (default 2). Variable:
   * STRATA_DETAIL_ROUNDS.
   */
  detailRounds: z.number().int().min(0).max(5).default(2),
  /**
   * How the chat model asks for detail: `auto` (default) offers the `request_tier` and `search_episodic`
   * tools in turns that give the model tools of their own, markers otherwise; `markers` or `tools` always.
   * Variable: STRATA_DETAIL_PROTOCOL.
   */
  detailProtocol: z.enum(['auto', 'markers', 'tools']).default('auto'),
  /**
   * Turns a message raised on the chat model's request stays raised after it was last asked for, before it
   * returns to its own tier (default 20). Variable: STRATA_RAISED_TIER_TURNS.
   */
  raisedTierTurns: z.number().int().min(1).max(1_000_000).default(20),
  /**
   * How older messages are found for a query: `hybrid` (default) fuses BM25 with vector neighbours from
   * the embedder (STRATA_EMBEDDING_* when set, else the bundled word vectors); `lexical` is BM25 alone.
   * Variable: STRATA_RECALL.
   */
  recall: z.enum(['hybrid', 'lexical']).default('hybrid'),
  /**
   * Tokens of the newest raw conversation that make up the contextual window (default 30,000): older turns
   * are archived, kept and searchable (recall, `[SEARCH_EPISODIC]`) but no longer shown in a package's
   * history by default. Variable: STRATA_CONTEXT_WINDOW_TOKENS.
   */
  contextWindowTokens: z.number().int().min(1_000).max(100_000_000).default(30_000),
  /**
   * Milliseconds a context read runs before it lets other work in at its next step (default 25): a small
   * session's package is built straight through, a large one's gives way to other requests between steps;
   * 0 lets the event loop turn at every step. Variable: STRATA_READ_SLICE_MS.
   */
  readSliceMs: z.number().int().min(0).max(10_000).default(25),
  /** First wait before a flagged turn's memory is retried; doubles per attempt up to 5 minutes (default 2,000 ms). Variable: STRATA_RETRY_BASE_MS. */
  retryBaseMs: z.number().int().min(1).max(600_000).default(2_000),
  /**
   * Consolidate a session's facts after every N-th turn when the memory manager can (the model manager);
   * 0 turns consolidation off (default 15). Variable: STRATA_CONSOLIDATE_EVERY_TURNS.
   */
  consolidateEveryTurns: z.number().int().min(0).max(1_000_000).default(15),
  /**
   * Promote a session's standing facts (rules, preferences, long-lived goals, facts about the user) to the
   * tenant's long-term memories as turns are written (default true). Variable: STRATA_PROMOTE.
   */
  promote: z.boolean().default(true),
  /**
   * Hours between the maintenance runs that tend a tenant's long-term memories in the background, once
   * the tenant is in use (default 24; 0 = only on demand, `strata memories tend`). Variable: STRATA_TEND_EVERY_HOURS.
   */
  tendEveryHours: z.number().min(0).max(100_000).default(24),
  /** A tag holding more current memories than this is split into subtags by the tagger (default 20). Variable: STRATA_REFINE_TAGS_ABOVE. */
  refineTagsAbove: z.number().int().min(2).max(1_000_000).default(20),
  /**
   * What the tagger does with the subtags it finds: `auto` (default) puts them on; `approve` keeps them as
   * proposals in the run's record until approved or rejected. Variable: STRATA_TAG_REFINEMENT.
   */
  tagRefinement: z.enum(['auto', 'approve']).default('auto'),
  /** Write a base-truth snapshot to the log every N turns (default 15; 0 = never). Variable: STRATA_SNAPSHOT_EVERY_TURNS. */
  snapshotEveryTurns: z.number().int().min(0).max(1_000_000).default(15),
  /**
   * Mebibytes the engine's caches may hold, about (default 64): half for older turns read into packages
   * (per tenant served), a quarter for the local manager's memos of text analysis, a quarter for token
   * counts. Past it the least recently used go; 0 keeps none. Open sessions' documents are held besides
   * (see the README). Variable: STRATA_CACHE_MB.
   */
  cacheMegabytes: z.number().int().min(0).max(1_000_000).default(64),
  /** Least severe log level written (default `warn`; `silent` writes nothing). Variable: STRATA_LOG_LEVEL. */
  logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('warn'),
});

export type Settings = z.infer<typeof settingsSchema>;
export type SettingsInput = z.input<typeof settingsSchema>;

/** The bytes each cache gets of `cacheMegabytes` (see the setting). */
export function cacheShares(settings: Pick<Settings, 'cacheMegabytes'>): { turns: number; manager: number; tokens: number } {
  const total = settings.cacheMegabytes * 1024 * 1024;
  const quarter = Math.floor(total / 4);
  return { turns: total - 2 * quarter, manager: quarter, tokens: quarter };
}

/** Where each setting can be set, for error messages. */
export const SETTING_VARIABLES: Readonly<Record<keyof Settings, string>> = {
  path: 'STRATA_DB',
  tenant: 'STRATA_TENANT',
  tokenizer: 'STRATA_TOKENIZER',
  rawWindowTurns: 'STRATA_RAW_WINDOW_TURNS',
  maxMessageBytes: 'STRATA_MAX_MESSAGE_BYTES',
  durability: 'STRATA_DURABILITY',
  busyTimeoutMs: 'STRATA_BUSY_TIMEOUT_MS',
  importWorker: 'STRATA_IMPORT_WORKER',
  contextBudget: 'STRATA_CONTEXT_BUDGET',
  memoryWaitMs: 'STRATA_MEMORY_WAIT_MS',
  detailRounds: 'STRATA_DETAIL_ROUNDS',
  detailProtocol: 'STRATA_DETAIL_PROTOCOL',
  raisedTierTurns: 'STRATA_RAISED_TIER_TURNS',
  recall: 'STRATA_RECALL',
  contextWindowTokens: 'STRATA_CONTEXT_WINDOW_TOKENS',
  readSliceMs: 'STRATA_READ_SLICE_MS',
  retryBaseMs: 'STRATA_RETRY_BASE_MS',
  consolidateEveryTurns: 'STRATA_CONSOLIDATE_EVERY_TURNS',
  promote: 'STRATA_PROMOTE',
  tendEveryHours: 'STRATA_TEND_EVERY_HOURS',
  refineTagsAbove: 'STRATA_REFINE_TAGS_ABOVE',
  tagRefinement: 'STRATA_TAG_REFINEMENT',
  snapshotEveryTurns: 'STRATA_SNAPSHOT_EVERY_TURNS',
  cacheMegabytes: 'STRATA_CACHE_MB',
  logLevel: 'STRATA_LOG_LEVEL',
};

const NUMERIC: ReadonlySet<keyof Settings> = new Set(['rawWindowTurns', 'maxMessageBytes', 'busyTimeoutMs', 'contextBudget', 'memoryWaitMs', 'detailRounds', 'raisedTierTurns', 'contextWindowTokens', 'readSliceMs', 'retryBaseMs', 'consolidateEveryTurns', 'snapshotEveryTurns', 'cacheMegabytes', 'tendEveryHours', 'refineTagsAbove']);
const BOOLEAN: ReadonlySet<keyof Settings> = new Set(['importWorker', 'promote']);
const BOOLEAN_WORDS: Readonly<Record<string, boolean>> = { true: true, false: false, '1': true, '0': false, yes: true, no: false, on: true, off: false };

function fromEnvironment(env: Readonly<Record<string, string | undefined>>): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [key, variable] of Object.entries(SETTING_VARIABLES) as Array<[keyof Settings, string]>) {
    const raw = env[variable];
    if (raw === undefined || raw.trim() === '') continue;
    // (A tenant id is exact: " acme" is refused, not read as "acme".)
    const text = key === 'tenant' ? raw : raw.trim();
    // Any number is read as one, so a wrong one ("1.5" for a whole number) is refused for what it is.
    if (NUMERIC.has(key) && /^[-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?$/iu.test(text)) values[key] = Number(text);
    else if (BOOLEAN.has(key) && BOOLEAN_WORDS[text.toLowerCase()] !== undefined) values[key] = BOOLEAN_WORDS[text.toLowerCase()];
    else values[key] = text;
  }
  return values;
}

function fromFile(file: string | undefined, explicit: boolean): Record<string, unknown> {
  if (file === undefined || (!explicit && !existsSync(file))) return {};
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new StrataError('INVALID_CONFIG', `Cannot read the config file ${file}: ${(error as Error).message}. Fix STRATA_CONFIG or the configFile option.`, { cause: error });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new StrataError('INVALID_CONFIG', `The config file ${file} is not valid JSON (${(error as Error).message}).`, { cause: error });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new StrataError('INVALID_CONFIG', `The config file ${file} must hold a JSON object of settings.`);
  }
  return value as Record<string, unknown>;
}

export interface ResolveSettingsOptions {
  options?: Partial<Record<keyof Settings, unknown>>;
  env?: Readonly<Record<string, string | undefined>>;
  /** Config file; default STRATA_CONFIG, else `./strata.config.json` when it exists. */
  configFile?: string;
}

/** What is wrong with a setting's value, in words a person can act on (zod's own message otherwise). */
function problemOf(issue: z.core.$ZodIssue, value: unknown): string {
  const got = `got ${describeValue(value)}`;
  if (issue.code === 'invalid_type' && issue.expected === 'int') return `must be a whole number (${got})`;
  if (issue.code === 'invalid_type' && issue.expected === 'number') return `must be a number (${got})`;
  if (issue.code === 'invalid_type' && issue.expected === 'boolean') return `must be true or false (${got})`;
  if (issue.code === 'too_small' && issue.origin === 'string') return `must not be empty (${got})`;
  if (issue.code === 'too_small') return `must be at least ${String(issue.minimum)} (${got})`;
  if (issue.code === 'too_big') return `must be at most ${String(issue.maximum)} (${got})`;
  if (issue.code === 'invalid_value') return `must be one of ${issue.values.map((option) => String(option)).join(', ')} (${got})`;
  return issue.message;
}

/** Merge options over environment over config file over defaults, and validate once. */
export function resolveSettings(resolve: ResolveSettingsOptions = {}): Settings {
  const env = resolve.env ?? process.env;
  const explicitFile = resolve.configFile ?? env.STRATA_CONFIG;
  const file = fromFile(explicitFile ?? './strata.config.json', explicitFile !== undefined);
  const options = Object.fromEntries(Object.entries(resolve.options ?? {}).filter(([, value]) => value !== undefined));
  const merged = { ...file, ...fromEnvironment(env), ...options };
  const parsed = settingsSchema.safeParse(merged);
  if (parsed.success) return parsed.data;
  // (One problem a setting: a huge number breaks both "safe integer" and the setting's own limit.)
  const issues = parsed.error.issues.filter((issue, index, all) => all.findIndex((other) => String(other.path[0]) === String(issue.path[0])) === index);
  const problems = issues.map((issue) => {
    const key = String(issue.path[0] ?? '');
    const variable = SETTING_VARIABLES[key as keyof Settings];
    const where = variable === undefined ? 'remove it' : `fix the "${key}" option or ${variable}`;
    return `${key === '' ? 'settings' : key}: ${problemOf(issue, (merged as Record<string, unknown>)[key])} (${where})`;
  });
  throw new StrataError('INVALID_CONFIG', `Invalid configuration: ${problems.join('; ')}.`, { details: { issues: parsed.error.issues } });
}
