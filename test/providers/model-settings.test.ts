import { describe, expect, it } from 'vitest';
import { isStrataError } from '../../src/core/errors.js';
import { modelVariable, readModelSettings, requireModelSettings } from '../../src/providers/model-settings.js';

function configError(env: Record<string, string>): { message: string; variable: unknown } {
  try {
    readModelSettings(env);
  } catch (error) {
    if (isStrataError(error, 'INVALID_CONFIG')) return { message: error.message, variable: error.details.variable };
    throw error;
  }
  throw new Error('expected INVALID_CONFIG');
}

describe('model settings from the environment', () => {
  it('leaves every role null when no model is named', () => {
    expect(readModelSettings({})).toEqual({ chat: null, memory: null, embedding: null });
    expect(readModelSettings({ STRATA_MEMORY_BASE_URL: 'http://localhost:11434/v1', STRATA_CHAT_MODEL: '  ' })).toEqual({ chat: null, memory: null, embedding: null });
  });

  it('reads each role separately, with its headers and time limit', () => {
    const settings = readModelSettings({
      STRATA_CHAT_MODEL: 'gpt-4o-mini',
      STRATA_CHAT_API_KEY: 'sk-chat',
      STRATA_MEMORY_MODEL: 'llama3.1:8b',
      STRATA_MEMORY_BASE_URL: 'http://localhost:11434/v1/',
      STRATA_MEMORY_TIMEOUT_MS: '12000',
      STRATA_EMBEDDING_MODEL: 'text-embedding-3-small',
      STRATA_EMBEDDING_BASE_URL: 'https://openrouter.ai/api/v1',
      STRATA_EMBEDDING_API_KEY: 'sk-or',
      STRATA_EMBEDDING_HEADERS: '{"HTTP-Referer": "https://example.test", "X-Title": "Strata"}',
    });
    expect(settings.chat).toEqual({ role: 'chat', model: 'gpt-4o-mini', baseUrl: 'https://api.openai.com/v1', apiKey: 'sk-chat', headers: {}, timeoutMs: 60_000 });
    expect(settings.memory).toEqual({ role: 'memory', model: 'llama3.1:8b', baseUrl: 'http://localhost:11434/v1', headers: {}, timeoutMs: 12_000 });
    expect(settings.embedding).toEqual({
      role: 'embedding',
      model: 'text-embedding-3-small',
      baseUrl: 'https://openrouter.ai/api/v1',
      apiKey: 'sk-or',
      headers: { 'HTTP-Referer': 'https://example.test', 'X-Title': 'Strata' },
      timeoutMs: 8000,
    });
  });

  it('falls back to OPENAI_BASE_URL and OPENAI_API_KEY, but never sends the OpenAI key to a role’s own endpoint', () => {
    const env = { OPENAI_BASE_URL: 'https://proxy.example.test/v1', OPENAI_API_KEY: 'sk-openai', STRATA_CHAT_MODEL: 'gpt-4o', STRATA_MEMORY_MODEL: 'qwen2.5', STRATA_MEMORY_BASE_URL: 'http://127.0.0.1:8080/v1' };
    const settings = readModelSettings(env);
    expect(settings.chat).toMatchObject({ baseUrl: 'https://proxy.example.test/v1', apiKey: 'sk-openai' });
    expect(settings.memory).toMatchObject({ baseUrl: 'http://127.0.0.1:8080/v1' });
    expect(settings.memory).not.toHaveProperty('apiKey');
  });

  it('names the variable for malformed headers, a bad time limit or a bad URL', () => {
    const headersJson = configError({ STRATA_MEMORY_MODEL: 'm', STRATA_MEMORY_HEADERS: '{"api-key": ' });
    expect(headersJson.variable).toBe('STRATA_MEMORY_HEADERS');
    expect(headersJson.message).toMatch(/STRATA_MEMORY_HEADERS is not valid JSON/u);
    const headersShape = configError({ STRATA_CHAT_MODEL: 'm', STRATA_CHAT_HEADERS: '{"api-key": 42}' });
    expect(headersShape.message).toMatch(/STRATA_CHAT_HEADERS must be a JSON object of header names to string values/u);
    expect(headersShape.message).not.toContain('42');
    expect(configError({ STRATA_CHAT_MODEL: 'm', STRATA_CHAT_HEADERS: '["x"]' }).variable).toBe('STRATA_CHAT_HEADERS');
    expect(configError({ STRATA_CHAT_MODEL: 'm', STRATA_CHAT_TIMEOUT_MS: 'soon' }).message).toMatch(/STRATA_CHAT_TIMEOUT_MS must be a whole number of milliseconds \(got "soon"\)/u);
    expect(configError({ STRATA_CHAT_MODEL: 'm', STRATA_CHAT_TIMEOUT_MS: '0' }).variable).toBe('STRATA_CHAT_TIMEOUT_MS');
    expect(configError({ STRATA_EMBEDDING_MODEL: 'm', STRATA_EMBEDDING_BASE_URL: 'localhost:11434' }).message).toMatch(/STRATA_EMBEDDING_BASE_URL must be an http:\/\/ or https:\/\/ URL/u);
    expect(configError({ STRATA_CHAT_MODEL: 'm', OPENAI_BASE_URL: 'ftp://example.test' }).variable).toBe('OPENAI_BASE_URL');
  });

  it('does not validate the settings of a role that is not configured', () => {
    expect(readModelSettings({ STRATA_MEMORY_TIMEOUT_MS: 'soon' }).memory).toBeNull();
  });

  it('says what to set when a required role is missing', () => {
    expect(() => requireModelSettings(null, 'chat')).toThrow(/Set STRATA_CHAT_MODEL/u);
    try {
      requireModelSettings(null, 'memory');
    } catch (error) {
      expect(isStrataError(error, 'MODEL_NOT_CONFIGURED')).toBe(true);
    }
    const memory = readModelSettings({ STRATA_MEMORY_MODEL: 'm' }).memory;
    expect(requireModelSettings(memory, 'memory')).toBe(memory);
    expect(modelVariable('embedding', 'API_KEY')).toBe('STRATA_EMBEDDING_API_KEY');
  });
});
