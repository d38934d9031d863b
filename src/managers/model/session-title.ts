/** The memory model's title for a conversation, checked: a short single line, else the call failed. */
import { z } from 'zod';
import type { TitleOptions } from '../memory-manager.js';
import { outputSchema } from './json-schema.js';
import { parseJsonReply } from './json-reply.js';
import type { ModelManagerStats } from './model-stats.js';
import { sessionTitlePrompt } from './prompts/session-title-prompt.js';
import { requestWithSettings } from './request-json.js';
import type { ResolvedModelSettings } from './settings.js';

const titleSchema = z.object({
  title: z
    .string()
    .transform((title) => title.trim().replace(/^["'“”]+|["'“”.]+$/gu, '').trim())
    .pipe(z.string().min(1, { error: 'the title is empty' }).max(80, { error: 'the title is longer than 80 characters' }).regex(/^[^\r\n]+$/u, { error: 'the title spans lines' })),
});

const TITLE_SCHEMA = outputSchema('session_title', titleSchema);

/** The title the model gives the exchange; throws the call's failure (a model error, or a reply that was not a title twice). */
export async function titleSession(options: TitleOptions, settings: ResolvedModelSettings, stats: ModelManagerStats): Promise<string> {
  const answer = await requestWithSettings(settings, stats, {
    messages: sessionTitlePrompt({ user: options.user, assistant: options.assistant }),
    schema: TITLE_SCHEMA,
    check: (text) => parseJsonReply(text, titleSchema),
    purpose: `the title of session ${options.sessionId}`,
  });
  if (!answer.ok) throw answer.error;
  return answer.value.title;
}
