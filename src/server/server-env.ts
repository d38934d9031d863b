/** What a request carries through the server's middleware to its route: the tenant its key serves. */
import type { TenantMemory } from '../memory/memory-api.js';

export interface ServerEnv {
  Variables: {
    /** The tenant the request acts for (its API key's, or the default one without auth). */
    tenant: TenantMemory;
    /** The id of the request, in its log line and its `x-request-id` header. */
    requestId: string;
  };
}
