import type Koa from 'koa';
import Router from '@koa/router';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { buildMcpServer } from '../../mcp/server.js';
import type { McpDeps } from '../../mcp/tools.js';
import { readCapped } from '../json-body.js';
import { Refusal } from '../../../packages/buyer/src/wire/refusal.js';

// POST /mcp: Streamable HTTP, stateless (new server + transport per request, JSON responses, no
// session id). GET (SSE stream) and DELETE (session end) have no meaning without sessions: 405.
// The deps are made per request, so a tool can act for this request's client (its rate limit).

/** The SDK's own cap on a message body (DEFAULT_MAX_REQUEST_BODY_SIZE). */
const MCP_BODY_LIMIT = 4 * 1024 * 1024;

const jsonRpcError = (code: number, message: string) => ({ jsonrpc: '2.0', error: { code, message }, id: null });

function parsed(raw: Buffer): unknown {
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    // Not JSON: null fails the SDK's message schema, so it answers as before (406/415 first, then -32700).
    return null;
  }
}

export function mcpRouter(depsFor: (ctx: Koa.Context) => McpDeps, version = '0.1.0'): Router {
  const router = new Router();
  router.post('/mcp', async (ctx) => {
    // The body is read here, not by the transport: an empty batch holds no request, and the SDK would
    // answer it 202 with no body, where JSON-RPC 2.0 answers `[]` with one Invalid Request error.
    let raw: Buffer;
    try {
      raw = await readCapped(ctx.req, MCP_BODY_LIMIT);
    } catch (err) {
      if (!(err instanceof Refusal)) throw err;
      // Too large (the client may still be sending: close), or a stream that broke while read.
      ctx.status = err.code === 'BODY_TOO_LARGE' ? 413 : 400;
      ctx.set('Connection', 'close');
      ctx.body = jsonRpcError(-32000, err.message);
      return;
    }
    const message = parsed(raw);
    if (Array.isArray(message) && message.length === 0) {
      ctx.status = 400;
      ctx.body = jsonRpcError(-32600, 'Invalid Request: an empty batch');
      return;
    }
    const server = buildMcpServer(depsFor(ctx), version);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    ctx.respond = false; // the SDK writes the raw response; Koa must not
    ctx.status = 200; // provisional, so the app's 404 fallback never fires; the SDK sets the real status
    ctx.res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(ctx.req, ctx.res, message);
  });
  const notAllowed = (ctx: Koa.Context) => {
    ctx.status = 405;
    ctx.set('Allow', 'POST');
    ctx.body = jsonRpcError(-32000, 'Method not allowed: this MCP endpoint is stateless; POST JSON-RPC messages.');
  };
  router.get('/mcp', notAllowed);
  router.delete('/mcp', notAllowed);
  return router;
}
