import { z } from 'zod';
import { StrataError } from '../../core/errors.js';
import type { Embedder, EmbedOptions, EmbedResult } from '../embedder/embedder.js';
import { startDeadline } from './deadline.js';
import { callContext, firstIssue, invalidOutput, toModelError, type CallContext } from './model-errors.js';
import { connectOpenAi, type OpenAiConnectionSettings } from './openai-connection.js';

export interface OpenAiEmbedderSettings extends OpenAiConnectionSettings {
  /**
   * Vector length to ask for and to expect (default: whatever the model returns, checked to be the
   * same for every text). Only models that support shortening (text-embedding-3-*) accept it.
   */
  dimensions?: number;
  /** Most texts per request; longer lists are split (default 128). */
  batchSize?: number;
}

const embeddingsShape = z.object({
  data: z.array(z.object({ index: z.number().int().min(0).optional(), embedding: z.array(z.number().finite()).min(1) })),
  usage: z.object({ prompt_tokens: z.number().int().min(0) }).nullish(),
});

function positiveInteger(value: number | undefined, option: string, fallback: number | undefined): number | undefined {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) {
    throw new StrataError('INVALID_CONFIG', `The embedder's ${option} must be a whole number of at least 1, not ${String(value)}.`, { details: { option } });
  }
  return value;
}

/** An embedder behind any OpenAI-compatible `/embeddings` endpoint. */
export function createOpenAiEmbedder(settings: OpenAiEmbedderSettings): Embedder {
  const connection = connectOpenAi(settings);
  const { client, model } = connection;
  const wanted = positiveInteger(settings.dimensions, 'dimensions', undefined);
  const batchSize = positiveInteger(settings.batchSize, 'batchSize', 128) ?? 128;

  async function embedBatch(texts: readonly string[], context: CallContext): Promise<{ vectors: number[][]; promptTokens: number }> {
    let response: unknown;
    try {
      response = await context.deadline.race(
        client.embeddings.create(
          {
            model,
            input: [...texts],
            // Floats, not the client's default base64: not every compatible server can encode base64.
            encoding_format: 'float',
            ...(wanted === undefined ? {} : { dimensions: wanted }),
          },
          { signal: context.deadline.signal, timeout: context.timeoutMs },
        ),
      );
    } catch (error) {
      throw toModelError(error, context);
    }
    const parsed = embeddingsShape.safeParse(response);
    if (!parsed.success) throw invalidOutput(context, firstIssue(parsed.error));
    const { data } = parsed.data;
    if (data.length !== texts.length) throw invalidOutput(context, `${data.length} vectors for ${texts.length} texts`);
    const ordered = data.every((item) => item.index !== undefined) ? [...data].sort((a, b) => (a.index ?? 0) - (b.index ?? 0)) : data;
    return { vectors: ordered.map((item) => item.embedding), promptTokens: parsed.data.usage?.prompt_tokens ?? 0 };
  }

  return {
    id: `openai:${model}${wanted === undefined ? '' : `:${wanted}`}`,
    async embed(options: EmbedOptions): Promise<EmbedResult> {
      const timeoutMs = connection.timeoutMs;
      const deadline = startDeadline(timeoutMs, options.signal);
      const context = callContext(connection, 'embedding', deadline, timeoutMs);
      try {
        if (deadline.signal.aborted) throw toModelError(deadline.signal.reason, context);
        const vectors: number[][] = [];
        let promptTokens = 0;
        for (let start = 0; start < options.texts.length; start += batchSize) {
          deadline.restart();
          const batch = await embedBatch(options.texts.slice(start, start + batchSize), context);
          vectors.push(...batch.vectors);
          promptTokens += batch.promptTokens;
        }
        const dimensions = vectors[0]?.length ?? wanted ?? 0;
        const odd = vectors.findIndex((vector) => vector.length !== dimensions);
        if (odd >= 0) throw invalidOutput(context, `vector ${odd} has ${vectors[odd]?.length ?? 0} dimensions, vector 0 has ${dimensions}`);
        if (wanted !== undefined && dimensions !== wanted) throw invalidOutput(context, `vectors have ${dimensions} dimensions, ${wanted} were asked for`);
        return { vectors, dimensions, usage: { promptTokens } };
      } finally {
        deadline.dispose();
      }
    },
  };
}
