/**
 * Text widths for laying out charts without a canvas. Vega's own fallback counts every character as
 * 0.8 em, which makes labels, legends and titles reserve far more room than a browser draws; this
 * estimate uses the advance widths of Helvetica/Arial by character class instead, so the SVG comes out
 * about as wide as it looks.
 */

/** Advance widths in em by character (Helvetica/Arial metrics, rounded); others fall in the classes below. */
const WIDTHS: ReadonlyMap<string, number> = new Map([
  ...[...'iljI.,:;\'|! ·'].map((character): [string, number] => [character, 0.26]),
  ...[...'frt-()[]/'].map((character): [string, number] => [character, 0.32]),
  ...[...'mwMW%@'].map((character): [string, number] => [character, 0.86]),
]);

const UPPER_CASE = /\p{Lu}/u;

/** The width of one character in em. */
function characterWidth(character: string): number {
  return WIDTHS.get(character) ?? (UPPER_CASE.test(character) ? 0.68 : 0.56);
}

/** Estimated width in pixels of `text` drawn at `fontSize` pixels, a little wider when bold. */
export function textWidth(text: string, fontSize: number, bold = false): number {
  let em = 0;
  for (const character of text) em += characterWidth(character);
  return em * fontSize * (bold ? 1.07 : 1);
}

/** The part of a Vega scene item that decides how wide its text is. */
export interface TextItem {
  fontSize?: number | null;
  fontWeight?: string | number | null;
}

/** `textWidth` for a Vega scene item (font size 11 when unset, as Vega draws it). */
export function itemTextWidth(item: TextItem, text: unknown): number {
  const size = item.fontSize == null ? 11 : Number(item.fontSize) || 0;
  const weight = item.fontWeight;
  const bold = weight === 'bold' || weight === 'bolder' || (typeof weight === 'number' && weight >= 600) || (typeof weight === 'string' && Number(weight) >= 600);
  return textWidth(text == null ? '' : String(text).trim(), size, bold);
}
