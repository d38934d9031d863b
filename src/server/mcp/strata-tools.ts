/**
 * Strata as MCP tools, for one tenant: list and create sessions, record a turn, get a context package,
 * search a session, read its facts and correct them; and its long-term memory (`memory-tools.ts`). Inputs are validated by their schemas; a refusal
 * (an unknown session, a bad budget …) is a tool error whose text says what is wrong and how to fix it.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { messageText, roleLabel } from '../../core/tool-calls.js';
import { FACT_KINDS } from '../../core/types.js';
import type { TenantMemory } from '../../memory/memory-api.js';
import { MAX_SESSION_ID_LENGTH } from '../../memory/session-input.js';
import { registerMemoryTools } from './memory-tools.js';
import { run } from './tool-answer.js';

const KIND = z.enum(FACT_KINDS);
const SESSION = z.string().min(1).max(MAX_SESSION_ID_LENGTH).describe('The session id (from list_sessions or create_session).');
const TOOL_STEP = z
  .object({
    text: z.string().optional().describe('What the assistant said along with its calls.'),
    calls: z.array(z.object({ id: z.string().min(1), name: z.string().min(1), arguments: z.string().describe('JSON text'), result: z.string() })).min(1),
  })
  .describe("One step of the assistant's tool use: its calls, each with the tool's result.");

export function strataMcpServer(tenant: TenantMemory, version: string): McpServer {
  const server = new McpServer({ name: 'strata', version });
  const open = (sessionId: string) => tenant.sessions.open(sessionId);

  server.registerTool(
    'list_sessions',
    { description: 'List conversations, most recently updated first.', inputSchema: { limit: z.number().int().min(1).max(200).optional(), offset: z.number().int().min(0).optional() } },
    async ({ limit, offset }) => run(() => tenant.sessions.list({ ...(limit === undefined ? {} : { limit }), ...(offset === undefined ? {} : { offset }) })),
  );
  server.registerTool(
    'create_session',
    { description: 'Start a new conversation; returns its id.', inputSchema: { title: z.string().max(300).optional() } },
    async ({ title }) => run(async () => (await tenant.sessions.create(title === undefined ? {} : { title })).info()),
  );
  server.registerTool(
    'record_turn',
    {
      description:
        'Store one exchange of a conversation (the user message, the assistant reply, or both, and any tools the assistant called between them, each call with its result); its facts are remembered.',
      inputSchema: { sessionId: SESSION, user: z.string().optional(), tools: z.array(TOOL_STEP).optional(), assistant: z.string().optional() },
    },
    async ({ sessionId, user, tools, assistant }) =>
      run(async () => {
        const turn = { ...(user === undefined ? {} : { user }), ...(tools === undefined ? {} : { tools }), ...(assistant === undefined ? {} : { assistant }) };
        const result = await (await open(sessionId)).record(turn);
        return { turn: result.turn, status: result.status, factEvents: result.factEvents.map((event) => ({ op: event.op, text: event.newText ?? event.oldText, reason: event.reason })) };
      }),
  );
  server.registerTool(
    'get_context',
    {
      description: 'What the conversation has established and its relevant messages, as text within a token budget.',
      inputSchema: { sessionId: SESSION, budget: z.number().int().min(1).max(1_000_000), query: z.string().max(10_000).optional().describe('What the next message is about.') },
    },
    async ({ sessionId, budget, query }) =>
      run(async () => {
        const pkg = await (await open(sessionId)).context({ budget, ...(query === undefined ? {} : { query }) });
        return pkg
          .render()
          .map((message) => `[${roleLabel(message)}]\n${messageText(message)}`)
          .join('\n\n');
      }),
  );
  server.registerTool(
    'search_session',
    { description: 'Find the messages of a conversation that best match a query, best first.', inputSchema: { sessionId: SESSION, query: z.string().min(1).max(10_000), limit: z.number().int().min(1).max(100).optional() } },
    async ({ sessionId, query, limit }) => run(async () => (await open(sessionId)).search({ query, ...(limit === undefined ? {} : { limit }) })),
  );
  server.registerTool(
    'list_facts',
    { description: 'The facts a conversation has established, now or as they stood at the end of a turn, each with its turn.', inputSchema: { sessionId: SESSION, atTurn: z.number().int().min(0).optional() } },
    async ({ sessionId, atTurn }) =>
      run(async () => (await (await open(sessionId)).facts(atTurn === undefined ? {} : { atTurn })).map((fact) => ({ id: fact.id, text: fact.text, kind: fact.kind, pinned: fact.pinned, turn: fact.updatedTurn }))),
  );
  server.registerTool(
    'correct_fact',
    {
      description: 'Correct the remembered facts: add a line ("key: value"), edit or remove one by id. A reason is required and recorded.',
      inputSchema: { sessionId: SESSION, action: z.enum(['add', 'edit', 'remove']), fact: z.string().optional().describe('The fact id, for edit and remove.'), text: z.string().optional(), kind: KIND.optional(), reason: z.string().min(1) },
    },
    async ({ sessionId, action, fact, text, kind, reason }) =>
      run(async () => {
        const facts = (await open(sessionId)).facts;
        if (action === 'add') return facts.add({ text: text ?? '', reason, ...(kind === undefined ? {} : { kind }) });
        if (action === 'edit') return facts.edit({ fact: fact ?? '', reason, ...(text === undefined ? {} : { text }), ...(kind === undefined ? {} : { kind }) });
        return facts.remove({ fact: fact ?? '', reason });
      }),
  );
  registerMemoryTools(server, tenant);
  return server;
}
