/** Cumulative counters of a model memory manager, for observability. */
export interface ModelManagerStats {
  /** Model calls made (each attempt counts, retries included; turn summaries and consolidations). */
  calls: number;
  /** Calls repeated because the answer was malformed. */
  retries: number;
  /** Turns that fell back to raw memory (`TurnMemory.fallback` set). */
  fallbacks: number;
  /** Prompt tokens the endpoint reported, over all calls. */
  promptTokens: number;
  /** Completion tokens the endpoint reported, over all calls. */
  completionTokens: number;
  /** Short exchanges summarised by the local manager without a model call. */
  skippedShort: number;
}

export function emptyStats(): ModelManagerStats {
  return { calls: 0, retries: 0, fallbacks: 0, promptTokens: 0, completionTokens: 0, skippedShort: 0 };
}

/** Add `more` into `total`, field by field. */
export function addStats(total: ModelManagerStats, more: ModelManagerStats): void {
  total.calls += more.calls;
  total.retries += more.retries;
  total.fallbacks += more.fallbacks;
  total.promptTokens += more.promptTokens;
  total.completionTokens += more.completionTokens;
  total.skippedShort += more.skippedShort;
}
