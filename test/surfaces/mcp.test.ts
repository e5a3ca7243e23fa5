import test from 'ava';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isRight } from 'fp-ts/lib/Either.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Capabilities } from '../../src/contract/capabilities.js';
import { AvailableQuote, QuoteRequest } from '../../src/contract/quote.js';
import { jsonSchemaOf } from '../../src/http/schema/json-schema.js';
import { SENSITIVE_META_KEY } from '../../src/mcp/tools.js';
import { assertNoSecretsLogged } from '../support/secrets.js';
import { ARTICLE, BARE, surfacesWorld, type SurfacesWorld } from './support/world.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
let w: SurfacesWorld;
const claims: string[] = [];
test.before(async () => {
  w = await surfacesWorld();
});
test.after.always(async () => {
  await w?.close();
});

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
  await client.close();
});

test(
  'service_rights_quote prepares a real quote through the ' + 'quote service and marks the claim as a private secret',
  async (t) => {
    const client = await connect();
    const res = await client.callTool({
      name: 'service_rights_quote',
      arguments: { resource: ARTICLE(1), purpose: 'ai-input', tier: 'fresh', max_total_micro: '20000' },
    });
    t.falsy(res.isError, JSON.stringify(res));
    const q = res.structuredContent as AvailableQuote;
    t.true(isRight(AvailableQuote.decode(q)));
    claims.push(q.claim_token);
    const meta = (res._meta as Record<string, any>)[SENSITIVE_META_KEY];
    t.deepEqual(meta.fields, ['claim_token']);
    t.true(meta.secret);
    const content = res.content as { type: string; text: string; annotations?: { audience?: string[] } }[];
    t.regex(content[0]!.text, /PRIVATE SECRET/);
    t.false(content[0]!.text.includes(q.claim_token), 'the model-facing text withholds the claim');
    t.deepEqual(content[1]!.annotations?.audience, ['user']);
    t.true(content[1]!.text.includes(q.claim_token));
    // It is the same quote service: the claim opens the report URL's 402 offer over HTTP (paid there, never via MCP).
    const offer = await fetch(`${w.url}${q.report_url}`, { headers: { 'x-service-claim': q.claim_token } });
    t.is(offer.status, 402);
    t.truthy(offer.headers.get('payment-required'));
    const none = await client.callTool({
      name: 'service_rights_quote',
      arguments: { resource: BARE, purpose: 'ai-input', tier: 'fresh', max_total_micro: '20000' },
    });
    t.deepEqual(
      [(none.structuredContent as any).available, (none.structuredContent as any).charge_micro],
      [false, '0'],
    );
    await client.close();
  },
);

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
