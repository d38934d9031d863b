/**
 * `/mcp`: Strata's MCP tools over streamable HTTP, stateless (a server and a transport per request, as
 * the SDK advises when no session state is kept), for the tenant of the request's API key.
 */
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { ServerEnv } from '../server-env.js';
import { strataMcpServer } from './strata-tools.js';

export function registerMcpRoute(app: OpenAPIHono<ServerEnv>, version: string): void {
  app.all('/mcp', async (c) => {
    const server = strataMcpServer(c.var.tenant, version);
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    try {
      return await transport.handleRequest(c.req.raw);
    } finally {
      await server.close();
    }
  });
}
