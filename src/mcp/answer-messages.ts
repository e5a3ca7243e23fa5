import * as webTransport from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  InitializeRequestSchema,
  JSONRPCMessageSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { Refusal } from '@rights-preflight/wire/refusal.js';
import { buildMcpServer } from './server.js';
import type { McpDeps } from './tools.js';

// JSON-RPC 2.0 (§5, §6) over the stateless MCP endpoint: a batch is answered with an array, one answer per
// request in the order sent (a one-element batch too; two requests with the same id get two answers),
// notifications get none. The SDK's transport answers a batch from a map keyed by id and unwraps a
// one-element batch, so each message of a batch goes through a transport of its own and the array is
// built here. Bounded both ways (docs/wire.md §12, docs/decisions.md "MCP by the JSON-RPC 2.0 rules"): at
// most MCP_MAX_BATCH messages, each spends one request of the client's MCP rate limit, and an answer
// that would take the array past MCP_MAX_ANSWER_BYTES is replaced by a short error for its id.

export const MCP_MAX_BATCH = 20;
export const MCP_MAX_ANSWER_BYTES = 128 * 1024;
/** JSON-RPC's implementation-defined server errors (-32000 to -32099). */
export const RATE_LIMITED_ERROR = -32029;
export const ANSWER_TOO_LARGE_ERROR = -32030;

type Id = string | number | null;
interface JsonRpcAnswer {
  jsonrpc: '2.0';
  id: Id;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}
export interface HttpAnswer {
  status: number;
  headers: Record<string, string>;
  /** undefined: no body (202, only notifications). */
  body: unknown;
}

export const rpcError = (id: Id, code: number, message: string, data?: unknown): JsonRpcAnswer => ({
  jsonrpc: '2.0',
  error: data === undefined ? { code, message } : { code, message, data },
  id,
});

/** The params of the methods we serve, checked before the SDK sees them: its own check answers -32603 with a dump. */
const PARAMS_OF: Record<string, { safeParse(v: unknown): { success: boolean } }> = {
  initialize: InitializeRequestSchema,
  ping: PingRequestSchema,
  'tools/list': ListToolsRequestSchema,
  'tools/call': CallToolRequestSchema,
};

const idOf = (m: unknown): Id | undefined => {
  if (typeof m !== 'object' || m === null || !('id' in m)) return undefined;
  const id = (m as { id: unknown }).id;
  return typeof id === 'string' || typeof id === 'number' || id === null ? id : null;
};
const isRequest = (m: unknown): boolean =>
  typeof m === 'object' && m !== null && typeof (m as { method?: unknown }).method === 'string' && 'id' in m;

interface MessageContext {
  url: string;
  /** The request headers the SDK's transport reads (Accept, Content-Type, MCP-Protocol-Version). */
  headers: Record<string, string>;
  deps: McpDeps;
  version: string;
  /** Spends one request of the client's MCP limit; throws RATE_LIMITED. */
  spend(): void;
}

/** One JSON-RPC message through the SDK: a server and a transport of its own (stateless). */
async function throughSdk(message: unknown, c: MessageContext): Promise<HttpAnswer> {
  const server = buildMcpServer(c.deps, c.version);
  const transport = new webTransport.WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  try {
    await server.connect(transport);
    const response = await transport.handleRequest(new Request(c.url, { method: 'POST', headers: c.headers }), {
      parsedBody: message,
    });
    const text = await response.text();
    const headers: Record<string, string> = {};
    const type = response.headers.get('content-type');
    if (type) headers['content-type'] = type;
    return { status: response.status, headers, body: text === '' ? undefined : JSON.parse(text) };
  } finally {
    await transport.close();
    await server.close();
  }
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}): HttpAnswer => ({
  status,
  headers: { 'content-type': 'application/json', ...headers },
  body,
});

/** One message by itself: the SDK's answer, after our own rate limit and params check. */
async function answerOne(message: unknown, c: MessageContext): Promise<HttpAnswer> {
  const id = idOf(message) ?? null;
  try {
    c.spend();
  } catch (err) {
    if (!(err instanceof Refusal)) throw err;
    const retry: Record<string, string> = err.retryAfter === undefined ? {} : { 'retry-after': String(err.retryAfter) };
    return json(429, rpcError(id, RATE_LIMITED_ERROR, err.message, { code: err.code, ...err.details }), retry);
  }
  if (isRequest(message) && JSONRPCMessageSchema.safeParse(message).success) {
    const method = (message as { method: string }).method;
    const schema = PARAMS_OF[method];
    if (schema && !schema.safeParse(message).success)
      return json(200, rpcError(id, ErrorCode.InvalidParams, `Invalid params for ${method}`));
  }
  return throughSdk(message, c);
}

const NOT_ACCEPTABLE = 'Not Acceptable: Client must accept both application/json and text/event-stream';

/** The answer to one message of a batch; undefined for a notification (JSON-RPC 2.0 §4.1: never answered). */
async function answerElement(message: unknown, c: MessageContext): Promise<JsonRpcAnswer | undefined> {
  if (typeof message !== 'object' || message === null || Array.isArray(message))
    return rpcError(null, ErrorCode.InvalidRequest, 'Invalid Request');
  const id = idOf(message);
  const one = await answerOne(message, c);
  const notification = typeof (message as { method?: unknown }).method === 'string' && id === undefined;
  if (one.body === undefined || notification) return undefined;
  const body = one.body as JsonRpcAnswer;
  // The SDK's answer to a value that is not a JSON-RPC message is a parse error; in a batch it is §6's.
  return one.status === 400 && body.error?.code === ErrorCode.ParseError
    ? rpcError(id ?? null, ErrorCode.InvalidRequest, 'Invalid Request')
    : body;
}

/** A batch (1..MCP_MAX_BATCH messages): one answer per request, in order, within MCP_MAX_ANSWER_BYTES. */
async function answerBatch(batch: unknown[], c: MessageContext): Promise<HttpAnswer> {
  // The transport's own checks of the HTTP request, once for the whole batch.
  const accept = c.headers.accept ?? '';
  if (!accept.includes('application/json') || !accept.includes('text/event-stream'))
    return json(406, rpcError(null, -32000, NOT_ACCEPTABLE));
  if (!/^application\/json\s*(;|$)/i.test(c.headers['content-type'] ?? ''))
    return json(415, rpcError(null, -32000, 'Unsupported Media Type: Content-Type must be application/json'));
  // Room is kept for a short error to every request still to answer, so the array never passes the cap
  // (an id is echoed, and every id is inside the message, itself at most a quarter of the cap).
  const tooLarge = (id: Id) =>
    rpcError(
      id,
      ANSWER_TOO_LARGE_ERROR,
      `the answers to this batch would exceed ${MCP_MAX_ANSWER_BYTES} bytes; send this request again by itself`,
    );
  const sizeOf = (a: JsonRpcAnswer) => Buffer.byteLength(JSON.stringify(a)) + 1;
  const reserved = batch.map((m) => sizeOf(tooLarge(idOf(m) ?? null)));
  let room = MCP_MAX_ANSWER_BYTES - 2 - reserved.reduce((a, b) => a + b, 0);
  const answers: JsonRpcAnswer[] = [];
  for (const [i, message] of batch.entries()) {
    room += reserved[i]!;
    const answer = await answerElement(message, c);
    if (answer === undefined) continue;
    const fitted = sizeOf(answer) <= room ? answer : tooLarge(answer.id);
    room -= sizeOf(fitted);
    answers.push(fitted);
  }
  return answers.length === 0 ? { status: 202, headers: {}, body: undefined } : json(200, answers);
}

/** The HTTP answer to a parsed, plain-JSON message body (an object, or a non-empty batch). */
export function answerMessages(message: unknown, c: MessageContext): Promise<HttpAnswer> {
  if (!Array.isArray(message)) return answerOne(message, c);
  if (message.length > MCP_MAX_BATCH)
    return Promise.resolve(
      json(
        400,
        rpcError(null, ErrorCode.InvalidRequest, `Invalid Request: a batch holds at most ${MCP_MAX_BATCH} messages`),
      ),
    );
  return answerBatch(message, c);
}
