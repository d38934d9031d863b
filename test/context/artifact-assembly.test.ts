import { afterEach, describe, expect, it } from 'vitest';
import type { ContextPackage } from '../../src/context/context-package.js';
import { createMemory, type Memory, type SessionHandle } from '../../src/memory/create-memory.js';
import { sequentialIds, steppingClock } from '../support/memory-fixtures.js';

const PARSER_V1 = ['def parse_config(path):', '    with open(path) as handle:', '        return dict(line.split("=", 1) for line in handle)'].join('\n');
const PARSER_V2 = [
  'def parse_config(path):',
  '    settings = {}',
  '    with open(path) as handle:',
  '        for line in handle:',
  '            line = line.strip()',
  '            if not line or line.startswith("#"):',
  '                continue',
  '            key, value = line.split("=", 1)',
  '            settings[key.strip()] = value.strip()',
  '    return settings',
].join('\n');
const PARSER_V3 = PARSER_V2.replace('def parse_config(path):', 'def parse_config(path, defaults=None):').replace('    settings = {}', '    settings = dict(defaults or {})');

function letter(company: string): string {
  return (
    `Dear hiring team at ${company},\n\n` +
    Array.from({ length: 14 }, (_, index) => `In my role number ${index + 1} I shipped features, mentored engineers and improved reliability for our customers.`).join(' ') +
    '\n\nKind regards,\nSam'
  );
}

async function draftingSession(memory: Memory): Promise<SessionHandle> {
  const session = await memory.sessions.create({ title: 'Drafting' });
  await session.record({ user: 'Write a Python function that parses a key=value config file.', assistant: `Here it is:\n\n\`\`\`python\n${PARSER_V1}\n\`\`\`` });
  await session.record({ user: 'Please skip blank lines and comments.', assistant: `Updated:\n\n\`\`\`python\n${PARSER_V2}\n\`\`\`` });
  await session.record({ user: 'Add optional defaults.', assistant: `Now with defaults:\n\n\`\`\`python\n${PARSER_V3}\n\`\`\`` });
  await session.record({ user: 'Can you write a cover letter for the Acme backend role?', assistant: letter('Acme') });
  await session.record({ user: 'Please make the cover letter address Globex instead.', assistant: letter('Globex') });
  for (let turn = 0; turn < 8; turn += 1) {
    await session.record({ user: `Unrelated question number ${turn + 1} about the weather in Lisbon?`, assistant: 'Sunny and mild, as usual for the season.' });
  }
  return session;
}

function artifactItems(pkg: ContextPackage): Array<{ text: string; sourceMessageIds: string[] }> {
  return pkg.sections.find((section) => section.name === 'artifacts')?.items ?? [];
}

describe('assembling artifact versions the query refers to', () => {
  let memory: Memory | undefined;
  afterEach(async () => {
    await memory?.close();
    memory = undefined;
  });

  async function setUp(): Promise<{ session: SessionHandle; messageOf: (turn: number) => string }> {
    memory = createMemory({ path: ':memory:', env: {}, clock: steppingClock(), newId: sequentialIds() });
    const session = await draftingSession(memory);
    const artifacts = await session.artifacts();
    const byName = new Map(artifacts.map((artifact) => [artifact.name, artifact.versions.map((version) => version.turn)]));
    expect(byName.get('parse_config')).toEqual([1, 2, 3]);
    expect(byName.get('cover-letter')).toEqual([4, 5]);
    const versions = artifacts.flatMap((artifact) => artifact.versions);
    return { session, messageOf: (turn) => versions.find((version) => version.turn === turn)?.messageId ?? '' };
  }

  it('includes the version from the turn the user names, with its message as the source', async () => {
    const { session, messageOf } = await setUp();
    const pkg = await session.context({ budget: 2_000, query: 'go back to the version from turn 2' });
    expect(pkg.tokens).toBeLessThanOrEqual(2_000);
    const items = artifactItems(pkg);
    expect(items).toHaveLength(1);
    expect(items[0]?.text).toContain('[artifact parse_config, version 2 from turn 2]');
    expect(items[0]?.text).toContain(PARSER_V2);
    expect(items[0]?.sourceMessageIds).toEqual([messageOf(2)]);
    const system = pkg.render()[0]?.content ?? '';
    expect(system).toContain('## Artifact versions the user refers to');
    expect(system.indexOf('## Artifact versions')).toBeLessThan(system.indexOf('## What this conversation has established'));
    expect(pkg.toJSON().sections.map((section) => section.name)).toContain('artifacts');
  });

  it('includes the first draft of the cover letter', async () => {
    const { session, messageOf } = await setUp();
    const pkg = await session.context({ budget: 2_000, query: 'use the first draft of the cover letter' });
    const items = artifactItems(pkg);
    expect(items.map((item) => item.sourceMessageIds)).toEqual([[messageOf(4)]]);
    expect(items[0]?.text).toContain('[artifact cover-letter, version 1 from turn 4]');
    expect(items[0]?.text).toContain('Dear hiring team at Acme');
    expect(pkg.tokens).toBeLessThanOrEqual(2_000);
  });

  it('changes nothing without a reference', async () => {
    const { session } = await setUp();
    const pkg = await session.context({ budget: 2_000, query: 'what is the weather in Lisbon?' });
    expect(pkg.sections.map((section) => section.name)).not.toContain('artifacts');
    const plain = await session.context({ budget: 2_000 });
    expect(plain.sections.map((section) => section.name)).toEqual(['instructions', 'pinned', 'facts', 'history', 'recalled', 'window']);
  });

  it('degrades under small budgets: a truncated head with a note, else an omission, never over budget', async () => {
    const { session, messageOf } = await setUp();
    const small = await session.context({ budget: 160, query: 'use the first draft of the cover letter' });
    expect(small.tokens).toBeLessThanOrEqual(160);
    const [head] = artifactItems(small);
    expect(head?.text).toMatch(/^\[artifact cover-letter, version 1 from turn 4; truncated: the first \d+ of \d+ tokens\]\nDear hiring team at Acme/u);
    expect(head?.sourceMessageIds).toEqual([messageOf(4)]);
    expect(small.warnings.some((warning) => warning.includes('truncated'))).toBe(true);

    const tiny = await session.context({ budget: 40, query: 'use the first draft of the cover letter' });
    expect(tiny.tokens).toBeLessThanOrEqual(40);
    expect(artifactItems(tiny)).toEqual([]);
    expect(tiny.omitted).toContainEqual({ sourceMessageIds: [messageOf(4)], turns: null, messageCount: 1, reason: 'budget: artifact cover-letter version 1 did not fit' });

    for (const budget of [20, 60, 90, 120, 200, 300, 500]) {
      const pkg = await session.context({ budget, query: 'compare version 1 of the parser with the version from turn 3' });
      expect(pkg.tokens).toBeLessThanOrEqual(budget);
    }
  });
});
