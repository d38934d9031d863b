/**
 * The date parser (chrono-node's English parsers), loaded on first need (most turns' dates need no
 * parser) and made ready in slices. V8 compiles each of its regular expressions on first use, to
 * machine code on the second, once for text of one-byte characters and once for other text; two of
 * chrono-node's patterns spell "up to n spaces" as `\s{0,n}` inside a group repeated up to ten times,
 * which V8 unrolls: about 100 ms each, per kind of text. Every text the parser is given has its
 * whitespace collapsed to single spaces (a day phrase read apart is blanked out with characters that are
 * no whitespace), so reading `\s{0,n}` as `\s*` finds the same dates, and those patterns compile in a
 * fifth of the time.
 */
import type * as ChronoModule from 'chrono-node';
import type { Parser, ParsingContext } from 'chrono-node';
import { pacedPause } from '../../core/event-loop.js';

/** What the analysis asks of the parser. */
export type DateParser = Pick<ChronoModule.Chrono, 'parse'>;

let dateParser: DateParser | null = null;
let loadingDateParser: Promise<DateParser> | null = null;

/** Thrown by the analysis when a turn needs the date parser before it is loaded; the turn is then redone. */
export class DateParserNeeded extends Error {
  constructor() {
    super('the date parser is not loaded yet');
    this.name = 'DateParserNeeded';
  }
}

/** The loaded parser; throws `DateParserNeeded` when it is not loaded yet. */
export function loadedDateParser(): DateParser {
  if (dateParser === null) throw new DateParserNeeded();
  return dateParser;
}

/** Load the date parser and compile its patterns (once per process, a slice at a time). */
export async function loadDateParser(): Promise<void> {
  if (dateParser !== null) return;
  loadingDateParser ??= import('chrono-node').then(ready);
  const parser = await loadingDateParser;
  dateParser ??= parser;
}

const BOUNDED_SPACES = /\\s\{0,\d+\}/gu;

/** `parser` with `\s{0,n}` read as `\s*` in its pattern. */
function lighter(parser: Parser): Parser {
  const patterns = new Map<string, RegExp>();
  return {
    pattern(context: ParsingContext): RegExp {
      const pattern = parser.pattern(context);
      const key = `${pattern.flags}/${pattern.source}`;
      let light = patterns.get(key);
      if (light === undefined) {
        light = new RegExp(pattern.source.replace(BOUNDED_SPACES, '\\s*'), pattern.flags);
        patterns.set(key, light);
      }
      return light;
    },
    extract: (context, match) => parser.extract(context, match),
  };
}

/** Texts, of one-byte characters and of others, that reach every pattern of the parser. */
const WARM_UP_TEXTS = [
  'next Friday at 3pm, 2 weeks ago, in 3 days, 2 hours later, on 3 March 2024 or 12/03/2024; 12345 67.89 $1,234 at 10:30',
  'next Friday at 3pm — 2 weeks ago, in 3 days, 2 hours later, on 3 March 2024 or 12/03/2024; 12345 67.89 €1,234 at 10:30',
];

/** Milliseconds of compiling after which other work gets a turn of the event loop. */
const SLICE_MS = 20;

/**
 * chrono-node's casual English parser, lighter, with every pattern compiled: one parser and kind of text
 * at a time, other work let in once a slice has run `SLICE_MS`.
 */
async function ready(chrono: typeof ChronoModule): Promise<DateParser> {
  const parsers = chrono.casual.parsers.map(lighter);
  const reference = { instant: new Date(0), timezone: 0 };
  const pause = pacedPause(SLICE_MS);
  for (const text of WARM_UP_TEXTS) {
    for (const one of parsers) {
      const alone = new chrono.Chrono({ parsers: [one], refiners: [] });
      for (let use = 0; use < 2; use += 1) alone.parse(text, reference);
      await pause();
    }
  }
  const parser = new chrono.Chrono({ parsers, refiners: chrono.casual.refiners });
  for (const text of WARM_UP_TEXTS) for (let use = 0; use < 2; use += 1) parser.parse(text, reference);
  return parser;
}
