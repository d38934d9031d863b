import { words } from './text.js';

/** Common English function words that carry no retrieval signal. */
export const STOPWORDS: ReadonlySet<string> = new Set(
  `a about above after again against all am an and any are as at be because been before being below between both but by
  can could did do does doing down during each few for from further had has have having he her here hers herself him
  himself his how i if in into is it its itself just me more most my myself no nor not now of off on once only or other
  our ours ourselves out over own same she should so some such than that the their theirs them themselves then there
  these they this those through to too under until up very was we were what when where which while who whom why will
  with would you your yours yourself yourselves s t d ll m re ve don didn doesn isn wasn weren won wouldn shouldn couldn`
    .split(/\s+/u)
    .filter((word) => word !== ''),
);

/** The distinct content words of a query, in order of first appearance. */
export function queryTerms(query: string, options: { limit?: number } = {}): string[] {
  const limit = options.limit ?? 32;
  const terms: string[] = [];
  for (const word of words(query)) {
    if (STOPWORDS.has(word) || terms.includes(word)) continue;
    terms.push(word);
    if (terms.length >= limit) break;
  }
  return terms;
}
