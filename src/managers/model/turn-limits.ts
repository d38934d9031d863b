/** How long the model's summaries and tiers may be, in words. */
export interface SummaryLimits {
  /** Most words of the user side's summary (25 for a whole turn). */
  userSummaryWords: number;
  /** Most words of the assistant side's summary (30 for a whole turn). */
  assistantSummaryWords: number;
  /** Share of a message's words that tier 1 (`key = value` pairs) may use. */
  tierOneShare: number;
  /** Share of a message's words that tier 2 (the brief summary) may use. */
  tierTwoShare: number;
  /** Least word limit of a tier, so short messages still get a usable tier. */
  minTierWords: number;
}

/** The design's limits: summaries ≤ 25 and ≤ 30 words, tier 1 ~20 % and tier 2 ~35 % of the message. */
export const TURN_LIMITS: Readonly<SummaryLimits> = {
  userSummaryWords: 25,
  assistantSummaryWords: 30,
  tierOneShare: 0.2,
  tierTwoShare: 0.35,
  minTierWords: 15,
};

/** The word limits of tier 1 and tier 2 of a message (or part of one) of `words` words. */
export function tierWordLimits(words: number, limits: SummaryLimits): { tier1: number; tier2: number } {
  return {
    tier1: Math.max(limits.minTierWords, Math.ceil(words * limits.tierOneShare)),
    tier2: Math.max(limits.minTierWords, Math.ceil(words * limits.tierTwoShare)),
  };
}

/** Least words a part's summary may have when a side's summary is shared among several calls. */
const MIN_PART_SUMMARY_WORDS = 8;

/**
 * The limits for one call of a turn summarised in several calls: each side's summary limit is shared
 * among the calls that show that side (at least 8 words each), so the parts joined stay near the limit.
 */
export function shareSummaryLimits(limits: SummaryLimits, callsWithUser: number, callsWithAssistant: number): SummaryLimits {
  const share = (words: number, calls: number): number => (calls <= 1 ? words : Math.max(MIN_PART_SUMMARY_WORDS, Math.floor(words / calls)));
  return {
    ...limits,
    userSummaryWords: share(limits.userSummaryWords, callsWithUser),
    assistantSummaryWords: share(limits.assistantSummaryWords, callsWithAssistant),
  };
}
