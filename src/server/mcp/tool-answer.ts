/** How an MCP tool answers: its value as JSON text, and Strata's refusals as tool errors the model can read. */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { isStrataError } from '../../core/errors.js';

/** A tool's answer: its value as JSON text. */
export function answer(value: unknown): CallToolResult {
  return { content: [{ type: 'text', text: typeof value === 'string' ? value : JSON.stringify(value, null, 2) }] };
}

/** Run a tool's work; Strata's refusals become tool errors the model can read, anything else is thrown. */
export async function run(work: () => Promise<unknown>): Promise<CallToolResult> {
  try {
    return answer(await work());
  } catch (error) {
    if (!isStrataError(error)) throw error;
    return { isError: true, content: [{ type: 'text', text: `${error.code}: ${error.message}` }] };
  }
}
