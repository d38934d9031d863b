import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Memory } from '../../src/memory/memory-api.js';
import { startServer, type RunningServer } from '../../src/server/start-server.js';
import { testMemory } from '../support/memory-fixtures.js';

let memory: Memory;
let server: RunningServer;
let cleanup: () => Promise<void>;
const clients: Client[] = [];

beforeEach(async () => {
  ({ memory, cleanup } = testMemory());
  server = await startServer({ memory, port: 0 });
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await server.close();
  await cleanup();
});

async function connect(key: string | undefined): Promise<Client> {
  const client = new Client({ name: 'strata-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), key === undefined ? {} : { requestInit: { headers: { Authorization: `Bearer ${key}` } } });
  await client.connect(transport);
  clients.push(client);
  return client;
}

/** The text of a tool's answer, and whether it is an error. */
async function call(client: Client, name: string, args: Record<string, unknown>): Promise<{ text: string; isError: boolean }> {
  const result = (await client.callTool({ name, arguments: args })) as { content: Array<{ type: string; text?: string }>; isError?: boolean };
  return { text: result.content.map((part) => part.text ?? '').join(''), isError: result.isError === true };
}

describe('MCP over streamable HTTP, used by the SDK\'s own client', () => {
  it('lists the tools and runs a conversation through them: record, context, search, facts and their correction', async () => {
    const client = await connect((await memory.keys.create({ tenant: 'acme' })).key);
    const tools = (await client.listTools()).tools.map((tool) => tool.name).sort();
    expect(tools).toEqual([
      'change_memory',
      'correct_fact',
      'create_session',
      'get_context',
      'list_facts',
      'list_memories',
      'list_sessions',
      'read_memory',
      'recall_memories',
      'record_turn',
      'remember',
      'search_session',
      'tend_memories',
    ]);

    const session = JSON.parse((await call(client, 'create_session', { title: 'Boiler' })).text) as { id: string };
    const recorded = await call(client, 'record_turn', { sessionId: session.id, user: 'The boiler service is booked for 12 March with Hughes Heating; the callout fee is £85.', assistant: 'Noted.' });
    expect(recorded.isError).toBe(false);
    expect(JSON.parse(recorded.text)).toMatchObject({ turn: 1, status: 'summarised' });

    const withTools = await call(client, 'record_turn', {
      sessionId: session.id,
      user: 'Is Hughes Heating open on Saturdays?',
      tools: [{ calls: [{ id: 'call_7', name: 'opening_hours', arguments: '{"firm":"Hughes Heating"}', result: '{"saturday":"9-13"}' }] }],
      assistant: 'Yes, from 9 to 1 on Saturdays.',
    });
    expect(JSON.parse(withTools.text)).toMatchObject({ turn: 2, status: 'summarised' });

    const context = await call(client, 'get_context', { sessionId: session.id, budget: 800, query: 'boiler fee' });
    expect(context.text).toContain('£85');
    // The tool exchange is part of the window: the call, then its result naming the call.
    expect(context.text).toContain('[assistant]\ncalled opening_hours({"firm":"Hughes Heating"})\n\n[tool answering call_7]\n{"saturday":"9-13"}');
    const found = JSON.parse((await call(client, 'search_session', { sessionId: session.id, query: 'boiler service' })).text) as Array<{ turn: number; role: string }>;
    expect(found[0]).toMatchObject({ turn: 1, role: 'user' });

    const added = await call(client, 'correct_fact', { sessionId: session.id, action: 'add', text: 'engineer: arrives between 8 and 10', kind: 'fact', reason: 'the firm texted' });
    expect(added.isError).toBe(false);
    const factId = (JSON.parse(added.text) as { factId: string }).factId;
    const facts = JSON.parse((await call(client, 'list_facts', { sessionId: session.id })).text) as Array<{ id: string; text: string; turn: number }>;
    expect(facts.map((fact) => fact.text)).toContain('engineer: arrives between 8 and 10');
    await call(client, 'correct_fact', { sessionId: session.id, action: 'remove', fact: factId, reason: 'they cancelled' });
    const after = JSON.parse((await call(client, 'list_facts', { sessionId: session.id })).text) as Array<{ text: string }>;
    expect(after.map((fact) => fact.text)).not.toContain('engineer: arrives between 8 and 10');
    const listed = JSON.parse((await call(client, 'list_sessions', {})).text) as Array<{ id: string }>;
    expect(listed.map((item) => item.id)).toEqual([session.id]);
  });

  it("answers an unknown or another tenant's session, and a bad correction, with a tool error that says why", async () => {
    const acme = await connect((await memory.keys.create({ tenant: 'acme' })).key);
    const theirs = JSON.parse((await call(acme, 'create_session', { title: 'Private' })).text) as { id: string };
    const beta = await connect((await memory.keys.create({ tenant: 'beta' })).key);
    for (const sessionId of [theirs.id, 'no-such-session']) {
      const refused = await call(beta, 'get_context', { sessionId, budget: 500 });
      expect(refused.isError).toBe(true);
      expect(refused.text).toMatch(/^SESSION_NOT_FOUND: No session ".*" in tenant "beta"/u);
    }
    const noReason = await call(acme, 'correct_fact', { sessionId: theirs.id, action: 'edit', fact: 'nope', text: 'x: y', reason: 'because' });
    expect(noReason.isError).toBe(true);
    expect(noReason.text).toMatch(/^INVALID_INPUT/u);
    const badBudget = await call(acme, 'get_context', { sessionId: theirs.id, budget: -3 });
    expect(badBudget.isError).toBe(true);
    expect(JSON.parse((await call(beta, 'list_sessions', {})).text)).toEqual([]);
  });

  it('remembers, recalls, reads, changes and tends long-term memory, each tenant its own', async () => {
    const acme = await connect((await memory.keys.create({ tenant: 'acme' })).key);
    const made = JSON.parse((await call(acme, 'remember', { value: 'The staging server runs in eu-west with 4 cores.', tags: ['infra'] })).text) as { key: string };
    await call(acme, 'remember', { value: 'The staging server runs in eu-west with 8 cores.', tags: ['infra'] });
    expect(made.key).toBe('M1');
    const recalled = JSON.parse((await call(acme, 'recall_memories', { query: 'How many cores does staging have?' })).text) as { nothingRelevant: boolean; memories: Array<{ key: string; reason: string }> };
    expect(recalled.nothingRelevant).toBe(false);
    expect(recalled.memories.map((entry) => entry.key).sort()).toEqual(['M1', 'M2']);
    const run = JSON.parse((await call(acme, 'tend_memories', { action: 'run', agents: ['linker'] })).text) as { actions: Array<{ edgeType: string; reason: string }> };
    expect(run.actions.map((action) => action.edgeType)).toEqual(['contradicts']);
    const changed = JSON.parse((await call(acme, 'change_memory', { ref: 'M1', action: 'deprecate', reason: 'upgraded to 8 cores' })).text) as { deprecated: boolean; version: number };
    expect(changed).toMatchObject({ deprecated: true, version: 2 });
    const read = JSON.parse((await call(acme, 'read_memory', { ref: 'M1' })).text) as { tags: string[]; edges: unknown[]; versions: Array<{ reason: string }> };
    expect(read.tags).toEqual(['infra']);
    expect(read.edges).toHaveLength(1);
    expect(read.versions.map((version) => version.reason)).toEqual(['remembered', 'upgraded to 8 cores']);
    expect(JSON.parse((await call(acme, 'list_memories', {})).text)).toHaveLength(1);

    const beta = await connect((await memory.keys.create({ tenant: 'beta' })).key);
    const refused = await call(beta, 'read_memory', { ref: 'M1' });
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(/^MEMORY_NOT_FOUND/u);
    expect(JSON.parse((await call(beta, 'recall_memories', { query: 'staging cores' })).text)).toEqual({ nothingRelevant: true, memories: [] });
    const noRun = await call(beta, 'tend_memories', { action: 'approve', runId: 'nope', index: 0 });
    expect([noRun.isError, noRun.text.startsWith('NOT_FOUND')]).toEqual([true, true]);
  });

  it('refuses a client without a valid key', async () => {
    await expect(connect(undefined)).rejects.toThrow(/401|Unauthorized|API key/iu);
    await expect(connect('strata_wrong')).rejects.toThrow(/401|Unauthorized|API key/iu);
  });
});
