/**
 * The detail protocol through the proxy, for a session whose package stands in for the history: each
 * round's messages (the client's system messages, the package, the protocol's message while rounds are
 * left, the exchange in progress, and with tools the detail calls answered so far), and what a reply
 * asked for. Requests are applied through the session (a tier raised, a search noted), the package is
 * built again and the upstream asked again, up to the memory's `detailRounds` more times. Only the
 * upstream's reply is read for requests: a marker in the client's messages is their text.
 */
import type { DetailRequest } from '../../core/detail-markers.js';
import { toOpenAiMessages } from '../../core/openai-messages.js';
import type { ChatMessage, DetailRequestRecord, ToolCall } from '../../core/types.js';
import type { Memory, SessionHandle } from '../../memory/memory-api.js';
import { detailProtocolMessage } from '../../memory/detail-protocol.js';
import { settleDetailReply, type DetailReply } from '../../memory/detail-reply.js';
import { DETAIL_TOOLS, detailFormFor, overLimit } from '../../memory/detail-tools.js';
import { MOST_DETAIL_RECORDS } from '../../memory/detail-request-input.js';
import { isStrataError } from '../../core/errors.js';
import type { ChatBody, SplitMessages } from './chat-request.js';

/** What one reply of the upstream said, read by the form in use: its tool calls and markers, and its text as the user may see it. */
export interface RoundReply extends DetailReply {
  text: string;
}

export interface DetailExchangeOptions {
  session: SessionHandle;
  tokenizer: Memory['tokenizer'];
  setting: 'auto' | 'markers' | 'tools';
  rounds: number;
  budget: number;
  split: SplitMessages;
  body: ChatBody;
}

/** Names of the tools a client's request offers (OpenAI format: `{ type: 'function', function: { name } }`). */
function clientToolNames(body: ChatBody): string[] {
  const tools: unknown = body.tools;
  if (!Array.isArray(tools)) return [];
  return tools.map((tool: unknown) => {
    const name = (tool as { function?: { name?: unknown } } | null)?.function?.name;
    return typeof name === 'string' ? name : '';
  });
}

const OPENAI_DETAIL_TOOLS = DETAIL_TOOLS.map((tool) => ({ type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.parameters } }));

/** One proxied turn's rounds of the detail protocol. */
export class DetailExchange {
  readonly form: 'markers' | 'tools';
  /** The model's reply being read: 1, then 2 after the first requests … */
  round = 1;
  /** What the model asked for, round by round, and what each did. */
  private readonly made: DetailRequestRecord[] = [];
  private readonly searches: string[] = [];
  /** With tools: the detail calls answered so far and their results, after the exchange. */
  private followUps: ChatMessage[] = [];

  constructor(private readonly options: DetailExchangeOptions) {
    this.form = detailFormFor(options.setting, { tools: clientToolNames(options.body).map((name) => ({ name })) });
  }

  /** What the model asked for and what each did, to keep with the turn (the first ones, as many as a turn keeps). */
  get records(): DetailRequestRecord[] {
    return this.made.slice(0, MOST_DETAIL_RECORDS);
  }

  /** Whether this round may still ask (the protocol's message is sent, the detail tools offered). */
  get asking(): boolean {
    return this.round <= this.options.rounds;
  }

  /** The request body of this round: the package in place of the history, and the detail tools while asking in that form. */
  async body(): Promise<ChatBody> {
    const { session, tokenizer, budget, split, body } = this.options;
    const protocol = this.asking ? [detailProtocolMessage({ roundsLeft: this.options.rounds - this.round + 1, form: this.form })] : [];
    const extra = [...protocol, ...this.followUps];
    // The protocol's messages are sent beside the package: the package gives them room in the budget.
    const room = extra.length === 0 ? 0 : tokenizer.countMessages(extra);
    const query = [split.userText, ...this.searches].join('\n').trim();
    const pkg = await session.context({ budget: Math.max(1, budget - room), ...(query === '' ? {} : { query }) });
    const messages = [...split.system, ...toOpenAiMessages(pkg.render()), ...toOpenAiMessages(protocol), ...split.current, ...toOpenAiMessages(this.followUps)];
    const tools = this.form === 'tools' && this.asking ? { tools: [...(Array.isArray(body.tools) ? (body.tools as unknown[]) : []), ...OPENAI_DETAIL_TOOLS] } : {};
    return { ...body, messages, ...tools };
  }

  /**
   * Take a reply's requests: apply them and say whether to ask again (true), or record them (as over
   * the limit when no round was left) and say the reply stands (false). Returns the client's own tool
   * calls of a reply that stands (the detail tools' calls never reach the client).
   */
  async settle(reply: RoundReply): Promise<{ again: boolean; callerCalls: ToolCall[] }> {
    const { session } = this.options;
    const round = this.round;
    const apply = async (request: DetailRequest, at: number): Promise<DetailRequestRecord> => {
      try {
        return await session.requestDetail(request, { round: at });
      } catch (error) {
        // The model's output, not the client's input: a request the engine refuses is recorded, not passed on as an error.
        if (!isStrataError(error, 'INVALID_INPUT')) throw error;
        return { ...overLimit(request, at), outcome: 'ignored' };
      }
    };
    const settled = await settleDetailReply(reply, { form: this.form, round, asking: this.asking, apply });
    this.made.push(...settled.records);
    if (!settled.again) return { again: false, callerCalls: settled.callerCalls };
    this.searches.push(...settled.searches);
    this.followUps = [...this.followUps, ...settled.followUps];
    this.round += 1;
    return { again: true, callerCalls: [] };
  }
}
