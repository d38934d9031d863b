/**
 * Tool calls gathered from the pieces of a streamed reply. Providers differ: most send a call's id and
 * name in its first piece and its arguments in parts, under one `index`; some repeat the id or name in
 * every piece, send them empty in later pieces, give parallel calls one index, or leave the index out.
 * A piece joins the call of its index unless it brings a new id (then it starts a call of its own).
 */
import type { ToolCall } from '../../core/types.js';

/** One piece of a call as a chunk's delta holds it. */
export interface ToolCallPiece {
  index?: number | null | undefined;
  id?: string | null | undefined;
  function?: { name?: string | null | undefined; arguments?: string | null | undefined } | null | undefined;
}

export class StreamedToolCalls {
  private readonly calls: ToolCall[] = [];
  /** The call each stream index is filling now. */
  private readonly byIndex = new Map<number, ToolCall>();

  add(piece: ToolCallPiece): void {
    const id = piece.id ?? '';
    const name = piece.function?.name ?? '';
    const at = piece.index ?? undefined;
    let call = at === undefined ? (id === '' ? this.calls[this.calls.length - 1] : this.calls.find((known) => known.id === id)) : this.byIndex.get(at);
    if (call === undefined || (id !== '' && call.id !== '' && call.id !== id)) {
      call = { id: '', name: '', arguments: '' };
      this.calls.push(call);
    }
    if (at !== undefined) this.byIndex.set(at, call);
    if (id !== '') call.id = id;
    // A name sent again whole is the same name; a name in parts is joined.
    if (name !== '' && name !== call.name) call.name += name;
    call.arguments += piece.function?.arguments ?? '';
  }

  /** The calls in the order they began. */
  list(): ToolCall[] {
    return this.calls.map((call) => ({ ...call }));
  }
}
