/** compromise, loaded once, and its word list: the part-of-speech tagger's dictionary. */
import { createRequire } from 'node:module';
import type Compromise from 'compromise';

/**
 * compromise from its single-file build (its CommonJS entry point): the same code as its ES module
 * sources, which are some 450 files that take a fresh thread several times longer to resolve and load.
 */
export const nlp = createRequire(import.meta.url)('compromise') as typeof Compromise;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** compromise's word list (word → its most specific tag), read once. */
const LEXICON: Readonly<Record<string, unknown>> = (() => {
  const world: unknown = nlp.world();
  if (!isRecord(world) || !isRecord(world.model) || !isRecord(world.model.one)) return {};
  const lexicon = world.model.one.lexicon;
  return isRecord(lexicon) ? lexicon : {};
})();

/** The compromise lexicon tag of a lower-case word, if it has one. */
export function lexiconTag(lower: string): string | undefined {
  if (!Object.hasOwn(LEXICON, lower)) return undefined;
  const tag = LEXICON[lower];
  return typeof tag === 'string' ? tag : undefined;
}
