import test from 'ava';
import { operatorApi } from '../../src/operator/http/api.js';
import type { OperatorDeps } from '../../src/operator/operator-deps.js';
import { newKey } from './support/gate-buyer.js';
import { post } from '../support/post.js';
import { ARTICLE } from '../support/publishers.js';
import { signPayment } from '../support/pay.js';
import { useWorld } from '../support/world.js';

// One plain-JSON guard for every JSON body (docs/wire.md §6, MALFORMED_JSON): a non-finite number, a lone
// surrogate or nesting past 32 levels is refused 400 before anything is decoded, digested or stored. The
// endpoints are walked from what the service itself declares, so a new one cannot be forgotten: the
// public ones from its OpenAPI document (MCP included), the operator's from its router.

const TOKEN = 'operator-token-for-plain-json-0123456789';
const w = useWorld({ service: { env: { OPERATOR_LISTEN: '127.0.0.1:0', OPERATOR_TOKEN: TOKEN } } });

const DEEP = `${'['.repeat(3000)}${']'.repeat(3000)}`;
/** The three shapes, each as a member `x` added to an object (raw text: JSON.stringify cannot write them). */
const SHAPES: Record<string, string> = {
  'a number 1e999': '1e999',
  'a lone surrogate': '"\\ud800"',
  'nesting 3000 deep': DEEP,
};
const withMember = (json: string, value: string) => `${json.slice(0, -1)}${json.length > 2 ? ',' : ''}"x":${value}}`;

async function send(url: string, body: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body,
  });
  const text = await res.text();
  return { status: res.status, text, body: JSON.parse(text) };
}

/** The code of a refusal: the service's `error.code`, the operator API's `refused.code`, or MCP's JSON-RPC
 *  error `data.code`. */
const codeOf = (body: any): unknown =>
  body?.error?.code === -32700 ? body.error.data?.code : (body?.error?.code ?? body?.refused?.code);

const ID = 'ab'.repeat(32);
const concrete = (path: string) => path.replace(/\{[^}]+\}|:[a-z_]+/gi, ID);

const PUBLIC =
  'every public JSON endpoint of the OpenAPI document, MCP included, refuses the three shapes 400 MALFORMED_JSON';
test(PUBLIC, async (t) => {
  const doc = (await (await fetch(`${w.url}/openapi.json`)).json()) as {
    paths: Record<string, Record<string, { requestBody?: { content?: Record<string, unknown> } }>>;
  };
  const endpoints = Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops)
      .filter(([, op]) => op.requestBody?.content?.['application/json'])
      .map(([method]) => ({ method: method.toUpperCase(), path })),
  );
  t.true(endpoints.some((e) => e.path === '/mcp') && endpoints.some((e) => e.path === '/v1/rights/revalidate'));
  t.true(endpoints.length >= 7, JSON.stringify(endpoints));
  for (const { method, path } of endpoints) {
    t.is(method, 'POST');
    for (const [name, value] of Object.entries(SHAPES)) {
      for (const body of [withMember('{}', value), `[${value}]`]) {
        const answer = await send(`${w.url}${concrete(path)}`, body, { 'x-service-request': newKey() });
        t.is(answer.status, 400, `${path}, ${name}: ${answer.text}`);
        t.is(codeOf(answer.body), 'MALFORMED_JSON', `${path}, ${name}: ${answer.text}`);
      }
    }
  }
});

test('every operator POST route refuses the three shapes 400 MALFORMED_JSON', async (t) => {
  const tcp = w.service.operator.tcpUrl!;
  // The router as the service builds it; only its routes are read.
  const routes = operatorApi({ config: { refundSenders: [] } } as unknown as OperatorDeps)
    .stack.filter((layer) => layer.methods.includes('POST'))
    .map((layer) => String(layer.path));
  t.true(routes.length >= 4, JSON.stringify(routes));
  for (const path of routes) {
    for (const [name, value] of Object.entries(SHAPES)) {
      const answer = await send(`${tcp}${concrete(path)}`, withMember('{}', value), {
        authorization: `Bearer ${TOKEN}`,
      });
      t.is(answer.status, 400, `${path}, ${name}: ${answer.text}`);
      t.is(codeOf(answer.body), 'MALFORMED_JSON', `${path}, ${name}: ${answer.text}`);
    }
  }
});

const REVALIDATION =
  'revalidation: a genuine checkpoint with an extra member 1e999, a lone surrogate or 3000 levels is 400, ' +
  'nothing stored';
test(REVALIDATION, async (t) => {
  // A bought report's genuine checkpoint: quote, the 402 offer, the payment.
  const quoted = await post(`${w.url}/v1/rights/quote`, {
    resource: ARTICLE(1),
    purpose: 'ai-input',
    tier: 'fresh',
    max_total_micro: '20000',
  });
  t.is(quoted.status, 200, quoted.text);
  const { claim_token: claim, report_url: reportUrl } = quoted.body;
  const offer = await fetch(`${w.url}${reportUrl}`, { headers: { 'x-service-claim': claim } });
  t.is(offer.status, 402);
  const payment = await signPayment(w.devnet.buyers[0]!.privateKey, offer.headers.get('payment-required')!);
  const paid = await fetch(`${w.url}${reportUrl}`, {
    headers: { 'x-service-claim': claim, 'payment-signature': payment },
  });
  t.is(paid.status, 200);
  const checkpoint = ((await paid.json()) as any).report.resources[0].checkpoint;
  t.truthy(checkpoint?.payload);
  for (const [name, value] of Object.entries(SHAPES)) {
    const body = `{"checkpoints":[${withMember(JSON.stringify(checkpoint), value)}],"max_total_micro":"100000"}`;
    const key = newKey();
    const answer = await send(`${w.url}/v1/rights/revalidate`, body, { 'x-service-request': key });
    t.is(answer.status, 400, `${name}: ${answer.text}`);
    t.is(answer.body.error.code, 'MALFORMED_JSON', name);
    // Nothing was offered under that key: the same key with a clean body is a first request (a 402 offer).
    const clean = await send(
      `${w.url}/v1/rights/revalidate`,
      JSON.stringify({ checkpoints: [checkpoint], max_total_micro: '100000' }),
      { 'x-service-request': key },
    );
    t.is(clean.status, 402, `${name}: ${clean.text}`);
  }
});
