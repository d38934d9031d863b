/**
 * The lines and options built for turns, kept with the reader whose turns they were built from: a
 * memory's turn cache keeps its turns between packages, and their lines with them; a plain reader's
 * lines last one package. Keyed by the message and turn objects, whose texts and counts never change
 * (a changed turn is read again as new objects).
 */
import type { Message, Tier } from '../core/types.js';
import { messageLineOf, turnOptions, type CountShort, type ExcludedMessages, type Line, type TurnMaterial, type TurnOption } from './turn-options.js';

const NOTHING_EXCLUDED: ReadonlySet<string> = new Set();

export class TurnLines {
  /** Lines per message object, by requested tier. */
  private readonly lines = new WeakMap<Message, Array<Line | undefined>>();
  /** Options per turn object with nothing left out. */
  private readonly plain = new WeakMap<TurnMaterial, TurnOption[]>();
  /** Options per turn object by the ids of its messages left out. */
  private readonly kept = new WeakMap<TurnMaterial, Map<string, TurnOption[]>>();

  /** A history or recall line for one message at a tier. Callers must not modify the result. */
  messageLine(message: Message, tier: Tier, countShort: CountShort): Line {
    let lines = this.lines.get(message);
    if (lines === undefined) {
      lines = [];
      this.lines.set(message, lines);
    }
    let line = lines[tier];
    if (line === undefined) {
      line = messageLineOf(message, tier, countShort);
      lines[tier] = line;
    }
    return line;
  }

  /** `turnOptions`, its message lines remembered. */
  turnOptions(material: TurnMaterial, countShort: CountShort, options: { excluded: ReadonlySet<string>; topTier?: Tier }): TurnOption[] {
    return turnOptions(material, countShort, options, (message, tier) => this.messageLine(message, tier, countShort));
  }

  /**
   * `turnOptions` (top tier as required) without the turn's messages in `excluded`, remembered for the
   * turn and the messages left out. Callers must not modify the result.
   */
  keptTurnOptions(material: TurnMaterial, countShort: CountShort, excluded: ExcludedMessages): TurnOption[] {
    let key = '';
    if (excluded.turns.has(material.turn)) {
      for (const message of material.messages) if (excluded.ids.has(message.id)) key += `${message.id} `;
    }
    if (key === '') {
      let options = this.plain.get(material);
      if (options === undefined) {
        options = this.turnOptions(material, countShort, { excluded: NOTHING_EXCLUDED });
        this.plain.set(material, options);
      }
      return options;
    }
    let byExcluded = this.kept.get(material);
    if (byExcluded === undefined) {
      byExcluded = new Map();
      this.kept.set(material, byExcluded);
    }
    let options = byExcluded.get(key);
    if (options === undefined) {
      options = this.turnOptions(material, countShort, { excluded: excluded.ids });
      byExcluded.set(key, options);
    }
    return options;
  }
}
