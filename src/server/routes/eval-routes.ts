/**
 * `/api/eval`: the key-fact retention eval over the API. Lists the conversations shipped with the
 * package and runs one (or a conversation the request carries) as `strata eval retention` does: replayed
 * into a temporary store of its own, so the tenant's sessions are never touched.
 */
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { StrataError } from '../../core/errors.js';
import { parseKeyFactConversation, type LoadedConversation } from '../../eval/key-fact-conversation.js';
import { packageInfo } from '../../eval/package-root.js';
import { runRetention } from '../../eval/run-retention.js';
import { listShippedExamples, loadShippedExample } from '../../eval/shipped-examples.js';
import { ErrorSchema } from '../domain-schemas.js';
import { RetentionRunSchema, ShippedExampleSchema } from '../eval-schemas.js';
import { ERROR_ANSWERS, jsonAnswer, jsonBody } from '../request-schemas.js';
import type { ServerEnv } from '../server-env.js';

const TAG = ['Evaluation'];

/** How an inline conversation is named in messages and in the run. */
const INLINE_SOURCE = 'body.conversation';

/** Most messages an uploaded conversation may have: a replay is CPU work, and the server serves others meanwhile. */
export const MAX_EVAL_MESSAGES = 2000;

const examples = createRoute({
  method: 'get',
  path: '/api/eval/examples',
  tags: TAG,
  summary: 'The key-fact conversations shipped with the package, to run the retention eval on',
  responses: { 200: jsonAnswer(z.object({ examples: z.array(ShippedExampleSchema) }), 'Every shipped conversation.'), 401: ERROR_ANSWERS[401] },
});

const RetentionBodySchema = z
  .object({
    example: z.string().min(1).max(200).optional().openapi({ example: 'kitchen-renovation', description: 'The name of a shipped conversation (GET /api/eval/examples).' }),
    conversation: z.unknown().optional().openapi({
      description: 'A key-fact conversation: { id, description?, budget, messages: [{ role, content, timestamp? }], keyFacts: [{ id, tier, text, mustInclude }], staleFacts? }.',
    }),
    budget: z.number().int().min(1).optional().openapi({ description: "Replaces the conversation's own budget." }),
  })
  .refine((body) => (body.example === undefined) !== (body.conversation === undefined), {
    message: 'send either "example" (a name from GET /api/eval/examples) or "conversation" (a key-fact conversation), not both',
  });

const retention = createRoute({
  method: 'post',
  path: '/api/eval/retention',
  tags: TAG,
  summary: 'Replay one key-fact conversation into a temporary store and score how much of it the context package keeps',
  request: { body: jsonBody(RetentionBodySchema, 'A shipped example by name, or a conversation; optionally a budget.') },
  responses: {
    200: jsonAnswer(z.object({ run: RetentionRunSchema }), 'The figures `strata eval retention` prints: score, memory-only score, stale facts, token reduction, every fact.'),
    400: jsonAnswer(ErrorSchema, 'The body is malformed, or the conversation is not a valid key-fact conversation; the message names the field.'),
    401: ERROR_ANSWERS[401],
    404: jsonAnswer(ErrorSchema, 'No shipped example has that name; the message lists the known ones.'),
  },
});

export interface EvalRouteOptions {
  /** The package folder whose `examples/` hold the shipped conversations (default: the installed package, found on first use). */
  packageRoot: string | undefined;
}

/** Register `GET /api/eval/examples` and `POST /api/eval/retention` (behind the `/api` key check). */
export function registerEvalRoutes(app: OpenAPIHono<ServerEnv>, options: EvalRouteOptions): void {
  const packageRoot = (): string => options.packageRoot ?? packageInfo().root;
  app.openapi(examples, (c) => c.json({ examples: listShippedExamples(packageRoot()) }, 200));
  // One replay at a time in this server: more wait their turn rather than share the CPU with every request.
  let running: Promise<unknown> = Promise.resolve();
  app.openapi(retention, async (c) => {
    const { example, conversation, budget } = c.req.valid('json');
    const loaded: LoadedConversation =
      example === undefined ? { file: INLINE_SOURCE, conversation: parseKeyFactConversation(conversation, INLINE_SOURCE) } : loadShippedExample(packageRoot(), example);
    const messages = loaded.conversation.messages.length;
    if (messages > MAX_EVAL_MESSAGES) {
      throw new StrataError('INVALID_INPUT', `${loaded.file} has ${messages} messages; the eval over the API replays at most ${MAX_EVAL_MESSAGES}. Run \`strata eval retention <file>\` for a longer one.`);
    }
    const run = running.then(() => runRetention([loaded], budget === undefined ? {} : { budget }));
    running = run.catch(() => undefined);
    return c.json({ run: await run }, 200);
  });
}
