import test from 'ava';
import { startWorld, type World } from '../support/world.js';
import { rslDocument, type OriginSite } from '../../src/devnet/https-origin.js';
import { verifyPaidReport } from '@rights-preflight/buyer';
import { REPORT_ENTRY_MAX_BYTES, TRUNCATION_MARK } from '../../src/rsl/bounded-reading.js';
import { signPayment } from '../support/pay.js';
import { post } from '../support/post.js';

// A hostile publisher (real HTTPS on loopback) cannot push a report entry past REPORT_ENTRY_MAX_BYTES
// (docs/wire.md §16): a 480 KB `Content-Signal:` line whose ignored entries the rule used to list in full,
// a hundred long reserving lines, an RSL document full of problems, long header statements. The cut is
// marked in the signed report (`truncated: true`, texts ending in "…"), and what reserves is kept, so the
// summary is what it would be with everything recorded.

const junk = (n: number, width: number) =>
  Array.from({ length: n }, (_, i) => `junk-${i}=${'m'.repeat(width)}`).join(', ');
const LINE_480K = `Content-Signal: ai-train=no, ${junk(16_000, 14)}`;
const MANY_LINES = Array.from(
  { length: 120 },
  (_, i) => `Content-Signal: search=yes, ai-input=no, ai-train=no, ${junk(100, 20 + (i % 7))}`,
).join('\n');
const license = () => rslDocument({ url: '/', permits: ['ai-input', 'ai-index', 'search'] });
const NOISY_LICENSE = license().replace(
  '</rsl>',
  `${Array.from({ length: 3000 }, (_, i) => `<unknown-${i} note="${'n'.repeat(40)}"/>`).join('')}</rsl>`,
);

const LONG_METAS = Array.from(
  { length: 40 },
  (_, i) => `<meta name="robots" content="noai, x${i}-${'q'.repeat(3000)}">`,
).join('');

const site: OriginSite = {
  'one-line.example': {
    '/robots.txt': {
      type: 'text/plain',
      body: `User-agent: *\nAllow: /\nLicense: https://one-line.example/license.xml\n${LINE_480K}\n`,
    },
    '/license.xml': { type: 'application/rsl+xml', body: license() },
    '/a': { body: '<html><head></head><body>a</body></html>' },
  },
  'many-lines.example': {
    '/robots.txt': {
      type: 'text/plain',
      body: `User-agent: *\nAllow: /\nLicense: https://many-lines.example/license.xml\n${MANY_LINES}\n`,
    },
    '/license.xml': { type: 'application/rsl+xml', body: NOISY_LICENSE },
    '/a': {
      body: `<html><head>${LONG_METAS}</head><body>a</body></html>`,
      headers: { 'content-usage': `train-ai=n, ${'z'.repeat(6000)}` },
    },
  },
};

let w: World;
let evidenceKey: string;
test.before(async () => {
  w = await startWorld({ site, logLevel: 'warn', tmpPrefix: 'rights-report-size-' });
  evidenceKey = ((await (await fetch(`${w.url}/v1/capabilities`)).json()) as any).evidence.keys[0].public_key;
});
test.after.always(async () => {
  await w?.close();
});

async function buy(resource: string): Promise<{ text: string; body: any }> {
  const quoted = await post(`${w.url}/v1/rights/quote`, {
    resource,
    purpose: 'ai-input',
    tier: 'fresh',
    max_total_micro: '20000',
  });
  if (quoted.status !== 200 || !quoted.body.available) throw new Error(`quote: ${quoted.status} ${quoted.text}`);
  const { claim_token: claim, report_url: reportUrl } = quoted.body;
  const offer = await fetch(`${w.url}${reportUrl}`, { headers: { 'x-service-claim': claim } });
  const payment = await signPayment(w.devnet.buyers[0]!.privateKey, offer.headers.get('payment-required')!);
  const paid = await fetch(`${w.url}${reportUrl}`, {
    headers: { 'x-service-claim': claim, 'payment-signature': payment },
  });
  const text = await paid.text();
  if (paid.status !== 200) throw new Error(`report: ${paid.status} ${text.slice(0, 500)}`);
  return { text, body: JSON.parse(text) };
}

const bytes = (v: unknown) => Buffer.byteLength(JSON.stringify(v));

for (const origin of ['one-line.example', 'many-lines.example']) {
  const title = `${origin}: every report entry stays within REPORT_ENTRY_MAX_BYTES, marked as cut, and still reserves`;
  test(title, async (t) => {
    const { text, body } = await buy(`https://${origin}/a`);
    t.true(verifyPaidReport({ response: body }, evidenceKey).ok, 'the signed report verifies');
    const [entry] = body.report.resources;
    t.log(`report ${text.length} bytes; entry ${bytes(entry)}; evidence ${bytes(body.evidence)}`);
    t.true(bytes(entry) <= REPORT_ENTRY_MAX_BYTES, `entry ${bytes(entry)} bytes`);
    // The whole paid answer: the entry, the evidence that holds its reading, the proof around them.
    t.true(text.length <= 3 * REPORT_ENTRY_MAX_BYTES, `answer ${text.length} bytes`);
    t.is(entry.truncated, true);
    t.is(body.evidence.payload.resources[0].reading.truncated, true);
    const cut = entry.signals.flatMap((o: any) => [o.statement, ...o.readings.map((r: any) => r.rule)]);
    t.true(cut.some((s: string) => s.endsWith(TRUNCATION_MARK)));
    t.true(
      cut.every((s: string) => s.length <= 1024),
      'no text longer than its cap',
    );
    // ai-train is reserved by the publisher's Content-Signal lines: kept whatever was left out.
    const reservesTrain = entry.signals.some(
      (o: any) =>
        o.standard === 'content-signals' &&
        o.readings.some((r: any) => r.token === 'ai-train' && r.verdict === 'reserved'),
    );
    t.true(reservesTrain);
  });
}
