import test from 'ava';
import { startWorld, type World } from '../support/world.js';
import { createHash } from 'node:crypto';
import { isRight } from 'fp-ts/lib/Either.js';
import { x402Client } from '@x402/core/client';
import { decodePaymentRequiredHeader, encodePaymentSignatureHeader } from '@x402/core/http';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { privateKeyToAccount } from 'viem/accounts';
import { rslDocument, type OriginSite } from '../../src/devnet/https-origin.js';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { checkpointsIn, verifyCheckpoint, verifyPaidReport } from '@rights-preflight/buyer';
import { buyerFor } from '../buyer/support/buyer-world.js';
import { runBuyerCli } from '../buyer/support/run-cli.js';
import { cli as opsCli } from '../ops/seed.js';
import { RevalidationResponse } from '@rights-preflight/wire/contract/revalidation.js';
import { digestOf } from '@rights-preflight/wire/evidence/digest.js';
import { createSigner } from '@rights-preflight/wire/evidence/envelope.js';
import { evidenceKeyFromSeed, loadEvidenceKey } from '../../src/evidence/keys.js';
import { revalidationInput } from '@rights-preflight/wire/revalidation/revalidation-input.js';
import { boundNonce } from '@rights-preflight/wire/payment/binding.js';
import { signPayment } from '../support/pay.js';
import { assertNoSecretsLogged } from '../support/secrets.js';
import { requiredServerUrl } from '../support/required-server.js';
import { dropSchema, freshSchemaName, withSchema } from '../store/fixtures/store-under-test.js';
import { post } from '../support/post.js';
import { gateHeaders, newKey } from './support/gate-buyer.js';

// Revalidation (docs/wire.md §14) against a real HTTPS publisher on loopback and the devnet: every report's
// resources carry a signed checkpoint; POST /v1/rights/revalidate re-observes them conditionally, says
// what changed, and is paid exactly like preflight. The publisher's site is mutated between steps.

const NEWS = 'https://news.example';
const ARTICLE = (n: number) => `${NEWS}/articles/${n}`;
const LICENSE = `${NEWS}/license.xml`;
const PERMITS = rslDocument({ url: '/', permits: ['ai-input', 'ai-index', 'search'] });
const PROHIBITS = rslDocument({ url: '/', permits: ['ai-index', 'search'], prohibits: ['ai-input'] });

const site: OriginSite = {
  'news.example': {
    '/robots.txt': { type: 'text/plain', body: `User-agent: *\nAllow: /\nLicense: ${LICENSE}\n` },
    '/license.xml': { type: 'application/rsl+xml', body: PERMITS, headers: { etag: '"v1"' } },
    ...Object.fromEntries(
      [1, 2, 3, 4, 5, 6].map((n) => [`/articles/${n}`, { body: `<html><head></head><body>${n}</body></html>` }]),
    ),
  },
};

let w: World;
let evidenceKey: string;
let revalidateUrl: string;
const secrets: { claims: string[]; paymentHeaders: string[] } = { claims: [], paymentHeaders: [] };
test.before(async () => {
  w = await startWorld({ site, tmpPrefix: 'rights-revalidate-' });
  evidenceKey = ((await (await fetch(`${w.url}/v1/capabilities`)).json()) as any).evidence.keys[0].public_key;
  revalidateUrl = `${w.url}/v1/rights/revalidate`;
});
test.after.always(async () => {
  await w?.close();
});

const buyer = () => w.devnet.buyers[0]!;

/** Sends `body` to `url` with `headers`: the 402, then the paid answer. */
async function payAt(url: string, body: unknown, headers: Record<string, string>) {
  const offer = await post(url, body, headers);
  if (offer.status !== 402) throw new Error(`expected 402, got ${offer.status}: ${offer.text}`);
  const payment = await signPayment(buyer().privateKey, offer.headers.get('payment-required')!);
  secrets.paymentHeaders.push(payment);
  const paid = await post(url, body, { ...headers, 'payment-signature': payment });
  if (paid.status !== 200) throw new Error(`expected 200, got ${paid.status}: ${paid.text}`);
  return { offer, paid, payment };
}

async function buyPreflight(resource: string) {
  const key = newKey();
  secrets.claims.push(key);
  const body = { resource, purpose: 'ai-input', tier: 'fresh', max_total_micro: '20000' };
  return (await payAt(`${w.url}/v1/rights/preflight`, body, { 'x-service-request': key })).paid.body;
}

async function buyGate(resources: string[]) {
  const key = newKey();
  const body = { resources, purpose: 'ai-input', max_total_micro: '200000' };
  const headers = await gateHeaders({
    url: w.url,
    body,
    key,
    payerKey: buyer().privateKey,
    coveredOrigins: w.origins.origins,
  });
  secrets.claims.push(...Object.values(headers));
  return (await payAt(`${w.url}/v1/rights/ingestion-gate`, body, headers)).paid.body;
}

const revalidationBody = (checkpoints: unknown[]) => ({ checkpoints, max_total_micro: '100000' });

async function revalidate(checkpoints: unknown[], key = newKey()) {
  secrets.claims.push(key);
  return payAt(revalidateUrl, revalidationBody(checkpoints), { 'x-service-request': key });
}

let first: any; // the single report on article 1
let gateReport: any; // the gate report on articles 2 and 3
let unchangedRevalidation: any;
let firstCheckpoint: any;

test.serial('a single report and a gate report carry per-resource checkpoints that verify offline', async (t) => {
  first = await buyPreflight(ARTICLE(1));
  const gate = await buyGate([ARTICLE(2), ARTICLE(3)]);
  gateReport = gate;
  for (const body of [first, gate]) {
    t.true(verifyPaidReport({ response: body }, evidenceKey).ok);
    for (const r of body.report.resources) {
      const v = verifyCheckpoint(r.checkpoint, evidenceKey);
      if (!v.ok) return t.fail(v.reason);
      t.is(v.checkpoint.resource, r.resource);
      t.is(v.checkpoint.classification, 'PERMITTED_BY_OBSERVED_DECLARATION');
      t.is(v.checkpoint.evidence_sha256, digestOf(body.evidence.payload));
      t.deepEqual(v.checkpoint.documents, [
        { url: LICENSE, channels: ['robots'], sha256: digestOfText(PERMITS), etag: '"v1"', last_modified: null },
      ]);
    }
  }
  firstCheckpoint = first.report.resources[0].checkpoint;
  // Another report's evidence: the checkpoint no longer belongs to the report it sits in. The delivery proof
  // is signed again over the changed report, so the checkpoint is all that is wrong.
  const moved = structuredClone(first);
  moved.report.resources[0].checkpoint = gate.report.resources[0].checkpoint;
  t.false(verifyPaidReport({ response: moved }, evidenceKey).ok);
  const sign = createSigner(await loadEvidenceKey(undefined, w.dataDir, { generate: false }));
  moved.delivery_proof = sign({ ...first.delivery_proof.payload, report_sha256: digestOf(moved.report) });
  const refused = verifyPaidReport({ response: moved }, evidenceKey);
  t.regex(refused.ok ? 'verified' : refused.reason, /another report's evidence/);
});

test.serial(
  'revalidating an unchanged URL: conditional request answered 304, changed false, one transfer',
  async (t) => {
    const before = await w.devnet.balanceOf(buyer().address);
    const seen = w.origins.requests.length;
    const { offer, paid } = await revalidate([firstCheckpoint]);
    unchangedRevalidation = paid.body;
    const caps = (await (await fetch(`${w.url}/v1/capabilities`)).json()) as any;
    const product = caps.products.find((p: any) => p.sku === 'rights.revalidate.v1');
    t.true(product.enabled);
    t.is(product.endpoint, '/v1/rights/revalidate');
    const price = BigInt(product.tiers.fresh.per_url_micro);
    t.is(decodePaymentRequiredHeader(offer.headers.get('payment-required')!).accepts[0]!.amount, price.toString());
    t.true(isRight(RevalidationResponse.decode(paid.body)), paid.text);
    const entry = paid.body.report.resources[0];
    t.is(paid.body.report.sku, 'rights.revalidate.v1');
    t.false(entry.changed);
    t.deepEqual(entry.changes, []);
    t.is(entry.classification, 'PERMITTED_BY_OBSERVED_DECLARATION');
    t.is(entry.previous_classification, 'PERMITTED_BY_OBSERVED_DECLARATION');
    t.is(entry.previous_report_sha256, digestOf(first.report));
    const license = w.origins.requests.slice(seen).filter((r) => r.path === '/license.xml');
    t.deepEqual(license, [{ host: 'news.example', path: '/license.xml', conditional: true, status: 304 }]);
    t.is(await w.devnet.balanceOf(buyer().address), before - price);
    t.true(verifyPaidReport({ response: paid.body }, evidenceKey).ok);
    t.true(verifyCheckpoint(entry.checkpoint, evidenceKey).ok);
  },
);

let prohibited: any;
test.serial(
  'after the publisher prohibits the purpose: changed, PROHIBITED, the document with both digests',
  async (t) => {
    site['news.example']!['/license.xml'] = { type: 'application/rsl+xml', body: PROHIBITS, headers: { etag: '"v2"' } };
    const { paid } = await revalidate([firstCheckpoint]);
    prohibited = paid.body;
    const entry = paid.body.report.resources[0];
    t.true(entry.changed);
    t.is(entry.classification, 'PROHIBITED_BY_OBSERVED_DECLARATION');
    t.is(entry.previous_classification, 'PERMITTED_BY_OBSERVED_DECLARATION');
    t.deepEqual(entry.changes[0], {
      kind: 'document-changed',
      url: LICENSE,
      old_sha256: digestOfText(PERMITS),
      new_sha256: digestOfText(PROHIBITS),
    });
    t.like(entry.changes[1], { kind: 'classification-changed', new: 'PROHIBITED_BY_OBSERVED_DECLARATION' });
    t.is(typeof entry.changes[1].rule, 'string');
    t.is(entry.previous_report_sha256, digestOf(first.report));
    t.true(verifyPaidReport({ response: paid.body }, evidenceKey).ok);
  },
);

test.serial(
  'a chain: revalidating the revalidation’s checkpoint names that revalidation as the previous report',
  async (t) => {
    const { paid } = await revalidate([prohibited.report.resources[0].checkpoint]);
    const entry = paid.body.report.resources[0];
    t.false(entry.changed);
    t.is(entry.previous_report_sha256, digestOf(prohibited.report));
  },
);

test.serial(
  'the publisher withdraws the declaration: a paid, signed report says NO_MACHINE_READABLE_DECLARATION',
  async (t) => {
    const pub = site['news.example']!;
    pub['/robots.txt'] = { type: 'text/plain', body: 'User-agent: *\nAllow: /\n' };
    delete pub['/license.xml'];
    try {
      const before = await w.devnet.balanceOf(buyer().address);
      const { offer, paid } = await revalidate([firstCheckpoint]);
      const amount = decodePaymentRequiredHeader(offer.headers.get('payment-required')!).accepts[0]!.amount;
      const entry = paid.body.report.resources[0];
      t.true(entry.changed);
      t.is(entry.classification, 'NO_MACHINE_READABLE_DECLARATION');
      t.false(entry.declaration_found);
      t.like(entry.changes[0], { kind: 'document-removed', url: LICENSE, old_sha256: digestOfText(PERMITS) });
      t.is(await w.devnet.balanceOf(buyer().address), before - BigInt(amount));
      t.true(verifyPaidReport({ response: paid.body }, evidenceKey).ok);
    } finally {
      pub['/robots.txt'] = { type: 'text/plain', body: `User-agent: *\nAllow: /\nLicense: ${LICENSE}\n` };
      pub['/license.xml'] = { type: 'application/rsl+xml', body: PERMITS, headers: { etag: '"v1"' } };
    }
  },
);

test.serial('refused before any offer, each with its own code, nothing stored or charged', async (t) => {
  const before = await w.devnet.balanceOf(buyer().address);
  const events = (await w.service.store.readAll(0n, 1_000_000)).length;
  const altered = structuredClone(firstCheckpoint);
  altered.payload.classification = 'PROHIBITED_BY_OBSERVED_DECLARATION';
  const foreignKey = evidenceKeyFromSeed(new Uint8Array(32).fill(7));
  const foreign = createSigner(foreignKey)({ ...firstCheckpoint.payload, key_id: foreignKey.keyId });
  const ours = createSigner(await loadEvidenceKey(undefined, w.dataDir, { generate: false }));
  const uncovered = ours({ ...firstCheckpoint.payload, resource: 'https://gone.example/articles/1' });
  const others = [2, 3, 4, 5].map((n) => ours({ ...firstCheckpoint.payload, resource: ARTICLE(n) }));
  const cases: [string, unknown[]][] = [
    ['CHECKPOINT_ALTERED', [altered]],
    ['CHECKPOINT_KEY_UNKNOWN', [foreign]],
    ['RESOURCE_NOT_COVERED', [uncovered]],
    ['CHECKPOINTS_TOO_MANY', [firstCheckpoint, ...others]],
    ['CHECKPOINT_DUPLICATE', [firstCheckpoint, firstCheckpoint]],
    ['CHECKPOINT_MALFORMED', [first.evidence]],
  ];
  for (const [code, checkpoints] of cases) {
    const res = await post(revalidateUrl, revalidationBody(checkpoints), { 'x-service-request': newKey() });
    t.is(res.status, 422, `${code}: ${res.text}`);
    t.is(res.body.error.code, code);
    t.is(res.headers.get('payment-required'), null);
  }
  t.is((await w.service.store.readAll(0n, 1_000_000)).length, events);
  t.is(await w.devnet.balanceOf(buyer().address), before);
});

test.serial(
  'paid twice at once: one transfer, the same delivery; the official x402 client is NONCE_NOT_BOUND, uncharged',
  async (t) => {
    const key = newKey();
    secrets.claims.push(key);
    const body = revalidationBody([firstCheckpoint]);
    const offer = await post(revalidateUrl, body, { 'x-service-request': key });
    t.is(offer.status, 402);
    const pr = offer.headers.get('payment-required')!;
    const question = revalidationInput({ checkpoints: [firstCheckpoint] });
    const nonce = boundNonce({ resource: revalidateUrl, key, input_sha256: question.input_sha256 });
    t.is((decodePaymentRequiredHeader(pr).extensions?.['service-request-binding'] as any).info.nonce, nonce);
    const before = await w.devnet.balanceOf(buyer().address);
    // The official x402 client, unmodified: it picks a random nonce, not the one bound to this request.
    const stock = new x402Client().register('eip155:*', new ExactEvmScheme(privateKeyToAccount(buyer().privateKey)));
    const random = encodePaymentSignatureHeader(await stock.createPaymentPayload(decodePaymentRequiredHeader(pr)));
    const refused = await post(revalidateUrl, body, { 'x-service-request': key, 'payment-signature': random });
    t.is(refused.body.error.code, 'NONCE_NOT_BOUND');
    t.is(await w.devnet.balanceOf(buyer().address), before);
    const payment = await signPayment(buyer().privateKey, pr);
    secrets.paymentHeaders.push(payment, random);
    const headers = { 'x-service-request': key, 'payment-signature': payment };
    const [a, b] = await Promise.all([post(revalidateUrl, body, headers), post(revalidateUrl, body, headers)]);
    t.is(a.status, 200, a.text);
    t.is(b.status, 200, b.text);
    t.is(a.text, b.text);
    const again = await post(revalidateUrl, body, headers); // the lost answer, asked again
    t.is(again.text, a.text);
    t.is(await w.devnet.balanceOf(buyer().address), before - BigInt(question.price_micro));
  },
);

test.serial(
  'buyer.revalidate verifies the checkpoints, pays the published price and verifies the report',
  async (t) => {
    const { buyer: b } = buyerFor(w);
    const r = await b.revalidate(checkpointsIn(first));
    if (r.status !== 'delivered') return t.fail(JSON.stringify(r));
    t.is(r.amount_micro, '10000');
    t.is((r.response.report as any).sku, 'rights.revalidate.v1');
    t.deepEqual(r.classifications, [
      { resource: ARTICLE(1), classification: 'PERMITTED_BY_OBSERVED_DECLARATION', decision: 'ALLOW_DECLARED' },
    ]);
    const altered = structuredClone(firstCheckpoint);
    altered.payload.observed_at = new Date(0).toISOString();
    const refused = await b.revalidate([altered]).catch((e: Error) => e);
    t.regex(String(refused), /REVALIDATION_CHECKPOINT_INVALID/);
  },
);

test.serial(
  'the CLI: revalidate <report.json>, then verify the revalidation and a checkpoint kept alone',
  async (t) => {
    const dir = await mkdtemp(path.join(tmpdir(), 'rights-revalidate-cli-'));
    const env = {
      RIGHTS_SERVICE_URL: w.url,
      BUYER_PRIVATE_KEY: buyer().privateKey,
      BUYER_NETWORK: w.devnet.network,
      BUYER_ASSET: w.devnet.usdc,
      BUYER_RECIPIENT: w.devnet.payTo,
      BUYER_EVIDENCE_KEY: evidenceKey,
    };
    // The CLI as a user runs it: its bin, in a process of its own.
    const run = async (args: string[]) => {
      const { code, stdout } = await runBuyerCli(args, env);
      return { code, out: stdout };
    };
    const reportFile = path.join(dir, 'first.json');
    const checkpointFile = path.join(dir, 'checkpoint.json');
    const outFile = path.join(dir, 'revalidation.json');
    await writeFile(reportFile, JSON.stringify(first));
    await writeFile(checkpointFile, JSON.stringify(firstCheckpoint));
    const bought = await run(['revalidate', reportFile, '--out', outFile, '--json']);
    t.is(bought.code, 0, bought.out);
    t.is(JSON.parse(bought.out).amount_micro, '10000');
    const verified = await run(['verify', outFile, '--json']);
    t.is(verified.code, 0, verified.out);
    t.is(JSON.parse(verified.out).classifications[0].classification, 'PERMITTED_BY_OBSERVED_DECLARATION');
    const alone = await run(['verify', checkpointFile, '--json']);
    t.is(alone.code, 0, alone.out);
    t.is(JSON.parse(alone.out).checkpoint.resource, ARTICLE(1));
    // A gate report verifies with its checkpoints, and one of them verifies kept alone.
    const gateFile = path.join(dir, 'gate.json');
    await writeFile(gateFile, JSON.stringify(gateReport));
    t.is((await run(['verify', gateFile, '--json'])).code, 0);
    await writeFile(checkpointFile, JSON.stringify(gateReport.report.resources[1].checkpoint));
    const gateAlone = await run(['verify', checkpointFile, '--json']);
    t.is(gateAlone.code, 0, gateAlone.out);
    t.is(JSON.parse(gateAlone.out).checkpoint.resource, ARTICLE(3));
    const tampered = structuredClone(firstCheckpoint);
    tampered.payload.resource = ARTICLE(2);
    await writeFile(checkpointFile, JSON.stringify(tampered));
    t.is((await run(['verify', checkpointFile, '--json'])).code, 1);
    await rm(dir, { recursive: true, force: true });
  },
);

function digestOfText(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

test.serial('ops compliance export lists each revalidation with its sku and previous_report_sha256', async (t) => {
  await w.service.stop(); // the embedded store admits one process: the operator runs after the service
  const env = { EVENT_STORE_URL: `file:${path.join(w.dataDir, 'events')}`, DATA_DIR: w.dataDir, LOG_LEVEL: 'silent' };
  const out = path.join(w.dataDir, 'export.jsonl');
  const range = ['--from', '2000-01-01', '--to', '2999-12-31'];
  const exported = await opsCli(['compliance', 'export', ...range, '--format', 'jsonl', '--out', out], env);
  t.is(exported.code, 0, exported.stderr);
  const rows = (await readFile(out, 'utf8'))
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  const single = rows.find((r) => r.purchase_id === first.report.purchase_id);
  t.like(single, { sku: 'rights.preflight.v1', previous_report_sha256: null });
  const again = rows.find((r) => r.purchase_id === unchangedRevalidation.report.purchase_id);
  t.like(again, {
    sku: 'rights.revalidate.v1',
    resource: ARTICLE(1),
    origin: NEWS,
    classification: 'PERMITTED_BY_OBSERVED_DECLARATION',
    report_sha256: digestOf(unchangedRevalidation.report),
    previous_report_sha256: digestOf(first.report),
  });
  const csv = await opsCli(['compliance', 'export', ...range, '--format', 'csv'], env);
  // The signals beside RSL (docs/wire.md §15) come after it: no earlier column moved.
  t.true(csv.stdout.split('\r\n')[0]!.endsWith(',previous_report_sha256,signals_summary,signals'));
});

// The essential path again on PostgreSQL, in the same world (devnet, publisher, evidence key): the service
// started on a fresh schema once the embedded store is done. The preflight's document bytes are lost with a
// restart, so the first revalidation asks unconditionally and still finds nothing changed (the checkpoint,
// not the memory, carries what was observed); the next one is answered 304; then the publisher prohibits.
const PG = requiredServerUrl(test, 'PG_TEST_URL', 'revalidation on PostgreSQL', { requiredInCi: true });
if (PG) {
  const schema = freshSchemaName();
  const env = { EVENT_STORE_URL: withSchema(PG, schema) };
  test.after.always(() => dropSchema(PG, schema));
  const startOnPostgres = async () => {
    await w.service.stop();
    await w.start({ env });
    revalidateUrl = `${w.url}/v1/rights/revalidate`;
  };
  const licenseRequests = async (checkpoint: unknown) => {
    const seen = w.origins.requests.length;
    const { paid } = await revalidate([checkpoint]);
    return { entry: paid.body.report.resources[0], license: w.origins.requests.slice(seen).filter(isLicense) };
  };
  const isLicense = (r: { path: string }) => r.path === '/license.xml';

  test.serial('on PostgreSQL: restart then unconditional, then 304, then changed; one transfer each', async (t) => {
    await startOnPostgres();
    const report = await buyPreflight(ARTICLE(4));
    const checkpoint = report.report.resources[0].checkpoint;
    await startOnPostgres(); // a restart: the fetch cache's bytes are gone
    const before = await w.devnet.balanceOf(buyer().address);
    const afterRestart = await licenseRequests(checkpoint);
    t.deepEqual(afterRestart.license, [{ host: 'news.example', path: '/license.xml', status: 200 }]);
    t.like(afterRestart.entry, { changed: false, classification: 'PERMITTED_BY_OBSERVED_DECLARATION' });
    const again = await licenseRequests(checkpoint);
    t.deepEqual(again.license, [{ host: 'news.example', path: '/license.xml', conditional: true, status: 304 }]);
    t.like(again.entry, { changed: false, previous_report_sha256: digestOf(report.report) });
    t.is(await w.devnet.balanceOf(buyer().address), before - 2n * 10_000n);
    const license = site['news.example']!['/license.xml']!;
    site['news.example']!['/license.xml'] = { ...license, body: PROHIBITS, headers: { etag: '"v2"' } };
    try {
      const { entry } = await licenseRequests(checkpoint);
      t.like(entry, { changed: true, classification: 'PROHIBITED_BY_OBSERVED_DECLARATION' });
      t.deepEqual(entry.changes[0], {
        kind: 'document-changed',
        url: LICENSE,
        old_sha256: digestOfText(PERMITS),
        new_sha256: digestOfText(PROHIBITS),
      });
      t.is(entry.previous_report_sha256, digestOf(report.report));
      t.is(await w.devnet.balanceOf(buyer().address), before - 3n * 10_000n);
    } finally {
      site['news.example']!['/license.xml'] = license;
    }
  });

  test.serial('on PostgreSQL: ops compliance report counts the 3 revalidations and the 1 that changed', async (t) => {
    const html = path.join(w.dataDir, 'report.html');
    const reported = await opsCli(['compliance', 'report', '--out', html], {
      ...env,
      DATA_DIR: w.dataDir,
      LOG_LEVEL: 'silent',
    });
    t.is(reported.code, 0, reported.stderr);
    const page = await readFile(html, 'utf8');
    t.regex(page, /data-total="reports">4</, 'the preflight and the three revalidations');
    t.regex(page, /data-total="revalidations">3</);
    t.regex(page, /data-total="changed">1</);
  });
}

test.serial('no secret in the service log', (t) => {
  assertNoSecretsLogged(t, w.logs(), secrets);
});
