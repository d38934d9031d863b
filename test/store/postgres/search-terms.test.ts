/**
 * The PostgreSQL store's search terms are SQLite FTS5's, token for token: the same text gives the same
 * folded, stemmed tokens, in the same order, as an FTS5 table with the SQLite store's tokenizer (read
 * through an fts5vocab 'instance' table), and the same row length. The tsvector literal escapes its
 * lexemes and keeps within PostgreSQL's limits (checked against the server when DATABASE_URL is set).
 */
import Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryTerms } from '../../../src/core/query-terms.js';
import { messageText } from '../../../src/core/tool-calls.js';
import { POSTGRES_MIGRATIONS } from '../../../src/store/postgres/migrations.js';
import { createArchiveSearch } from '../../../src/store/postgres/search.js';
import { queryLexemes, quoteLexeme, searchTerms, searchTokens } from '../../../src/store/postgres/search-terms.js';
import type { Sql } from '../../../src/store/postgres/sql.js';
import { searchIndexDefinition, sessionToken } from '../../../src/store/sqlite/search-index.js';
import { DATABASE_URL, POSTGRES_SKIP_REASON } from '../../support/postgres.js';

interface Row {
  speaker: string;
  content: string;
}

/** Each row's tokens as FTS5 indexes them, per column, in order. */
function fts5Tokens(rows: readonly Row[]): Array<{ speaker: string[]; content: string[]; session: string[] }> {
  const db = new Database(':memory:');
  try {
    db.exec(`CREATE VIRTUAL TABLE search USING fts5 (speaker, content, session, tokenize = 'porter unicode61 remove_diacritics 2')`);
    db.exec(`CREATE VIRTUAL TABLE terms USING fts5vocab (search, 'instance')`);
    const insert = db.prepare('INSERT INTO search (rowid, speaker, content, session) VALUES (?, ?, ?, ?)');
    db.transaction(() => rows.forEach((row, index) => insert.run(index + 1, row.speaker, row.content, 'x1')))();
    const found = rows.map(() => ({ speaker: [] as string[], content: [] as string[], session: [] as string[] }));
    const instances = db.prepare<[], [string, number, 'speaker' | 'content' | 'session', number]>('SELECT term, doc, col, offset FROM terms').raw(true).all();
    for (const [term, doc, column, offset] of instances) {
      const tokens = found[doc - 1]?.[column];
      if (tokens !== undefined) tokens[offset] = term;
    }
    return found;
  } finally {
    db.close();
  }
}

/** How many tokens were compared and the rows whose tokens differ from FTS5's. */
function compareWithFts5(rows: readonly Row[]): { compared: number; differences: string[] } {
  const expected = fts5Tokens(rows);
  const differences: string[] = [];
  let compared = 0;
  rows.forEach((row, index) => {
    const fts5 = expected[index] ?? { speaker: [], content: [], session: [] };
    const mine = { speaker: searchTokens(row.speaker), content: searchTokens(row.content) };
    compared += fts5.speaker.length + fts5.content.length;
    if (JSON.stringify(mine.speaker) !== JSON.stringify(fts5.speaker) || JSON.stringify(mine.content) !== JSON.stringify(fts5.content)) {
      differences.push(`${JSON.stringify(row)}: ${JSON.stringify(mine)} ≠ ${JSON.stringify(fts5)}`);
    }
    const length = searchTerms(row.speaker, row.content).length;
    if (length !== fts5.speaker.length + fts5.content.length + fts5.session.length) differences.push(`${JSON.stringify(row)}: length ${length}`);
  });
  return { compared, differences };
}

const TRICKY = [
  'I painted the fence; painting it was fun, and I paint again.',
  'Tomatoes and one tomato. Cherry tomatoes!',
  'Café, naïve, résumé, Ångström, São Paulo, Zürich, façade, Dvořák, Łódź, Ørsted, Þórr, ǅemal, ǖ, Ǡ ǡ',
  'Decomposed: cafe\u0301 nai\u0308ve e\u0300\u0301\u0302 \u0301alone x\u0305y',
  "Apostrophes: don't, it's, O'Brien, rock’n’roll, ‘quoted’",
  'Hyphens: wet-on-wet, state-of-the-art, e-mail — dash – en-dash',
  'Digits: 3.14, 1,000,000, v2, 2nd, 42nd Street, 0x1F600, ١٢٣ ४५६',
  'CJK: 東京は晴れです。日本語のテキスト 中文文本 한국어 텍스트',
  'Emoji: 😀 great🤔 ok👍🏽 🥰love 🧑‍🚀 🇫🇷 ❤️ ☕',
  'MiXeD CaSe WORDS, ÉCOLE, İstanbul, ΣΊΣΥΦΟΣ, straße, STRASSE, ſtop, µs, ﬁne, Ｈｅｌｌｏ',
  'Scripts: مرحبا بالعالم, नमस्ते दुनिया, สวัสดีชาวโลก, Ꭰ ꭰ Ა ა, 𐐀𐐨 𐒰',
  'Stems: caresses ponies ties caress cats feed agreed plastered bled motoring sing conflated troubled sized hopping tanned falling hissing fizzed failing filing happy sky relational conditional rational valenci hesitanci digitizer conformabli radicalli differentli vileli analogousli vietnamization predication operator feudalism decisiveness hopefulness callousness formaliti sensitiviti sensibiliti triplicate formative formalize electriciti electrical hopeful goodness revival allowance inference airliner gyroscopic adjustable defensible irritant replacement adjustment dependent adoption homologou communism activate angulariti homologous effective bowdlerize probate rate cease controll roll generalizations oscillators',
  'Odd: a\u4efbed b\u4efbing ab\ud800cd \ufffe\uffff \u200d\u200b zero\u00a0width tab\tnew\nline',
  `Long: ${'supercalifragilistic'.repeat(4)} ${'x'.repeat(70)}ing ${'é'.repeat(40)}s ab cd ed ing`,
];

const SPEAKERS = ['', 'Marisol Ortega', 'Dr. Åsa Öberg-Lindqvist', 'O\'Neil', 'bot_42'];

interface ExampleRow extends Row {
  conversation: string;
  position: number;
}

/** The examples' messages (content, then their tool calls), each with a speaker, the conversation it is of and its place there. */
function exampleRows(): ExampleRow[] {
  return readdirSync('examples/conversations').flatMap((file) => {
    const conversation = JSON.parse(readFileSync(`examples/conversations/${file}`, 'utf8')) as { messages: Array<{ content: string; toolCalls?: [] }> };
    return conversation.messages.map((message, position) => ({ speaker: SPEAKERS[position % SPEAKERS.length] ?? '', content: messageText(message), conversation: file, position }));
  });
}

/** Deterministic words built to hit every stemming rule (suffixes after random letters, some not ASCII). */
function stemmerWords(count: number): string[] {
  const suffixes = ('ational tional enci anci izer logi bli alli entli eli ousli ization ation ator alism iveness fulness ousness aliti iviti biliti ' +
    'ical ness icate iciti ful ative alize al ance ence er ic able ible ant ement ment ent ion sion tion ou ism ate iti ous ive ize eed ed ing at bl ' +
    'iz s es ies sses ss y e ll l ly ying yed ied').split(' ');
  const letters = 'abcdefghijklmnopqrstuvwxyzaeiouyyslt';
  let seed = 7;
  const next = (range: number): number => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % range;
  };
  return Array.from({ length: count }, () => {
    let word = '';
    for (let letter = next(8); letter >= 0; letter -= 1) word += letters[next(letters.length)];
    for (let suffix = next(3); suffix > 0; suffix -= 1) word += suffixes[next(suffixes.length)];
    return next(10) === 0 ? `${word}${['é', '日', 'ß'][next(3)]}ing` : word;
  });
}

/** Rows of `span` code points from `first` on (each alone, then inside a word), skipping surrogates. */
function codePointRows(first: number, last: number, step: number, span = 512): Row[] {
  const rows: Row[] = [];
  for (let start = first; start <= last; start += span * step) {
    const parts: string[] = [];
    for (let code = start; code < start + span * step && code <= last; code += step) {
      if (code >= 0xd800 && code <= 0xdfff) continue;
      const character = String.fromCodePoint(code);
      parts.push(`${character} q${character}q`);
    }
    rows.push({ speaker: '', content: parts.join(' ') });
  }
  return rows;
}

describe('search terms: parity with SQLite FTS5 (porter unicode61 remove_diacritics 2)', () => {
  it('gives the tokens of every example message and speaker, token for token, and the same row length', () => {
    const { compared, differences } = compareWithFts5(exampleRows());
    expect(differences).toEqual([]);
    expect(compared).toBeGreaterThan(40_000);
  }, 30_000);

  it('gives the tokens of tricky text: accents, apostrophes, hyphens, digits, CJK, emoji, case, stems, scripts', () => {
    const rows = TRICKY.flatMap((content) => SPEAKERS.map((speaker) => ({ speaker, content })));
    expect(compareWithFts5(rows).differences).toEqual([]);
  });

  it('stems as FTS5 stems, every rule and its quirks', () => {
    const words = stemmerWords(60_000);
    const rows = Array.from({ length: 60 }, (_, index) => ({ speaker: '', content: words.slice(index * 1000, index * 1000 + 1000).join(' ') }));
    const { compared, differences } = compareWithFts5(rows);
    expect(differences).toEqual([]);
    expect(compared).toBe(60_000);
  }, 30_000);

  it('splits, joins and folds every code point of the Basic Multilingual Plane and the emoji planes as FTS5 does, and a sample of the rest', () => {
    const rows = [...codePointRows(0x80, 0xffff, 1), ...codePointRows(0x1f000, 0x1faff, 1), ...codePointRows(0x10000, 0x10ffff, 97)];
    expect(compareWithFts5(rows).differences).toEqual([]);
  }, 60_000);

  it('folds and stems the examples of the ArchiveSearch port', () => {
    expect(['painted', 'painting', 'paint'].map(queryLexemes)).toEqual([['paint'], ['paint'], ['paint']]);
    expect(['tomatoes', 'tomato'].map(queryLexemes)).toEqual([['tomato'], ['tomato']]);
    expect(searchTokens('Cafe\u0301 CAFÉ café')).toEqual(['cafe', 'cafe', 'cafe']);
  });
});

describe('queryLexemes', () => {
  it('gives a query word as the index holds it', () => {
    expect(queryLexemes('Fences')).toEqual(['fenc']);
    expect(queryLexemes('naïve')).toEqual(['naiv']);
    expect(queryLexemes('東京')).toEqual(['東京']);
    expect(queryLexemes('42')).toEqual(['42']);
  });

  it('gives a phrase for a word FTS5 splits, nothing for one it does not index or PostgreSQL cannot hold', () => {
    // U+19B0 is a letter to JavaScript (Unicode 8+) but a separator in SQLite's Unicode 6.1 tables.
    expect(queryLexemes('x\u19b0y')).toEqual(['x', 'y']);
    expect(queryLexemes('\u19b0')).toEqual([]);
    expect(queryLexemes('a'.repeat(2047))).toEqual([]);
    expect(queryLexemes('a'.repeat(2046))).toEqual(['a'.repeat(2046)]);
  });
});

/** The lexemes of a literal the way `searchTerms` writes it, with their places. */
function parsedVector(vector: string): Map<string, number[]> {
  const entries = new Map<string, number[]>();
  for (const match of vector.matchAll(/'((?:[^'\\]|''|\\.)*)':([\d,]+)/gu)) {
    entries.set((match[1] ?? '').replaceAll("''", "'").replace(/\\(.)/gu, '$1'), (match[2] ?? '').split(',').map(Number));
  }
  return entries;
}

describe('searchTerms: the tsvector literal', () => {
  it('places the speaker first, then the text a place apart, and counts the session column in the length', () => {
    expect(searchTerms('Alice', 'I painted the fence; tomatoes paint')).toEqual({ vector: "'alic':1 'i':3 'paint':4,8 'the':5 'fenc':6 'tomato':7", length: 8 });
    expect(searchTerms(null, 'Paint it')).toEqual({ vector: "'paint':1 'it':2", length: 3 });
    expect(searchTerms(null, '  ... ')).toEqual({ vector: '', length: 1 });
  });

  it('quotes lexemes, doubling quotes and backslashes', () => {
    expect(quoteLexeme("it's")).toBe("'it''s'");
    expect(quoteLexeme('a\\b')).toBe("'a\\\\b'");
    expect(parsedVector(`${quoteLexeme("o'k\\")}:1`)).toEqual(new Map([["o'k\\", [1]]]));
  });

  it('leaves out a lexeme over 2046 bytes, keeps 256 places of a lexeme, and moves places past 16383 below it', () => {
    const long = searchTerms(null, `${'a'.repeat(2047)} ${'ж'.repeat(1024)} ${'ж'.repeat(1023)} ok`);
    expect([...parsedVector(long.vector).keys()]).toEqual(['ж'.repeat(1023), 'ok']);
    expect(long.length).toBe(5);

    const repeated = parsedVector(searchTerms(null, 'echo '.repeat(300)).vector).get('echo') ?? [];
    expect(repeated).toEqual(Array.from({ length: 256 }, (_, index) => index + 1));

    const words = Array.from({ length: 20_000 }, (_, index) => `w${index % 16_390}`);
    const places = parsedVector(searchTerms(null, `${words.join(' ')} tail tail`).vector);
    expect(places.get('w5')).toEqual([6, 16_383]);
    expect(places.get('w16382')).toEqual([16_383]);
    expect(places.get('tail')).toEqual([16_382, 16_383]);
    expect(Math.max(...[...places.values()].flat())).toBe(16_383);
  });

  it('is linear in the text and keeps a vector of a huge message under 1 MB (500 KB of one word, of DNA, of CJK, of emoji, of distinct words)', () => {
    const size = 500_000;
    const dna = Array.from({ length: size }, (_, index) => 'ACGT'[(index * 7 + (index >> 3)) % 4]).join('');
    // Each text with its tokens: one word; DNA in one piece and in lines of 60; a CJK sentence and its full stop; emoji, of which
    // SQLite's Unicode 6.1 tables know 😀 and 👍 (separators) but not 🤔 and 🏽 (tokens); distinct words of two CJK characters.
    const texts: Array<[string, string, number]> = [
      ['word', 'a'.repeat(size), 1],
      ['dna', dna, 1],
      ['dna lines', dna.replace(/(.{60})/gu, '$1\n'), Math.ceil(size / 60)],
      ['cjk', '東京は晴れです。'.repeat(size / 8), size / 8],
      ['emoji', '😀🤔👍🏽'.repeat(size / 8), size / 4],
      ['words', Array.from({ length: size / 3 }, (_, index) => String.fromCharCode(0x4e00 + (index % 20_000), 0x4e00 + Math.floor(index / 20_000))).join(' '), Math.floor(size / 3)],
    ];
    for (const [name, text, tokens] of texts) {
      expect(text.length, name).toBeGreaterThanOrEqual(size - 8);
      const terms = searchTerms('speaker', text);
      expect(terms.length, name).toBe(tokens + 2);
      const vector = parsedVector(terms.vector);
      let bytes = 0;
      for (const [lexeme, held] of vector) bytes += Buffer.byteLength(lexeme) + 1 + 2 * (held.length + 1);
      expect(bytes, name).toBeLessThanOrEqual(1_048_575);
      if (name === 'words') expect(vector.size).toBeGreaterThan(50_000);
      if (name === 'words') expect(vector.size).toBeLessThan(tokens);
    }
  }, 60_000);
});

describe.skipIf(POSTGRES_SKIP_REASON !== null)(`searchTerms against PostgreSQL${POSTGRES_SKIP_REASON === null ? '' : ` (skipped: ${POSTGRES_SKIP_REASON})`}`, () => {
  let client: pg.Client;
  beforeAll(async () => {
    client = new pg.Client({ connectionString: DATABASE_URL });
    await client.connect();
  });
  afterAll(() => client.end());

  it('gives literals PostgreSQL reads back as they were written, and the same lexemes a tsquery of queryLexemes matches', async () => {
    const texts = [...TRICKY, 'echo '.repeat(300), Array.from({ length: 20_000 }, (_, index) => `w${index % 16_390}`).join(' '), `${'ж'.repeat(1023)} x`];
    for (const text of texts) {
      const { vector } = searchTerms('Zoë', text);
      const { rows } = await client.query<{ lexeme: string; positions: number[] }>('SELECT lexeme, positions FROM unnest($1::tsvector)', [vector]);
      expect(new Map(rows.map((row) => [row.lexeme, row.positions])), text.slice(0, 40)).toEqual(parsedVector(vector));
    }
    const huge = searchTerms(null, Array.from({ length: 62_500 }, (_, index) => `w${index.toString(36)}`).join(' ')).vector;
    expect((await client.query('SELECT length($1::tsvector) AS lexemes', [huge])).rows[0]?.lexemes).toBeGreaterThan(50_000);
    const matched = await client.query<{ found: boolean }>('SELECT $1::tsvector @@ $2::tsquery AS found', [searchTerms(null, 'Cherry TOMATOES on a balcony').vector, `${quoteLexeme(queryLexemes('tomato')[0] ?? '')} & ${quoteLexeme(queryLexemes('Balconies')[0] ?? '')}`]);
    expect(matched.rows[0]?.found).toBe(true);
  }, 30_000);
});

/** The examples in an FTS5 index as the SQLite store builds it, and the same rows in the PostgreSQL schema. */
async function storeExamples(client: pg.Client, rows: readonly ExampleRow[]): Promise<Database.Database> {
  const db = new Database(':memory:');
  db.exec(searchIndexDefinition('search'));
  const insert = db.prepare('INSERT INTO search (rowid, speaker, content, session) VALUES (?, ?, ?, ?)');
  await client.query(`INSERT INTO tenants VALUES ('t', 'now')`);
  for (const conversation of new Set(rows.map((row) => row.conversation))) {
    const mine = rows.filter((row) => row.conversation === conversation);
    const terms = mine.map((row) => searchTerms(row.speaker, row.content));
    await client.query(`INSERT INTO sessions (tenant_id, id, title, created_at, updated_at, message_count, search_length) VALUES ('t', $1, '', 'now', 'now', $2, $3)`,
      [conversation, mine.length, terms.reduce((sum, term) => sum + term.length, 0)]);
    await client.query(`INSERT INTO messages (tenant_id, session_id, id, turn, position, role, speaker, content, tier1, tier2, tier1_tokens, tier2_tokens, tier3_tokens,
        required_tier, created_at, search_vector, search_length)
      SELECT 't', $1, $1 || '/' || position, position / 2 + 1, position, 'user', null, '', '', '', 1, 1, 1, 3, 'now', vector, length
        FROM unnest($2::tsvector[], $3::int[]) WITH ORDINALITY AS row (vector, length, place), LATERAL (SELECT place::int - 1 AS position) AS p`,
      [conversation, terms.map((term) => term.vector), terms.map((term) => term.length)]);
    // The FTS5 rowid of a row is its place in `rows`, plus one.
    mine.forEach((row) => insert.run(rows.indexOf(row) + 1, row.speaker, row.content, sessionToken(conversation)));
  }
  // Each term's document frequency, as the store keeps it (search-statistics.ts).
  await client.query(`INSERT INTO search_terms (tenant_id, lexeme, documents)
    SELECT 't', lexeme, count(*) FROM messages CROSS JOIN unnest(tsvector_to_array(search_vector)) AS lexeme GROUP BY lexeme`);
  return db;
}

describe.skipIf(POSTGRES_SKIP_REASON !== null)(`the PostgreSQL archive search ranks as FTS5's bm25()${POSTGRES_SKIP_REASON === null ? '' : ` (skipped: ${POSTGRES_SKIP_REASON})`}`, () => {
  const schema = `strata_test_${randomBytes(5).toString('hex')}`;
  let client: pg.Client;
  beforeAll(async () => {
    client = new pg.Client({ connectionString: DATABASE_URL });
    await client.connect();
    await client.query(`CREATE SCHEMA ${schema}`);
    await client.query(`SET search_path TO ${schema}`);
    for (const migration of POSTGRES_MIGRATIONS) await client.query(migration.sql);
  });
  afterAll(async () => {
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await client.end();
  });

  it('gives the same counts, hits, order and scores as the SQLite index over the same messages', async () => {
    const rows = exampleRows();
    const db = await storeExamples(client, rows);
    const sql: Sql = {
      query: (text, values) => client.query(text, values as unknown[]),
      arrays: async <R extends unknown[]>(text: string, values?: readonly unknown[]) => (await client.query<R>({ text, values: values as unknown[], rowMode: 'array' })).rows,
      read: (work) => work(sql),
      write: (work) => work(sql),
    };
    const search = createArchiveSearch(sql, 't');
    expect(await search.documentCount()).toBe(rows.length);
    const rank = db.prepare<[string, number], [number, number]>('SELECT rowid, bm25(search, 1.0, 1.0, 0.0) AS score FROM search WHERE search MATCH ? ORDER BY score, rowid LIMIT ?').raw(true);
    const count = db.prepare<[string], number>('SELECT count(*) FROM search WHERE search MATCH ?').pluck();
    const quoted = (terms: readonly string[]): string => terms.map((term) => `"${term}"`).join(' OR ');
    const conversations = [...new Set(rows.map((row) => row.conversation))];
    let hits = 0;
    for (const [index, row] of rows.entries()) {
      if (index % 25 !== 0) continue;
      const terms = queryTerms(row.content).slice(0, 10);
      if (terms.length === 0) continue;
      expect(await search.termFrequencies({ terms })).toEqual(terms.map((term) => count.get(quoted([term]))));
      for (const [turnLimit, conversation] of [[undefined, row.conversation], [20, conversations[index % conversations.length] ?? '']] as const) {
        const mine = await search.rank({ sessionId: conversation, terms, limit: 12, ...(turnLimit === undefined ? {} : { maxTurn: turnLimit }) });
        const expected = rank.all(`session : ${sessionToken(conversation)} AND (${quoted(terms)})`, 1000)
          .map(([rowid, score]) => ({ position: rows[rowid - 1]?.position ?? -1, score: -score }))
          .map(({ position, score }) => ({ messageId: `${conversation}/${position}`, turn: Math.floor(position / 2) + 1, score }))
          .filter((hit) => turnLimit === undefined || hit.turn <= turnLimit)
          .slice(0, 12);
        expect(mine).toEqual(expected);
        hits += mine.length;
      }
    }
    expect(hits).toBeGreaterThan(500);
    db.close();
  }, 60_000);
});
