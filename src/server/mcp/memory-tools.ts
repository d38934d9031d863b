/**
 * Long-term memory as MCP tools: recall what bears on a query, remember something, read a memory with its
 * tags, edges and versions, change one (value, deprecation, undo, tags, edges), list memories, and tend
 * them (run the maintenance agents, list runs, settle a proposal). Every change is attributed to the user
 * with the reason given.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { EDGE_TYPES, type LongTermMemory } from '../../core/long-term-memory.js';
import { AGENT_NAMES } from '../../core/maintenance-run.js';
import type { TenantMemory } from '../../memory/memory-api.js';
import { run } from './tool-answer.js';

const REF = z.string().min(1).max(256).describe('The memory: its key (M1F), name (mom-birthday) or id.');
const REASON = z.string().max(500).optional().describe('Why (recorded with the change).');

/** A memory as a tool shows it: what a model needs to use and cite it. */
const brief = (memory: LongTermMemory): Record<string, unknown> => ({ key: memory.key, name: memory.name, value: memory.value, version: memory.version, deprecated: memory.deprecated, modifiedAt: memory.modifiedAt });

const CHANGES = ['change', 'deprecate', 'restore', 'undo', 'tag', 'untag', 'link', 'unlink'] as const;

/** One change to a memory, as `change_memory` names it. */
async function changeMemory(tenant: TenantMemory, input: { ref: string; action: (typeof CHANGES)[number]; value?: string; tags?: string[]; to?: string; type?: (typeof EDGE_TYPES)[number]; reason?: string }): Promise<unknown> {
  const api = tenant.memories;
  const why = input.reason === undefined ? {} : { reason: input.reason };
  switch (input.action) {
    case 'change':
      return brief(await api.change(input.ref, { value: input.value ?? '', ...why }));
    case 'deprecate':
    case 'restore':
      return brief(await api.deprecate(input.ref, { deprecated: input.action === 'deprecate', ...why }));
    case 'undo':
      return brief(await api.undo(input.ref, why));
    case 'tag':
      return { tags: await api.tag(input.ref, input.tags ?? []) };
    case 'untag':
      return { tags: await api.untag(input.ref, input.tags ?? []) };
    case 'link':
      return api.link(input.ref, input.to ?? '', input.type ?? 'relates-to', why);
    case 'unlink':
      return { removed: await api.unlink(input.ref, input.to ?? '', input.type ?? 'relates-to') };
  }
}

export function registerMemoryTools(server: McpServer, tenant: TenantMemory): void {
  const api = tenant.memories;
  server.registerTool(
    'recall_memories',
    {
      description: 'What long-term memory (across every conversation) holds that bears on a query, best first, each with why it is relevant; says when nothing is.',
      inputSchema: { query: z.string().max(10_000), limit: z.number().int().min(1).max(100).optional(), tags: z.array(z.string()).optional().describe('Only memories carrying all of these.') },
    },
    async ({ query, limit, tags }) =>
      run(async () => {
        const found = await api.recall({ query, ...(limit === undefined ? {} : { limit }), ...(tags === undefined ? {} : { tags }) });
        return { nothingRelevant: found.nothingRelevant, memories: found.memories.map((entry) => ({ ...brief(entry.memory), reason: entry.reason })) };
      }),
  );
  server.registerTool(
    'remember',
    { description: 'Keep something in long-term memory, for every later conversation.', inputSchema: { value: z.string().max(500), name: z.string().max(100).optional(), tags: z.array(z.string()).optional(), reason: REASON } },
    async ({ value, name, tags, reason }) =>
      run(async () => brief(await api.add({ value, ...(name === undefined ? {} : { name }), ...(tags === undefined ? {} : { tags }), ...(reason === undefined ? {} : { reason }) }))),
  );
  server.registerTool(
    'read_memory',
    { description: 'One memory in full: its value, tags, edges to other memories, and every version with who made it and why.', inputSchema: { ref: REF } },
    async ({ ref }) =>
      run(async () => {
        const memory = await api.get(ref);
        const [tags, edges, versions] = await Promise.all([api.tagsOf(memory.id), api.edges(memory.id), api.history(memory.id)]);
        return { memory, tags, edges, versions };
      }),
  );
  server.registerTool(
    'change_memory',
    {
      description: 'Change a memory: a new value, deprecate or restore it, undo its last change, put tags on or off, link it to another memory or unlink them.',
      inputSchema: {
        ref: REF,
        action: z.enum(CHANGES),
        value: z.string().max(500).optional().describe('For change.'),
        tags: z.array(z.string()).optional().describe('For tag and untag.'),
        to: z.string().max(256).optional().describe('The other memory, for link and unlink.'),
        type: z.enum(EDGE_TYPES).optional().describe('The edge type, for link and unlink (default relates-to).'),
        reason: REASON,
      },
    },
    async (input) => run(() => changeMemory(tenant, input)),
  );
  server.registerTool(
    'list_memories',
    { description: 'Long-term memories, the most recently changed first.', inputSchema: { tags: z.array(z.string()).optional(), limit: z.number().int().min(1).max(200).optional(), offset: z.number().int().min(0).optional() } },
    async ({ tags, limit, offset }) =>
      run(async () => (await api.list({ ...(tags === undefined ? {} : { tags }), ...(limit === undefined ? {} : { limit }), ...(offset === undefined ? {} : { offset }) })).map(brief)),
  );
  server.registerTool(
    'tend_memories',
    {
      description:
        'Maintenance: run the agents (archiver, corrector, condenser, linker, tagger, reviewer) once, list recent runs, or approve or reject an action a run proposed. Every change is recorded with its agent and reason.',
      inputSchema: {
        action: z.enum(['run', 'list', 'approve', 'reject']),
        agents: z.array(z.enum(AGENT_NAMES)).optional().describe('For run (default all).'),
        maxChanges: z.number().int().min(0).max(100_000).optional().describe('For run (default 200).'),
        runId: z.string().max(256).optional().describe('For approve and reject.'),
        index: z.number().int().min(0).optional().describe('The action, for approve and reject.'),
      },
    },
    async ({ action, agents, maxChanges, runId, index }) =>
      run(async () => {
        if (action === 'list') return api.runs({ limit: 10 });
        if (action === 'run') return api.tend({ ...(agents === undefined ? {} : { agents }), ...(maxChanges === undefined ? {} : { maxChanges }) });
        return action === 'approve' ? api.approve(runId ?? '', index ?? -1) : api.reject(runId ?? '', index ?? -1);
      }),
  );
}
