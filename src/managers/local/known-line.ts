import type { FactKind } from '../../core/types.js';

/** A fact of the document or a line proposed earlier in the turn. */
export interface Known {
  id: string;
  key: string;
  text: string;
  kind: FactKind;
  /** The document fact's id; null for a line of this turn. */
  factId: string | null;
  order: number;
  /** The messages the line was read from (a document fact's sources; a line of this turn its message). */
  sources?: readonly string[];
}
