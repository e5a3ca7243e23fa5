import http from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { HTTPFacilitatorClient } from '@x402/core/http';
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import { facilitatorClient } from '../../src/payment/settlement/facilitator-client.js';

// Our facilitator client (facilitator-client.ts, node:http) answers and fails exactly as @x402/core's
// HTTPFacilitatorClient (Node's fetch) for every way a facilitator can answer: the same request body on
// the wire, the same results, and errors of the same class with the same name, message and fields. The
// facilitator is a real HTTP server on loopback; the payload's `scenario` picks how it answers.

const SCENARIOS = [
  'valid',
  'valid-with-nulls-and-extra-keys',
  'invalid-shape',
  'not-json',
  'refused-with-body',
  'server-error-json',
  'bad-gateway-text',
  'empty-500',
  'hang',
  'hang-up',
] as const;
type Scenario = (typeof SCENARIOS)[number];

const answers: Record<Exclude<Scenario, 'hang' | 'hang-up'>, (op: string) => [number, string]> = {
  valid: (op) => [
    200,
    JSON.stringify(
      op === 'verify'
        ? { isValid: true, payer: '0x857b06519E91e3A54538791bDbb0E22373e36b66' }
        : { success: true, transaction: `0x${'ab'.repeat(32)}`, network: 'eip155:8453', payer: '0x85' },
    ),
  ],
  'valid-with-nulls-and-extra-keys': (op) => [
    200,
    JSON.stringify(
      op === 'verify'
        ? { isValid: false, invalidReason: 'insufficient_funds', invalidMessage: null, extra: { a: 1 }, other: 2 }
        : { success: false, errorReason: 'x', transaction: '', network: 'eip155:8453', amount: null, other: 1 },
    ),
  ],
  'invalid-shape': (op) => [200, JSON.stringify(op === 'verify' ? { isValid: 'yes' } : { success: true })],
  'not-json': () => [200, '<html>ok</html>'],
  'refused-with-body': (op) => [
    400,
    JSON.stringify(
      op === 'verify'
        ? { isValid: false, invalidReason: 'invalid_exact_evm_nonce_already_used', payer: '0x85' }
        : { success: false, errorReason: 'settlement_pending', transaction: `0x${'cd'.repeat(32)}`, network: 'n' },
    ),
  ],
  'server-error-json': () => [500, JSON.stringify({ error: 'boom' })],
  'bad-gateway-text': () => [502, 'Bad   Gateway\n'],
  'empty-500': () => [500, ''],
};

let url: string;
let server: http.Server;
const bodies: string[] = [];
test.before(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      bodies.push(`${req.method} ${req.url} ${req.headers['content-type']} ${text}`);
      const scenario = (JSON.parse(text) as { paymentPayload: { payload: { scenario: Scenario } } }).paymentPayload
        .payload.scenario;
      if (scenario === 'hang') return;
      if (scenario === 'hang-up') return req.socket.destroy();
      const [status, body] = answers[scenario](req.url!.slice(1));
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
test.after.always(() => {
  server.closeAllConnections();
  server.close();
});

const payloadFor = (scenario: Scenario) =>
  ({
    x402Version: 2,
    accepted: { scheme: 'exact', network: 'eip155:8453', amount: 10n },
    payload: { scenario },
  }) as unknown as PaymentPayload;
const requirements = { scheme: 'exact', network: 'eip155:8453', amount: '10' } as unknown as PaymentRequirements;

/** A result or an error as plain data: class, name, message and own fields (the cause left out). */
async function outcome(run: () => Promise<unknown>) {
  try {
    return { result: JSON.parse(JSON.stringify(await run())) as unknown };
  } catch (err) {
    const e = err as Error & Record<string, unknown>;
    const { cause: _cause, ...fields } = Object.fromEntries(Object.entries(e));
    return { error: { class: e.constructor.name, name: e.name, message: e.message, fields } };
  }
}

for (const op of ['verify', 'settle'] as const)
  for (const scenario of SCENARIOS)
    test.serial(`${op}, ${scenario}: the same answer or error as HTTPFacilitatorClient`, async (t) => {
      const timeoutMs = scenario === 'hang' ? 300 : 5_000;
      const official = new HTTPFacilitatorClient({ url, timeoutMs });
      const ours = facilitatorClient({ url, timeoutMs });
      bodies.length = 0;
      const expected = await outcome(() => official[op](payloadFor(scenario), requirements));
      const actual = await outcome(() => ours[op](payloadFor(scenario), requirements));
      t.deepEqual(actual, expected);
      t.is(bodies.length, 2);
      t.is(bodies[1], bodies[0], 'the same request on the wire');
    });

test.serial('an unreachable facilitator: TypeError("fetch failed") from both', async (t) => {
  const closed = http.createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', () => resolve()));
  const gone = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  for (const op of ['verify', 'settle'] as const) {
    const expected = await outcome(() =>
      new HTTPFacilitatorClient({ url: gone, timeoutMs: 2_000 })[op](payloadFor('valid'), requirements),
    );
    const actual = await outcome(() =>
      facilitatorClient({ url: gone, timeoutMs: 2_000 })[op](payloadFor('valid'), requirements),
    );
    t.like(expected, { error: { class: 'TypeError', message: 'fetch failed' } });
    t.deepEqual(actual, expected);
  }
});
