/** A request that fails its route's schema gets 400 INVALID_INPUT naming the fields that are wrong. */
import type { OpenAPIHonoOptions } from '@hono/zod-openapi';
import type { ServerEnv } from './server-env.js';
import { errorAnswer } from './error-response.js';

/** Where a value came from, as a client reads it. */
const PLACE: Readonly<Record<string, string>> = { json: 'body', query: 'query', param: 'path', header: 'header', form: 'form', cookie: 'cookie' };

export const validationHook: NonNullable<OpenAPIHonoOptions<ServerEnv>['defaultHook']> = (result, c) => {
  if (result.success) return undefined;
  const place = PLACE[result.target] ?? result.target;
  const problems = result.error.issues.slice(0, 5).map((issue) => {
    const field = issue.path.length === 0 ? place : `${place}.${issue.path.map(String).join('.')}`;
    return `${field}: ${issue.message}`;
  });
  const more = result.error.issues.length > problems.length ? ` (and ${result.error.issues.length - problems.length} more)` : '';
  const { status, body } = errorAnswer('INVALID_INPUT', `Invalid request: ${problems.join('; ')}${more}.`);
  return c.json(body, status);
};
