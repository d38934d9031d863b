import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HISTORY_LINES, chatHistory } from '../../src/cli/chat-history.js';

let dir: string | undefined;
afterEach(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('the chat history kept beside the database', () => {
  it('gives a session its own lines back, newest first, each once, and none for an in-memory database', () => {
    dir = mkdtempSync(join(tmpdir(), 'strata-history-'));
    const db = join(dir, 'chat.db');
    const history = chatHistory(db, 'session/1', () => undefined);
    for (const line of ['first', 'second', 'first', 'multi\nline']) history?.add(line);
    expect(chatHistory(db, 'session/1', () => undefined)?.load()).toEqual(['multi line', 'first', 'second']);
    expect(chatHistory(db, 'other', () => undefined)?.load()).toEqual([]);
    expect(chatHistory(':memory:', 'session/1', () => undefined)).toBeNull();
    // What was typed is private to the user.
    expect(statSync(join(`${db}.chat-history`, 'session%2F1.txt')).mode & 0o777).toBe(0o600);
    expect(statSync(`${db}.chat-history`).mode & 0o777).toBe(0o700);
  });

  it('cuts a long file back to the lines it offers', () => {
    dir = mkdtempSync(join(tmpdir(), 'strata-history-'));
    const db = join(dir, 'chat.db');
    const history = chatHistory(db, 's', () => undefined);
    history?.add('warm');
    const file = join(`${db}.chat-history`, 's.txt');
    writeFileSync(file, Array.from({ length: 2 * HISTORY_LINES + 5 }, (_, index) => `line ${index}`).join('\n'));
    const loaded = chatHistory(db, 's', () => undefined)?.load() ?? [];
    expect(loaded).toHaveLength(HISTORY_LINES);
    expect(loaded[0]).toBe(`line ${2 * HISTORY_LINES + 4}`);
    expect(readFileSync(file, 'utf8').trim().split('\n')).toHaveLength(HISTORY_LINES);
  });

  it('says once when the history cannot be written, and the chat goes on', () => {
    dir = mkdtempSync(join(tmpdir(), 'strata-history-'));
    // A file where the history's folder would go.
    const db = join(dir, 'chat.db');
    writeFileSync(`${db}.chat-history`, 'not a folder');
    const problems: string[] = [];
    const history = chatHistory(db, 's', (problem) => problems.push(problem));
    history?.add('one');
    history?.add('two');
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/chat history could not be written to .*s\.txt/u);
    expect(history?.load()).toEqual([]);
  });
});
