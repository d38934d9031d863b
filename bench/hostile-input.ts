/**
 * `npm run bench:hostile`: the worst messages a user may send, each about 500 KB (just under the default
 * 512 KB limit): long letter runs (alone and between sentence ends), DNA, base64, CJK, emoji, combining marks, numbers, punctuation,
 * dense sentences, words of 100 letters and tab-separated words. For each, the time `record()` takes and the longest the event loop was blocked
 * meanwhile (a 1 ms interval's longest gap), after a warm-up that loads the NLP libraries.
 */
import { createMemory } from '../src/memory/create-memory.js';
import { printTable } from './print-table.js';

const LIMIT = 500_000;

function repeatTo(unit: string): string {
  return unit.repeat(Math.floor(LIMIT / Buffer.byteLength(unit)));
}

function base64(): string {
  const bytes = Buffer.alloc(Math.floor((LIMIT * 3) / 4));
  for (let index = 0; index < bytes.length; index += 1) bytes[index] = (index * 7919) % 256;
  return bytes.toString('base64');
}

const CASES: Array<[string, string]> = [
  ['one long word', repeatTo('x')],
  ['a long word between sentence ends', `start. ${'x'.repeat(LIMIT - 20)}. End`],
  ['DNA', repeatTo('ACGT')],
  ['base64', base64()],
  ['CJK', repeatTo('我们的预算是四千美元，截止日期是三月三日。')],
  ['emoji', repeatTo('😀🎉👍🏽 ')],
  ['combining marks', repeatTo('e\u0301\u0302\u0303\u0304 ')],
  ['numbers', repeatTo('12345 67.89 $1,234 ')],
  ['punctuation', repeatTo('!?.,;:')],
  ['dense sentences', repeatTo('The budget is $4,000 and the deadline is March 3, with Anna in Lisbon. ')],
  ['words of 100 letters', repeatTo(`${'abcdefghij'.repeat(10)} `)],
  ['tab-separated words', repeatTo('budget\tdeadline\tLisbon\t')],
];

/** Run `work` and report how long it took and the longest gap between ticks of a 1 ms interval meanwhile. */
async function timed(work: () => Promise<unknown>): Promise<{ ms: number; blockedMs: number }> {
  let last = performance.now();
  let blocked = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    blocked = Math.max(blocked, now - last);
    last = now;
  }, 1);
  const start = performance.now();
  await work();
  const ms = performance.now() - start;
  clearInterval(ticker);
  return { ms, blockedMs: Math.max(blocked, performance.now() - last) };
}

async function main(): Promise<void> {
  const memory = createMemory({ path: ':memory:', env: { STRATA_LOG_LEVEL: 'silent' } });
  try {
    const session = await memory.sessions.create({ title: 'Hostile input' });
    // Loads compromise and the date parser, as any first turns would.
    await session.record({ user: 'The budget is $4,000 and the deadline is March 3rd; we meet next Thursday.', assistant: 'Noted.' });
    const rows: Array<[string, string]> = [];
    for (const [name, text] of CASES) {
      const recorded = await timed(() => session.record({ user: text }));
      const read = await timed(() => session.context({ budget: 8000, query: 'budget deadline' }));
      const size = `${Math.round(Buffer.byteLength(text) / 1000)} KB`;
      rows.push([`${name} (${size})`, `record ${recorded.ms.toFixed(0)} ms · longest event-loop block ${recorded.blockedMs.toFixed(0)} ms · context 8k ${read.ms.toFixed(0)} ms`]);
    }
    printTable('Hostile messages, one record() each', rows);
  } finally {
    await memory.close();
  }
}

await main();
