import type Koa from 'koa';
import Router from '@koa/router';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { buildMcpServer } from '../../mcp/server.js';
import type { McpDeps } from '../../mcp/tools.js';

// POST /mcp: Streamable HTTP, stateless (new server + transport per request, JSON responses, no
// session id). GET (SSE stream) and DELETE (session end) have no meaning without sessions: 405.
export function mcpRouter(deps: McpDeps, version = '0.1.0'): Router {
  const router = new Router();
  router.post('/mcp', async (ctx) => {
    const server = buildMcpServer(deps, version);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    ctx.respond = false; // the SDK writes the raw response; Koa must not
    ctx.status = 200; // provisional, so the app's 404 fallback never fires; the SDK sets the real status
    ctx.res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(ctx.req, ctx.res); // no body parser: the transport reads the body itself
  });
  const notAllowed = (ctx: Koa.Context) => {
    ctx.status = 405;
    ctx.set('Allow', 'POST');
    ctx.body = {
      jsonrpc: '2.0',
      error: { code: -32000, message: 'Method not allowed: this MCP endpoint is stateless; POST JSON-RPC messages.' },
      id: null,
    };
  };
  router.get('/mcp', notAllowed);
  router.delete('/mcp', notAllowed);
  return router;
}
