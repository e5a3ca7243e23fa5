import test from 'ava';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isRight } from 'fp-ts/lib/Either.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Capabilities } from '@rights-preflight/wire/contract/capabilities.js';
import { QuoteRequest } from '@rights-preflight/wire/contract/quote.js';
import {
  CLAIM_META_KEY,
  McpAvailableQuote,
  McpClaimMeta,
  McpQuoteResult,
} from '@rights-preflight/wire/contract/mcp-quote.js';
import { jsonSchemaOf } from '@rights-preflight/wire/contract/json-schema.js';
import { assertNoSecretsLogged } from '../support/secrets.js';
import { signPayment } from '../support/pay.js';
import { ARTICLE, BARE } from '../support/publishers.js';
import { useWorld } from '../support/world.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const claims: string[] = [];
const w = useWorld();

async function connect() {
  const client = new Client({ name: 'surfaces-test', version: '0.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${w.url}/mcp`)));
  return client;
}

test(
  'the SDK client lists the three tools; ' + 'the legacy one is described as disabled; schemas come from the codecs',
  async (t) => {
    const client = await connect();
    const { tools } = await client.listTools();
    t.deepEqual(tools.map((x) => x.name).sort(), ['service_capabilities', 'service_quote', 'service_rights_quote']);
    const legacy = tools.find((x) => x.name === 'service_quote')!;
    t.regex(legacy.description ?? '', /^DISABLED/);
    t.regex(legacy.description ?? '', /provider routing is not offered/);
    const quote = tools.find((x) => x.name === 'service_rights_quote')!;
    t.deepEqual(quote.inputSchema, { type: 'object', ...jsonSchemaOf(QuoteRequest) } as typeof quote.inputSchema);
    t.false((quote.inputSchema as { additionalProperties?: boolean }).additionalProperties);
    t.false(
      tools.some((x) => /report|pay|deliver|redeem/i.test(x.name)),
      'no tool delivers or pays',
    );
    await client.close();
  },
);

test('service_capabilities returns what GET /v1/capabilities serves', async (t) => {
  const client = await connect();
  const res = await client.callTool({ name: 'service_capabilities', arguments: {} });
  t.falsy(res.isError);
  t.true(isRight(Capabilities.decode(res.structuredContent)));
  const http = (await (await fetch(`${w.url}/v1/capabilities`)).json()) as Record<string, unknown>;
  const { generated_at: _a, ...viaMcp } = res.structuredContent as Record<string, unknown>;
  const { generated_at: _b, ...viaHttp } = http;
  t.deepEqual(viaMcp, viaHttp);
  // The revalidation SKU is listed and sold (over HTTP only: paid delivery stays off MCP).
  const products = (viaMcp as { products: { sku: string; enabled: boolean; endpoint: string }[] }).products;
  t.like(
    products.find((p) => p.sku === 'rights.revalidate.v1'),
    { enabled: true, endpoint: '/v1/rights/revalidate' },
  );
  await client.close();
});

test(
  'service_rights_quote prepares a real quote; the claim is only in _meta, never in text or structuredContent, ' +
    'and the buyer redeems with what the tool returned (docs/wire.md §12)',
  async (t) => {
    const client = await connect();
    const { tools } = await client.listTools();
    const tool = tools.find((x) => x.name === 'service_rights_quote')!;
    t.deepEqual(tool.outputSchema, { type: 'object', ...jsonSchemaOf(McpQuoteResult) } as typeof tool.outputSchema);
    const res = await client.callTool({
      name: 'service_rights_quote',
      arguments: { resource: ARTICLE(1), purpose: 'ai-input', tier: 'fresh', max_total_micro: '20000' },
    });
    t.falsy(res.isError, JSON.stringify(res));
    const q = res.structuredContent as McpAvailableQuote;
    t.true(isRight(McpAvailableQuote.decode(q)), 'the SDK client also checked it against the outputSchema');
    t.is(q.claim_in_meta, CLAIM_META_KEY);
    const meta = (res._meta as Record<string, unknown>)[CLAIM_META_KEY];
    t.true(isRight(McpClaimMeta.decode(meta)));
    const { claim_token: claim, report_url: reportUrl } = meta as McpClaimMeta;
    claims.push(claim);
    t.is(reportUrl, q.report_url);
    // What a host may hand to a model: every text block and structuredContent, as the client received them.
    const modelFacing = JSON.stringify({ content: res.content, structuredContent: res.structuredContent });
    t.false(modelFacing.includes(claim), 'no claim in text or structuredContent');
    t.false('claim_token' in (q as Record<string, unknown>));
    const content = res.content as { type: string; text: string }[];
    t.is(content.length, 1);
    t.regex(content[0]!.text, /PRIVATE SECRET/);
    // The buyer's client redeems over HTTP with the claim from _meta: the 402 offer, then the bound payment.
    const offer = await fetch(`${w.url}${reportUrl}`, { headers: { 'x-service-claim': claim } });
    t.is(offer.status, 402);
    const prHeader = offer.headers.get('payment-required')!;
    t.truthy(prHeader);
    const buyer = w.devnet.buyers[0]!;
    const paid = await fetch(`${w.url}${reportUrl}`, {
      headers: { 'x-service-claim': claim, 'payment-signature': await signPayment(buyer.privateKey, prHeader) },
    });
    t.is(paid.status, 200);
    const delivered = (await paid.json()) as { report: { purchase_id: string } };
    t.is(delivered.report.purchase_id, q.purchase_id);
    const none = await client.callTool({
      name: 'service_rights_quote',
      arguments: { resource: BARE, purpose: 'ai-input', tier: 'fresh', max_total_micro: '20000' },
    });
    t.deepEqual(
      [(none.structuredContent as any).available, (none.structuredContent as any).charge_micro],
      [false, '0'],
    );
    t.is(none._meta, undefined, 'nothing to claim, nothing in _meta');
    await client.close();
  },
);

test('an empty JSON-RPC batch gets a JSON-RPC Invalid Request error, not a 202 without a body', async (t) => {
  const res = await fetch(`${w.url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: '[]',
  });
  t.is(res.status, 400);
  t.deepEqual(await res.json(), {
    jsonrpc: '2.0',
    error: { code: -32600, message: 'Invalid Request: an empty batch' },
    id: null,
  });
  const garbled = await fetch(`${w.url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: '[{"jsonrpc":',
  });
  t.is(garbled.status, 400);
  t.is(((await garbled.json()) as any).error.code, -32700);
});

test(
  'service_quote always refuses with isError; ' + 'bad arguments to service_rights_quote are refused by the codec',
  async (t) => {
    const client = await connect();
    const legacy = await client.callTool({ name: 'service_quote', arguments: { resource: ARTICLE(1) } });
    t.true(legacy.isError);
    t.is(JSON.parse((legacy.content as { text: string }[])[0]!.text).error.code, 'TOOL_DISABLED');
    const extra = await client.callTool({
      name: 'service_rights_quote',
      arguments: { resource: ARTICLE(1), purpose: 'ai-input', tier: 'fresh', max_total_micro: '20000', provider: 'x' },
    });
    t.true(extra.isError);
    t.is(JSON.parse((extra.content as { text: string }[])[0]!.text).error.code, 'UNKNOWN_FIELD');
    const budget = await client.callTool({
      name: 'service_rights_quote',
      arguments: { resource: ARTICLE(1), purpose: 'ai-input', tier: 'deep', max_total_micro: '01' },
    });
    t.true(budget.isError);
    t.is(JSON.parse((budget.content as { text: string }[])[0]!.text).error.details.field, 'max_total_micro');
    await client.close();
  },
);

test('stateless endpoint: GET and DELETE /mcp are 405, no session id is issued', async (t) => {
  t.is((await fetch(`${w.url}/mcp`, { headers: { accept: 'text/event-stream' } })).status, 405);
  t.is((await fetch(`${w.url}/mcp`, { method: 'DELETE' })).status, 405);
  const init = await fetch(`${w.url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
    }),
  });
  t.is(init.status, 200);
  t.is(init.headers.get('mcp-session-id'), null);
  t.is(((await init.json()) as any).result.serverInfo.name, 'rights-preflight');
});

test('the MCP Inspector CLI (installed locally, run offline) lists the tools over Streamable HTTP', async (t) => {
  const { stdout } = await promisify(execFile)(
    'npx',
    [
      '--no-install',
      '@modelcontextprotocol/inspector',
      '--cli',
      `${w.url}/mcp`,
      '--transport',
      'http',
      '--method',
      'tools/list',
    ],
    {
      cwd: ROOT,
      timeout: 60_000,
      env: { ...process.env, npm_config_offline: 'true' },
    },
  );
  const listed = JSON.parse(stdout) as { tools: { name: string }[] };
  t.deepEqual(listed.tools.map((x) => x.name).sort(), [
    'service_capabilities',
    'service_quote',
    'service_rights_quote',
  ]);
});

test.after.always('no claim token reached a log line', (t) => {
  if (!w || claims.length === 0) return;
  assertNoSecretsLogged(t, w.logs(), { claims });
});
