/** A request that fails its route's schema gets 400 INVALID_INPUT naming the fields that are wrong. */
import type { OpenAPIHonoOptions } from '@hono/zod-openapi';
import type { ServerEnv } from './server-env.js';
import { errorAnswer } from './error-response.js';

/** Where a value came from, as a client reads it. */
const PLACE: Readonly<Record<string, string>> = { json: 'body', query: 'query', param: 'path', header: 'header', form: 'form', cookie: 'cookie' };

/** What is wrong with a request, field by field (at most five), as one sentence. */
export function describeIssues(issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>, place: string): string {
  const problems = issues.slice(0, 5).map((issue) => {
    const field = issue.path.length === 0 ? place : `${place}.${issue.path.map(String).join('.')}`;
    return `${field}: ${issue.message}`;
  });
  const more = issues.length > problems.length ? ` (and ${issues.length - problems.length} more)` : '';
  return `Invalid request: ${problems.join('; ')}${more}.`;
}

export const validationHook: NonNullable<OpenAPIHonoOptions<ServerEnv>['defaultHook']> = (result, c) => {
  if (result.success) return undefined;
  const { status, body } = errorAnswer('INVALID_INPUT', describeIssues(result.error.issues, PLACE[result.target] ?? result.target));
  return c.json(body, status);
};
