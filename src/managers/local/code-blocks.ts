/** Fenced code blocks (``` or ~~~) of a message, and the prose around them. */

export interface CodeBlock {
  /** The first word of the fence's info string, lower-case; null when the fence names no language. */
  language: string | null;
  /** The whole info string after the fence marker ('' when none). */
  info: string;
  /** The code between the fences (no trailing newline). */
  content: string;
  /** Offset of the opening fence in the message. */
  start: number;
  /** Offset just after the closing fence (the message end for an unclosed fence). */
  end: number;
}

const OPENING = /^[ \t]{0,3}(`{3,}|~{3,})[ \t]*([^\n`]*)$/u;

/** Find the fenced code blocks of a message; an unclosed fence runs to the end of the message. */
export function findCodeBlocks(text: string): CodeBlock[] {
  if (!text.includes('```') && !text.includes('~~~')) return [];
  const blocks: CodeBlock[] = [];
  const lines = text.split('\n');
  let offset = 0;
  let open: { marker: string; info: string; start: number; contentStart: number } | null = null;
  for (const line of lines) {
    const lineEnd = offset + line.length;
    if (open === null) {
      const match = OPENING.exec(line);
      if (match !== null) {
        const info = (match[2] ?? '').trim();
        open = { marker: match[1] ?? '```', info, start: offset, contentStart: Math.min(lineEnd + 1, text.length) };
      }
    } else {
      const trimmed = line.trim();
      if (trimmed.startsWith(open.marker.charAt(0).repeat(open.marker.length)) && /^(`{3,}|~{3,})$/u.test(trimmed)) {
        blocks.push(makeBlock(text, open, offset, lineEnd));
        open = null;
      }
    }
    offset = lineEnd + 1;
  }
  if (open !== null) blocks.push(makeBlock(text, open, text.length, text.length));
  return blocks;
}

function makeBlock(
  text: string,
  open: { info: string; start: number; contentStart: number },
  contentEnd: number,
  end: number,
): CodeBlock {
  const firstWord = open.info.split(/\s+/u)[0] ?? '';
  const language = /^[\w+#.-]+$/u.test(firstWord) && !firstWord.includes('.') ? firstWord.toLowerCase() : null;
  const content = text.slice(open.contentStart, Math.max(open.contentStart, contentEnd)).replace(/\n$/u, '');
  return { language, info: open.info, content, start: open.start, end };
}

/** The message without its code blocks; each block leaves a line break so the prose around it stays apart. */
export function proseOf(text: string, blocks: readonly CodeBlock[]): string {
  if (blocks.length === 0) return text;
  let prose = '';
  let cursor = 0;
  for (const block of blocks) {
    prose += `${text.slice(cursor, block.start)}\n`;
    cursor = block.end;
  }
  return prose + text.slice(cursor);
}
