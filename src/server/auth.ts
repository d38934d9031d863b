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

/** Names a browser uses for this machine's loopback interface, with any port. */
const LOOPBACK_HOST = /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])(?::\d{1,5})?$/iu;

export function authenticate(memory: Memory, mode: AuthMode): MiddlewareHandler<ServerEnv> {
  return async (c, next) => {
    if (mode === 'none') {
      // Without keys, a page on another site could reach this server through a DNS name pointed at
      // 127.0.0.1 (DNS rebinding); its requests carry that name as their Host, so only loopback names pass.
      const host = c.req.header('host') ?? '';
      if (!LOOPBACK_HOST.test(host)) {
        throw new StrataError('UNAUTHORIZED', `Without API keys (--no-auth) this server answers requests to a loopback address only (localhost, 127.0.0.1, [::1]), not to "${host}"; use one of those, or serve with keys.`);
      }
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
