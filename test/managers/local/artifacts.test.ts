import { describe, expect, it } from 'vitest';

import { Conversation, processOnce } from './conversation.js';

const LIMITER = [
  'export function createRateLimiter(limit: number) {',
  '  let count = 0;',
  '  return () => ++count <= limit;',
  '}',
].join('\n');

const LIMITER_WITH_RESET = [
  'export function createRateLimiter(limit: number) {',
  '  let count = 0;',
  '  const allow = () => ++count <= limit;',
  '  const reset = () => {',
  '    count = 0;',
  '  };',
  '  return { allow, reset };',
  '}',
].join('\n');

describe('code artifacts', () => {
  it('turns every fenced block into a code artifact with the fence language', async () => {
    const { memory } = await processOnce({
      user: 'Write the schema and a query.',
      assistant: 'Schema:\n```sql\nCREATE TABLE invoices (id INTEGER PRIMARY KEY, total INTEGER);\n```\nQuery:\n~~~python\ndef total_due(rows):\n    return sum(r.total for r in rows)\n~~~',
    });
    expect(memory.depth).toBe('code');
    expect(memory.artifacts).toEqual([
      { name: 'invoices', kind: 'code', language: 'sql', content: 'CREATE TABLE invoices (id INTEGER PRIMARY KEY, total INTEGER);', messageId: 't1-assistant' },
      { name: 'total_due', kind: 'code', language: 'python', content: 'def total_due(rows):\n    return sum(r.total for r in rows)', messageId: 't1-assistant' },
    ]);
  });

  it('names a block after the file named next to it or in its first-line comment', async () => {
    const { memory } = await processOnce({
      user: 'Two files please.',
      assistant: `Here is \`src/limiter.ts\`:\n\n\`\`\`ts\n${LIMITER}\n\`\`\`\n\nAnd the config:\n\n\`\`\`yaml\n# config/limits.yml\nlimit: 10\n\`\`\``,
    });
    expect(memory.artifacts.map((artifact) => artifact.name)).toEqual(['src/limiter.ts', 'config/limits.yml']);
  });

  it('falls back to <language>-snippet and keeps two unnamed blocks apart', async () => {
    const { memory } = await processOnce({ user: 'Commands?', assistant: '```bash\nnpm install\n```\nthen\n```bash\nnpm test\n```' });
    expect(memory.artifacts.map((artifact) => artifact.name)).toEqual(['bash-snippet', 'bash-snippet-2']);
  });

  it('keeps the name of a revised block so the engine records a new version', async () => {
    const conversation = new Conversation();
    const first = await conversation.say({ user: 'Can you write a rate limiter in TypeScript?', assistant: `Here's \`rate-limiter.ts\`:\n\n\`\`\`ts\n${LIMITER}\n\`\`\`` });
    expect(first.memory.artifacts.map((artifact) => artifact.name)).toEqual(['rate-limiter.ts']);
    // The revision names no file: the same declaration and language continue the artifact.
    const second = await conversation.say({ user: 'Please add a reset method.', assistant: `Updated version:\n\n\`\`\`ts\n${LIMITER_WITH_RESET}\n\`\`\`` });
    expect(second.memory.artifacts).toEqual([
      expect.objectContaining({ name: 'rate-limiter.ts', kind: 'code', language: 'ts', content: LIMITER_WITH_RESET }),
    ]);
    // A user paste of a slightly edited unnamed snippet also continues it.
    const third = await conversation.say({ user: `I tweaked it:\n\`\`\`ts\n${LIMITER_WITH_RESET.replace('limit: number', 'limit = 10')}\n\`\`\`` });
    expect(third.memory.artifacts.map((artifact) => artifact.name)).toEqual(['rate-limiter.ts']);
  });

  it('starts a new artifact for unrelated code in the same language', async () => {
    const conversation = new Conversation();
    await conversation.say({ user: 'Limiter?', assistant: `\`\`\`ts\n${LIMITER}\n\`\`\`` });
    const { memory } = await conversation.say({ user: 'And a date helper?', assistant: '```ts\nexport const isoDay = (date: Date): string => date.toISOString().slice(0, 10);\n```' });
    expect(memory.artifacts.map((artifact) => artifact.name)).toEqual(['isoDay']);
  });

  it('keeps code out of tier 1 and tier 2 but says where it went', async () => {
    const { memory } = await processOnce({ user: 'Limiter?', assistant: `Here's \`rate-limiter.ts\`:\n\n\`\`\`ts\n${LIMITER}\n\`\`\`\nIt allows \`limit\` calls.` });
    const assistant = memory.messages[1];
    expect(assistant?.tier2).not.toContain('++count');
    expect(assistant?.tier2).toContain('[code: rate-limiter.ts (ts), 4 lines]');
    expect(assistant?.tier1).toContain('code = rate-limiter.ts (ts)');
    expect(assistant?.requiredTier).toBe(2);
    expect(memory.assistantSummary).toContain('rate-limiter.ts');
  });
});

describe('draft artifacts', () => {
  it('records a long prose reply written on request as a draft, and its revision under the same name', async () => {
    const letter = (company: string): string =>
      `Dear hiring team at ${company},\n\n` +
      Array.from({ length: 14 }, (_, index) => `In my role number ${index + 1} I shipped features, mentored engineers and improved reliability for our customers.`).join(' ') +
      '\n\nKind regards,\nSam';
    const conversation = new Conversation();
    const first = await conversation.say({ user: 'Can you write a cover letter for the Acme backend role?', assistant: letter('Acme') });
    expect(first.memory.artifacts).toEqual([expect.objectContaining({ name: 'cover-letter', kind: 'draft', language: null, messageId: 't1-assistant' })]);
    const second = await conversation.say({ user: 'Please make the cover letter shorter and address it to Globex.', assistant: letter('Globex') });
    expect(second.memory.artifacts.map((artifact) => artifact.name)).toEqual(['cover-letter']);
  });

  it('does not treat an ordinary long answer as a draft', async () => {
    const answer = Array.from({ length: 20 }, () => 'Indexes speed up reads but slow down writes, so measure before adding them.').join(' ');
    const { memory } = await processOnce({ user: 'Should I add more indexes?', assistant: answer });
    expect(memory.artifacts).toEqual([]);
  });
});
