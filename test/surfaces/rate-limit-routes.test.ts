import test from 'ava';
import http from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startFastWorld, type FastWorld } from '../support/fast-world.js';
import { startForwardingProxy, type ForwardingProxy } from '../support/forwarding-proxy.js';

// The real service's limits: every spelling the router answers spends the route's one bucket; preflight,
// the gate and the MCP quote tool are limited; X-Forwarded-For counts only behind a trusted proxy
// (TRUST_PROXY). Clients are told apart by binding their sockets to distinct loopback addresses.

const LIMITED = Object.fromEntries(
  ['INSPECT', 'QUOTE', 'PREFLIGHT', 'GATE'].flatMap((r) => [
    [`RATE_LIMIT_${r}_PER_MINUTE`, '1'],
    [`RATE_LIMIT_${r}_BURST`, '3'],
  ]),
);
const ROUTES = {
  inspect: '/v1/rights/inspect',
  quote: '/v1/rights/quote',
  preflight: '/v1/rights/preflight',
  gate: '/v1/rights/ingestion-gate',
} as const;

const services: Record<'off' | 'ranges' | 'hops', FastWorld> = {} as never;
const proxies: ForwardingProxy[] = [];

// One service as composed (test/README.md, Worlds) per TRUST_PROXY setting: limits are checked before any
// chain or store is asked, so the fast world serves them as the service does.
test.before(async () => {
  const trust = { off: undefined, ranges: '127.0.0.1', hops: '1' } as const;
  for (const [name, value] of Object.entries(trust) as [keyof typeof trust, string | undefined][])
    services[name] = await startFastWorld(undefined, { env: { ...LIMITED, ...(value ? { TRUST_PROXY: value } : {}) } });
});
test.after.always(async () => {
  for (const p of proxies) await p.close();
  for (const w of Object.values(services)) await w.close();
});

interface Answer {
  status: number;
  retryAfter: string | undefined;
  body: any;
}

/** POST from a chosen loopback address (the service sees it as the socket's peer). */
function post(base: string, p: string, o: { from?: string; headers?: Record<string, string> } = {}): Promise<Answer> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: p,
        method: 'POST',
        ...(o.from ? { localAddress: o.from } : {}),
        headers: { 'content-type': 'application/json', ...o.headers },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          text += c;
        });
        res.on('end', () => {
          const retry = res.headers['retry-after'];
          resolve({ status: res.statusCode ?? 0, retryAfter: retry, body: text ? JSON.parse(text) : undefined });
        });
      },
    );
    req.on('error', reject);
    req.end('{}');
  });
}

const mixedCase = (p: string) => p.replace(/[a-z]+/g, (w, i: number) => (i % 2 ? w.toUpperCase() : w));

for (const [name, route] of Object.entries(ROUTES)) {
  test(`${name}: every spelling the router answers spends one bucket, then 429 with Retry-After`, async (t) => {
    const from = `127.0.0.${10 + Object.keys(ROUTES).indexOf(name)}`;
    const base = services.off.url;
    for (const spelling of [route, `${route}/`, route.toUpperCase()]) {
      const a = await post(base, spelling, { from });
      t.false([404, 429].includes(a.status), `${spelling} reached the route: ${a.status}`);
    }
    for (const spelling of [`${mixedCase(route)}/`, route, route.toUpperCase()]) {
      const limited = await post(base, spelling, { from });
      t.is(limited.status, 429, spelling);
      t.is(limited.body.error.code, 'RATE_LIMITED');
      t.regex(limited.retryAfter ?? '', /^[1-9]\d*$/);
      t.is(limited.body.error.details.retry_after_seconds, Number(limited.retryAfter));
    }
    t.not((await post(base, route, { from: '127.0.0.99' })).status, 429, 'another client has its own bucket');
  });
}

test('without TRUST_PROXY a forged X-Forwarded-For changes nothing', async (t) => {
  const from = '127.0.0.20';
  const forged = (n: number) => ({ 'x-forwarded-for': `198.51.100.${n}` });
  for (const n of [1, 2, 3])
    t.not((await post(services.off.url, ROUTES.quote, { from, headers: forged(n) })).status, 429);
  t.is((await post(services.off.url, ROUTES.quote, { from, headers: forged(4) })).status, 429);
  t.is((await post(services.off.url, ROUTES.quote, { from })).status, 429);
});

test('capabilities publish every limit, and which MCP tools share one', async (t) => {
  const caps = (await (await fetch(`${services.off.url}/v1/capabilities`)).json()) as any;
  const limit = (p: string, tools: string[] = []) => ({
    method: 'POST',
    path: p,
    requests_per_minute: 1,
    burst: 3,
    mcp_tools: tools,
  });
  t.deepEqual(caps.rate_limits, {
    inspect: limit(ROUTES.inspect),
    quote: limit(ROUTES.quote, ['service_rights_quote']),
    preflight: limit(ROUTES.preflight),
    gate: limit(ROUTES.gate),
    // A revalidation spends its own bucket at the gate's rate (docs/decisions.md, "Revalidation").
    revalidate: limit('/v1/rights/revalidate'),
    // Every MCP message, whatever its tool (docs/decisions.md, "MCP by the JSON-RPC 2.0 rules"); the local
    // worlds' value (LOCAL_RATE_LIMITS), not lowered here (the MCP quote tool below must reach the quote bucket).
    mcp: {
      ...limit('/mcp', ['service_capabilities', 'service_rights_quote', 'service_quote']),
      requests_per_minute: 100000,
      burst: 10000,
    },
  });
});

test('the MCP quote tool spends the quote bucket and is refused with RATE_LIMITED like the route', async (t) => {
  // Through fetch (the SDK client's transport), from 127.0.0.1: the only test here that quotes from it.
  const base = services.off.url;
  t.not((await post(base, `${ROUTES.quote}/`)).status, 429);
  t.not((await post(base, ROUTES.quote.toUpperCase())).status, 429);
  const client = new Client({ name: 'limits-test', version: '0.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
  try {
    const args = { resource: 'https://uncovered.example/a', purpose: 'ai-input', tier: 'fresh', max_total_micro: '1' };
    const third = await client.callTool({ name: 'service_rights_quote', arguments: args });
    const code = (r: typeof third) => JSON.parse((r.content as { text: string }[])[0]!.text).error;
    t.true(third.isError);
    t.not(code(third).code, 'RATE_LIMITED', 'the third request of the burst is served (and refused for coverage)');
    const fourth = await client.callTool({ name: 'service_rights_quote', arguments: args });
    t.true(fourth.isError);
    t.is(code(fourth).code, 'RATE_LIMITED');
    t.true(code(fourth).details.retry_after_seconds >= 1);
    t.is((await client.callTool({ name: 'service_capabilities', arguments: {} })).isError, undefined);
  } finally {
    await client.close();
  }
  t.is((await post(base, ROUTES.quote)).status, 429, 'and the HTTP route shares the spent bucket');
});

for (const trust of ['ranges', 'hops'] as const) {
  test(`TRUST_PROXY (${trust}): two clients behind one proxy get separate buckets; forged hops ignored`, async (t) => {
    const proxy = await startForwardingProxy(services[trust].url);
    proxies.push(proxy);
    const forged = (n: number) => ({ 'x-forwarded-for': `198.51.100.${n}` });
    for (const n of [1, 2, 3])
      t.not((await post(proxy.base, ROUTES.inspect, { from: '127.0.0.30', headers: forged(n) })).status, 429);
    t.is((await post(proxy.base, ROUTES.inspect, { from: '127.0.0.30', headers: forged(4) })).status, 429);
    t.not((await post(proxy.base, ROUTES.inspect, { from: '127.0.0.31' })).status, 429, 'the second client');
  });
}

test('without TRUST_PROXY every client behind a proxy shares the proxy bucket', async (t) => {
  const proxy = await startForwardingProxy(services.off.url);
  proxies.push(proxy);
  for (let i = 0; i < 3; i++) t.not((await post(proxy.base, ROUTES.inspect, { from: '127.0.0.40' })).status, 429);
  t.is((await post(proxy.base, ROUTES.inspect, { from: '127.0.0.41' })).status, 429);
});
