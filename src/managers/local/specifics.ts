/**
 * A specific: a detail of a sentence a memory must keep verbatim (an amount, a date, a name …), with
 * where it stands in the sentence.
 */
import type { EntityType } from './tagging.js';

export type SpecificType = 'money' | 'percent' | 'quantity' | 'number' | 'version' | 'date' | 'name' | 'email' | 'url';

export interface Specific {
  type: SpecificType;
  /** The specific as written in the sentence. */
  text: string;
  /** Offsets in the sentence. */
  start: number;
  end: number;
  /** For names: person, place or organization when known. */
  entity: EntityType | null;
  /** For names of known products: their category ("database"). */
  category: string | null;
  /** For dates relative to the message time ("yesterday"): the calendar date, e.g. "7 May 2023". */
  resolved: string | null;
}


/** A specific of `type` found at `start` of its sentence. */
export function specific(type: SpecificType, text: string, start: number, extra: Partial<Specific> = {}): Specific {
  return { type, text, start, end: start + text.length, entity: null, category: null, resolved: null, ...extra };
}
