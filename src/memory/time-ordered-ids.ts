import { randomBytes } from 'node:crypto';

/** The largest time a UUID version 7 holds: 48 bits of milliseconds. */
const MAX_MS = 2 ** 48 - 1;

/**
 * Ids that sort in the order they were made: UUID version 7 (RFC 9562), the clock's milliseconds first,
 * then a counter for ids made within one millisecond, then random bits. A session's facts are listed by
 * the turn that made them and then by id, so with these ids the facts a turn adds keep the order the turn
 * added them in, in every process and on every read; random ids would shuffle them, and the local
 * manager, which breaks ties by that order, would answer the same conversation differently run to run.
 *
 * @param clock The memory's clock (default: the system time).
 */
export function timeOrderedIds(clock: () => Date = () => new Date()): () => string {
  let lastMs = -1;
  let counter = 0;
  return () => {
    // (A time outside what 48 bits hold, or no time at all, counts on from the last id.)
    const now = clock().getTime();
    let ms = Number.isFinite(now) && now >= 0 ? Math.min(now, MAX_MS) : Math.max(lastMs, 0);
    if (ms <= lastMs) {
      // The same millisecond, or a clock that stepped back: count on from the last id.
      ms = lastMs;
      counter += 1;
      if (counter > 0xfff) {
        ms += 1;
        counter = 0;
      }
    } else {
      counter = 0;
    }
    lastMs = ms;
    const bytes = randomBytes(16);
    bytes.writeUIntBE(ms, 0, 6);
    bytes[6] = 0x70 | (counter >> 8);
    bytes[7] = counter & 0xff;
    bytes[8] = 0x80 | ((bytes[8] ?? 0) & 0x3f);
    const hex = bytes.toString('hex');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  };
}
