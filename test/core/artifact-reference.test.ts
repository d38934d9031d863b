import { describe, expect, it } from 'vitest';
import { parseArtifactReferences, resolveArtifactReferences, type VersionSelector } from '../../src/core/artifact-reference.js';
import type { Artifact, ArtifactKind } from '../../src/core/types.js';

function parsed(text: string): Array<{ nameHint: string[]; selector: VersionSelector }> {
  return parseArtifactReferences(text).map(({ nameHint, selector }) => ({ nameHint, selector }));
}

describe('parseArtifactReferences', () => {
  it.each([
    ['go back to the version from turn 3', [], { turn: 3 }],
    ["Let's use turn 3's version.", [], { turn: 3 }],
    ['the parser from turn 12 was better', ['parser'], { turn: 12 }],
    ['restore parse_config from turn 4', ['parse', 'config'], { turn: 4 }],
    ['show me the turn 5 version of the cover letter', ['cover', 'letter'], { turn: 5 }],
    ['the one as of turn 2', [], { turn: 2 }],
    ['give me version 2 of the parser', ['parser'], { ordinal: 2 }],
    ['I preferred draft 3', [], { ordinal: 3 }],
    ['use v2 please', [], { ordinal: 2 }],
    ["the parser's version 2", ['parser'], { ordinal: 2 }],
    ['use the first draft of the cover letter', ['cover', 'letter'], { ordinal: 'first' }],
    ['the second version of `parseConfig`', ['parseconfig'], { ordinal: 2 }],
    ['the 3rd revision', [], { ordinal: 3 }],
    ['go back to the previous version', [], { ordinal: 'previous' }],
    ['the original script', ['script'], { ordinal: 'first' }],
    ['the earlier cover letter', ['cover', 'letter'], { ordinal: 'previous' }],
    ['the previous one', [], { ordinal: 'previous' }],
    ["the cover letter's original draft", ['cover', 'letter'], { ordinal: 'first' }],
    ['the latest draft of the email', ['email'], { ordinal: 'latest' }],
    ['the most recent version', [], { ordinal: 'latest' }],
    ['no, the one before that', [], { ordinal: 'previous' }],
    ['the version before the current one', [], { ordinal: 'previous' }],
  ] as const)('recognises %j', (text, nameHint, selector) => {
    expect(parsed(text)).toEqual([{ nameHint, selector }]);
  });

  it.each([
    'I turned 3 today',
    'the first thing we should do',
    'do you use version control?',
    'Python version 3 is required',
    'upgrade to version 2.0 of the library',
    'it took two turns to agree',
    'it is my turn 3 times in a row',
    'what did I say in turn 3?',
    'I will write a first draft tomorrow',
    'the first letter of the alphabet',
    'the original question was about taxes',
    'the previous meeting ran long',
    'the last time we spoke',
    'the one before that date',
    'the V8 engine and IPv4 addresses',
    'the API v2 endpoint',
    'there are 3 versions of the truth',
  ])('refuses %j', (text) => {
    expect(parseArtifactReferences(text)).toEqual([]);
  });

  it('finds several references in text order, the turn form first where they overlap', () => {
    expect(parsed('compare the first draft from turn 2 with version 3 of the parser')).toEqual([
      { nameHint: [], selector: { turn: 2 } },
      { nameHint: ['parser'], selector: { ordinal: 3 } },
    ]);
  });

  it('hints the kind from generic nouns', () => {
    expect(parseArtifactReferences('the original script')[0]?.kindHint).toBe('code');
    expect(parseArtifactReferences('the first draft')[0]?.kindHint).toBe('draft');
    expect(parseArtifactReferences('version 2')[0]?.kindHint).toBeNull();
  });
});

function artifact(id: string, name: string, kind: ArtifactKind, turns: number[]): Artifact {
  return {
    id,
    sessionId: 's',
    name,
    kind,
    language: kind === 'code' ? 'python' : null,
    versions: turns.map((turn, index) => ({
      artifactId: id,
      version: index + 1,
      turn,
      messageId: `${id}-m${turn}`,
      content: `${name} v${index + 1}`,
      tokens: 3,
      createdAt: '2026-03-01T00:00:00.000Z',
    })),
  };
}

const PARSER = artifact('a1', 'parse_config', 'code', [1, 2, 4]);
const LETTER = artifact('a2', 'cover-letter', 'draft', [3, 5]);
const SCRIPT = artifact('a3', 'deploy.sh', 'code', [6]);

function resolve(text: string, artifacts: readonly Artifact[]): string[] {
  return resolveArtifactReferences(parseArtifactReferences(text), artifacts).map((entry) => `${entry.name}@${entry.version.version}`);
}

describe('resolveArtifactReferences', () => {
  it('matches a name hint by shared words and picks the version', () => {
    expect(resolve('use the first draft of the cover letter', [PARSER, LETTER, SCRIPT])).toEqual(['cover-letter@1']);
    expect(resolve('version 2 of the config parser', [PARSER, LETTER, SCRIPT])).toEqual(['parse_config@2']);
    expect(resolve('the original deploy script', [PARSER, LETTER, SCRIPT])).toEqual(['deploy.sh@1']);
    expect(resolve("the cover letter's latest draft", [PARSER, LETTER])).toEqual(['cover-letter@2']);
  });

  it('takes the version current at a named turn, and only versions made in it when nothing is named', () => {
    expect(resolve('the parser from turn 3', [PARSER, LETTER])).toEqual(['parse_config@2']);
    expect(resolve('the version from turn 2', [PARSER, LETTER])).toEqual(['parse_config@2']);
    expect(resolve('the version from turn 3', [PARSER, LETTER])).toEqual(['cover-letter@1']);
    expect(resolve('the version from turn 7', [PARSER, LETTER])).toEqual([]);
  });

  it('uses the only artifact, else the most recently revised one, when nothing is named', () => {
    expect(resolve('go back to v1', [PARSER])).toEqual(['parse_config@1']);
    expect(resolve('the previous version', [PARSER, LETTER])).toEqual(['cover-letter@1']);
    expect(resolve('version 3', [PARSER, LETTER])).toEqual(['parse_config@3']);
    expect(resolve('the first draft', [PARSER, LETTER, SCRIPT])).toEqual(['cover-letter@1']);
    expect(resolve('the original script', [PARSER, LETTER, SCRIPT])).toEqual(['deploy.sh@1']);
  });

  it('resolves nothing for a name no artifact has, a version that does not exist, or an empty session', () => {
    expect(resolve('version 2 of the rate limiter', [PARSER, LETTER])).toEqual([]);
    expect(resolve('version 9 of the parser', [PARSER])).toEqual([]);
    expect(resolve('the previous version', [SCRIPT])).toEqual([]);
    expect(resolve('the version from turn 2', [])).toEqual([]);
  });

  it('drops duplicates', () => {
    expect(resolve('the first version of the parser, i.e. version 1 of parse_config', [PARSER])).toEqual(['parse_config@1']);
  });
});
