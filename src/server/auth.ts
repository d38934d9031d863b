/**
 * Every `/api` request names its tenant by its API key (`Authorization: Bearer <key>`); with auth off
 * (`--no-auth`, loopback only) it acts for the memory's default tenant.
 */
import type { MiddlewareHandler } from 'hono';
import { StrataError } from '../core/errors.js';
import type { Memory } from '../memory/memory-api.js';
import type { ServerEnv } from './server-env.js';

export type AuthMode = 'keys' | 'none';

const CREATE_HINT = 'create one with `strata keys create --tenant <id>`';

export function authenticate(memory: Memory, mode: AuthMode): MiddlewareHandler<ServerEnv> {
  return async (c, next) => {
    if (mode === 'none') {
      c.set('tenant', memory);
      return next();
    }
    const header = c.req.header('authorization');
    const key = header === undefined ? undefined : /^Bearer +(\S+) *$/iu.exec(header)?.[1];
    if (key === undefined) {
      throw new StrataError('UNAUTHORIZED', `Send an API key as the header "Authorization: Bearer <key>"; ${CREATE_HINT}.`);
    }
    const tenant = await memory.keys.verify(key);
    if (tenant === null) throw new StrataError('UNAUTHORIZED', `The API key is unknown or revoked; ${CREATE_HINT}.`);
    c.set('tenant', memory.tenant(tenant));
    return next();
  };
}
