import test from 'ava';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createApp } from '../../src/http/app.js';
import { createRateLimits } from '../../src/http/rate-limit.js';
import { MCP_BODY_LIMIT, mcpRouter } from '../../src/http/routes/mcp.js';
import {
  ANSWER_TOO_LARGE_ERROR,
  MCP_MAX_ANSWER_BYTES,
  MCP_MAX_BATCH,
  RATE_LIMITED_ERROR,
} from '../../src/mcp/answer-messages.js';
import type { McpDeps } from '../../src/mcp/tools.js';
import type { Capabilities } from '@rights-preflight/wire/contract/capabilities.js';
import { Refusal } from '@rights-preflight/wire/refusal.js';
import { createLogger } from '../../src/runtime/log.js';
import { listen, type Listening } from '../support/listen.js';

// The MCP endpoint by the JSON-RPC 2.0 rules (docs/wire.md §12; docs/decisions.md, "MCP by the JSON-RPC
// 2.0 rules"): a batch in, an array out; every request of a batch answered, duplicates included;
// -32602 for bad params; every message spends the client's MCP limit; messages and answers bounded.
// Raw HTTP where the SDK client cannot send the case (it never sends a batch, nor a call without params).

// A bare app (test/README.md, Worlds): the MCP router by the JSON-RPC rules, its tools stand-ins that count
// the quotes they are asked for, its limit on a clock the test moves; the composed tools are in mcp.test.ts.
let server: Listening;
let clock = 0;
let quotes = 0;
const BURST = 30;
const limits = createRateLimits(
  [{ method: 'POST', path: '/mcp', name: 'mcp', limit: { perMinute: 60, burst: BURST } }],
  { now: () => clock },
);
const deps: McpDeps = {
  capabilities: () => ({ generated_at: 'now' }) as unknown as Capabilities,
  quote: async () => {
    quotes += 1;
    throw new Refusal('RESOURCE_NOT_COVERED', 'not covered');
  },
};

test.before(async () => {
  server = await listen(
    createApp({
      log: createLogger('silent'),
      ready: async () => true,
      routers: [mcpRouter(() => deps, { spend: (req) => limits.spend('mcp', req) })],
    }),
  );
});
test.after.always(() => server?.close());
/** Each test starts with a full bucket: a minute is a full refill at 60 per minute. */
test.beforeEach(() => {
  clock += 10 * 60_000;
});

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
async function post(body: unknown, raw = false): Promise<{ status: number; text: string; json: any }> {
  const res = await fetch(`${server.base}/mcp`, {
    method: 'POST',
    headers: HEADERS,
    body: raw ? (body as string) : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, text, json: text === '' ? undefined : JSON.parse(text) };
}
const list = (id: unknown) => ({ jsonrpc: '2.0', id, method: 'tools/list' });
const ping = (id: unknown) => ({ jsonrpc: '2.0', id, method: 'ping' });

test.serial('a one-element batch is answered with a one-element array', async (t) => {
  const one = await post([ping(1)]);
  t.is(one.status, 200);
  t.true(Array.isArray(one.json), one.text);
  t.deepEqual(one.json, [{ jsonrpc: '2.0', id: 1, result: {} }]);
  const bare = await post(ping(2));
  t.deepEqual(bare.json, { jsonrpc: '2.0', id: 2, result: {} }, 'a lone message is still answered by itself');
});

test.serial('every request of a batch is answered, in order, duplicate ids included', async (t) => {
  const batch = await post([ping(7), ping(7), list('a'), ping(8)]);
  t.is(batch.status, 200);
  t.deepEqual(
    batch.json.map((a: { id: unknown }) => a.id),
    [7, 7, 'a', 8],
  );
  t.true(batch.json.every((a: { result?: unknown }) => a.result !== undefined));
});

test.serial('notifications are not answered; a batch of notifications only is 202 with no body', async (t) => {
  const note = { jsonrpc: '2.0', method: 'notifications/initialized' };
  const mixed = await post([note, ping(1), note]);
  t.deepEqual(
    mixed.json.map((a: { id: unknown }) => a.id),
    [1],
  );
  const only = await post([note, note]);
  t.is(only.status, 202);
  t.is(only.text, '');
});

test.serial('an element that is not a JSON-RPC message is an Invalid Request of its own', async (t) => {
  const batch = await post([1, ping(2), { jsonrpc: '2.0', id: 3 }]);
  t.is(batch.status, 200);
  t.deepEqual(batch.json[0], { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request' } });
  t.deepEqual(batch.json[1], { jsonrpc: '2.0', id: 2, result: {} });
  t.is(batch.json[2].error.code, -32600);
  t.is(batch.json.length, 3);
});

test.serial('tools/call without params is -32602 Invalid params, without a validation dump', async (t) => {
  const bare = await post({ jsonrpc: '2.0', id: 1, method: 'tools/call' });
  t.is(bare.status, 200);
  t.is(bare.json.error.code, -32602, bare.text);
  t.is(bare.json.id, 1);
  t.true(bare.text.length < 200, bare.text);
  const noName = await post([{ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { arguments: {} } }]);
  t.is(noName.json[0].error.code, -32602);
  t.is(quotes, 0);
});

test.serial(
  `a batch holds at most ${MCP_MAX_BATCH} messages, and its answers at most ${MCP_MAX_ANSWER_BYTES} bytes`,
  async (t) => {
    const hundred = await post(Array.from({ length: 100 }, (_, i) => list(i)));
    t.is(hundred.status, 400);
    t.is(hundred.json.error.code, -32600);
    t.true(hundred.text.length < 200);
    // MCP_MAX_BATCH tools/list: each answer is over 5 KB here, so the array reaches the cap and the
    // requests past it are answered with a short error for their id.
    const single = (await post(list(0))).text.length;
    t.true(single * MCP_MAX_BATCH > MCP_MAX_ANSWER_BYTES, `one tools/list answer is ${single} bytes`);
    const full = await post(Array.from({ length: MCP_MAX_BATCH }, (_, i) => list(i)));
    t.is(full.status, 200);
    t.true(Buffer.byteLength(full.text) <= MCP_MAX_ANSWER_BYTES, `${full.text.length} bytes`);
    t.deepEqual(
      full.json.map((a: { id: number }) => a.id),
      Array.from({ length: MCP_MAX_BATCH }, (_, i) => i),
    );
    const cut = full.json.filter((a: { error?: { code: number } }) => a.error?.code === ANSWER_TOO_LARGE_ERROR);
    t.true(cut.length > 0 && cut.length < MCP_MAX_BATCH, JSON.stringify(full.json.map((a: any) => a.error?.code)));
    t.true(full.json.slice(0, MCP_MAX_BATCH - cut.length).every((a: { result?: unknown }) => a.result));
  },
);

test.serial('a message larger than the body limit is 413 before it is parsed', async (t) => {
  const big = await post(JSON.stringify({ ...ping(1), pad: 'x'.repeat(MCP_BODY_LIMIT) }), true);
  t.is(big.status, 413);
  t.is(big.json.error.code, -32000);
});

test.serial('a message that is not plain JSON is a parse error with MALFORMED_JSON', async (t) => {
  for (const body of [
    '{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":1e999}}',
    '{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"\\ud800"}}',
    `[${'['.repeat(3000)}${']'.repeat(3000)}]`,
  ]) {
    const answer = await post(body, true);
    t.is(answer.status, 400);
    t.is(answer.json.error.code, -32700);
    t.is(answer.json.error.data.code, 'MALFORMED_JSON');
  }
});

test.serial('every tool call spends the MCP limit, through the SDK client and inside a batch', async (t) => {
  const client = new Client({ name: 'limits', version: '0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.base}/mcp`)));
  // initialize and notifications/initialized spent two; every call of any tool spends one more.
  for (let i = 2; i < BURST; i++) t.true((await client.callTool({ name: 'service_quote' })).isError);
  const refused = await t.throwsAsync(client.callTool({ name: 'service_quote' }));
  t.regex(refused!.message, /-32029/);
  t.regex(refused!.message, /RATE_LIMITED/);
  await client.close();
  clock += 60_000 * (3 / 60); // three tokens back
  const batch = await post(
    [1, 2, 3, 4].map((id) => ({ ...ping(id), method: 'tools/call', params: { name: 'service_quote' } })),
  );
  t.deepEqual(
    batch.json.map((a: { id: number; error?: { code: number } }) => [a.id, a.error?.code ?? 'answered']),
    [
      [1, 'answered'],
      [2, 'answered'],
      [3, 'answered'],
      [4, RATE_LIMITED_ERROR],
    ],
  );
  t.is(batch.json[3].error.data.code, 'RATE_LIMITED');
});
