import type Koa from 'koa';
import Router from '@koa/router';
import { answerMessages, rpcError } from '../../mcp/answer-messages.js';
import type { McpDeps } from '../../mcp/tools.js';
import { readCapped } from '../json-body.js';
import { Refusal } from '@rights-preflight/wire/refusal.js';
import { plainJsonProblem } from '@rights-preflight/wire/contract/plain-json.js';

// POST /mcp: Streamable HTTP, stateless (new server + transport per message, JSON responses, no
// session id). GET (SSE stream) and DELETE (session end) have no meaning without sessions: 405.
// The deps are made per request, so a tool can act for this request's client (its rate limit).
// The body is read here, not by the transport: a message has the size of every JSON body of the service
// (an MCP message is a tool call of a few hundred bytes), an empty or oversized batch holds no request the
// SDK would answer by the JSON-RPC rules, and the value must be plain JSON (docs/wire.md §6) before any
// of it reaches a tool; src/mcp/answer-messages.ts answers it.

export const MCP_BODY_LIMIT = 64 * 1024;

export interface McpRouteOptions {
  version?: string;
  /** Spends one request of the client's MCP rate limit (per message of a batch); throws RATE_LIMITED. */
  spend?: (req: Koa.Context['req']) => void;
}

function parsed(raw: Buffer): unknown {
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    // Not JSON: null fails the SDK's message schema, so it answers as before (406/415 first, then -32700).
    return null;
  }
}

/** The request headers the SDK's transport reads. */
function transportHeaders(ctx: Koa.Context): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of ['accept', 'content-type', 'mcp-protocol-version', 'mcp-session-id']) {
    const value = ctx.get(name);
    if (value) headers[name] = value;
  }
  return headers;
}

export function mcpRouter(depsFor: (ctx: Koa.Context) => McpDeps, options: McpRouteOptions = {}): Router {
  const router = new Router();
  router.post('/mcp', async (ctx) => {
    let raw: Buffer;
    try {
      raw = await readCapped(ctx.req, MCP_BODY_LIMIT);
    } catch (err) {
      if (!(err instanceof Refusal)) throw err;
      // Too large (the client may still be sending: close), or a stream that broke while read.
      ctx.status = err.code === 'BODY_TOO_LARGE' ? 413 : 400;
      ctx.set('Connection', 'close');
      ctx.body = rpcError(null, -32000, err.message);
      return;
    }
    const message = parsed(raw);
    const problem = plainJsonProblem(message);
    if (problem) {
      ctx.status = 400;
      ctx.body = rpcError(null, -32700, `Parse error: not plain JSON: ${problem}`, { code: 'MALFORMED_JSON', problem });
      return;
    }
    if (Array.isArray(message) && message.length === 0) {
      ctx.status = 400;
      ctx.body = rpcError(null, -32600, 'Invalid Request: an empty batch');
      return;
    }
    const answer = await answerMessages(message, {
      url: `${ctx.protocol}://${ctx.host || 'localhost'}${ctx.path}`,
      headers: transportHeaders(ctx),
      deps: depsFor(ctx),
      version: options.version ?? '0.1.0',
      spend: () => options.spend?.(ctx.req),
    });
    // A body of null first: Koa then answers the status (202 for notifications only) without a body.
    ctx.body = answer.body === undefined ? null : answer.body;
    ctx.status = answer.status;
    for (const [name, value] of Object.entries(answer.headers)) ctx.set(name, value);
  });
  const notAllowed = (ctx: Koa.Context) => {
    ctx.status = 405;
    ctx.set('Allow', 'POST');
    ctx.body = rpcError(null, -32000, 'Method not allowed: this MCP endpoint is stateless; POST JSON-RPC messages.');
  };
  router.get('/mcp', notAllowed);
  router.delete('/mcp', notAllowed);
  return router;
}
