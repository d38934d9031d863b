import { vi } from 'vitest';
import { PreparedMessages } from '../../src/managers/local/prepared-messages.js';

/** Whether each `PreparedMessages.take` found prepared work, in call order (restore with `vi.restoreAllMocks`). */
export function watchTakes(): boolean[] {
  const found: boolean[] = [];
  const take = PreparedMessages.prototype.take;
  vi.spyOn(PreparedMessages.prototype, 'take').mockImplementation(function (this: PreparedMessages, ...args: Parameters<typeof take>) {
    const work = take.apply(this, args);
    found.push(work !== undefined);
    return work;
  });
  return found;
}
