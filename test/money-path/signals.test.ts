import test from 'ava';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { privateKeyToAccount } from 'viem/accounts';
import { createBuyer, memoryCheckpointStore, privateKeyAccount, verifySavedReport } from '@rights-preflight/buyer';
import { BASE_USDC } from '@rights-preflight/wire/payment/x402-constants.js';
import { singleReportPrice } from '@rights-preflight/wire/pricing/prices.js';
import type { SettlementScript } from '../support/scripted-settlement.js';
import { FAST_PAY_TO, useFastWorld } from '../support/fast-world.js';
import { postQuote } from '../support/money-env.js';
import { SIGNAL_PAGE, TDMREP_FILE } from '../support/publishers.js';
import { runBuyerCli } from '../buyer/support/run-cli.js';
import { Writable } from 'node:stream';
import { rebuild } from '../../projections/catch-up.js';
import { writeComplianceExport } from '../../projections/compliance/export-format.js';
import { renderComplianceReport } from '../../projections/compliance/report-html.js';
import { sqlFactFeed } from '../../projections/feed/sql-feed.js';
import { complianceDaily, complianceRows } from '../../projections/queries/compliance.js';
import { openReadModels } from '../../projections/read-models.js';
import { streamName } from '../../streams/purchase/purchase-id.js';
import { embeddedStore } from '../store/fixtures/store-under-test.js';

// The AI-use signals beside RSL (docs/wire.md §15) end to end on the fast world: the signal publishers of
// test/support/publishers.ts over HTTPS on loopback, the real quote and report routes, the buyer library
// paying through the scripted settlement, and verify offline. Readings asserted here are what the signal
// readers (src/signals/) give; the plumbing alone (fields present, signed, fetched once) is its own tests.

const BUYER_KEY = `0x${'11'.repeat(32)}` as const;
const PAYER = privateKeyToAccount(BUYER_KEY).address;
/** Every settlement succeeds as a transaction of its own (tests run concurrently), at the single report's price. */
const script: SettlementScript = {
  used: [false],
  get settle() {
    const transaction = `0x${randomBytes(32).toString('hex')}` as const;
    const amount = singleReportPrice('fresh');
    const network = 'eip155:8453';
    const transfer = {
      transaction,
      from: PAYER,
      to: FAST_PAY_TO,
      value: amount,
      block: 101n,
      asset: BASE_USDC,
      network,
    };
    return { kind: 'success' as const, transaction, payer: PAYER, amount: amount.toString(), transfer };
  },
};
const world = useFastWorld(script);

const quote = (resource: string, purpose = 'ai-train') =>
  postQuote(world.url, { resource, purpose, tier: 'fresh', max_total_micro: '50000' });

/** A buyer pinned to the fast world; each purchase settles as a fresh scripted transaction. */
function fastBuyer(holdOnOtherSignals = true) {
  return createBuyer({
    baseUrl: world.url,
    account: privateKeyAccount(BUYER_KEY),
    pins: { network: 'eip155:8453', asset: BASE_USDC, recipient: FAST_PAY_TO, evidenceKey: world.evidenceKey },
    maxPerReportMicro: 50_000n,
    maxPerTaskMicro: 10_000_000n,
    checkpointStore: memoryCheckpointStore(),
    holdOnOtherSignals,
  });
}

async function buy(resource: string, purpose: 'ai-train' | 'ai-input' = 'ai-train', hold = true) {
  const r = await fastBuyer(hold).buyReport({ resource, purpose, tier: 'fresh' });
  if (r.status !== 'delivered') throw new Error(`not delivered: ${JSON.stringify(r)}`);
  return r;
}

const reportResource = (r: Awaited<ReturnType<typeof buy>>) =>
  (r.response.report as { resources: Record<string, any>[] }).resources[0]!;

/** An observation nobody made: added to a signed reading, the evidence no longer verifies. */
const FORGED = {
  standard: 'tdmrep',
  channel: 'header',
  sha256: '0'.repeat(64),
  statement: 'tdm-reservation: 0',
  readings: [{ token: 'ai-train', verdict: 'allowed', rule: 'forged' }],
};

// --- The plumbing: fields present, signed, fetched once and bounded, whatever the readers say. ---

test('paid report signals and summary are signed in the evidence; verify refuses them altered', async (t) => {
  const r = await buy(SIGNAL_PAGE('tdmrep-header.example'));
  const entry = reportResource(r);
  t.true(Array.isArray(entry.signals));
  t.is(typeof entry.signals_summary, 'string');
  const evidence = (r.response.evidence as { payload: { resources: Record<string, any>[] } }).payload.resources[0]!;
  t.is(evidence.signals_summary, entry.signals_summary);
  t.deepEqual(evidence.reading.signals, entry.signals, 'the observations are the signed reading’s');
  t.true(verifySavedReport(r.saved, world.evidenceKey).ok);
  const altered = structuredClone(r.saved) as any;
  altered.response.report.resources[0].signals_summary =
    entry.signals_summary === 'CONSISTENT' ? 'NONE_OBSERVED' : 'CONSISTENT';
  t.false(verifySavedReport(altered, world.evidenceKey).ok);
  const inEvidence = structuredClone(r.saved) as any;
  const signed = inEvidence.response.evidence.payload.resources[0];
  signed.reading.signals = [...signed.reading.signals, { ...FORGED, url: entry.resource ?? SIGNAL_PAGE('x') }];
  t.deepEqual(verifySavedReport(inEvidence, world.evidenceKey), {
    ok: false,
    reason: 'evidence signature does not verify with the pinned key',
  });
});

test.serial('a warm-cache quote fetches nothing: tdmrep.json is cached with robots.txt and the page', async (t) => {
  const resource = SIGNAL_PAGE(TDMREP_FILE, '/open/a');
  t.is((await quote(resource)).status, 200);
  const tdmrep = world.origins.requests.filter((q) => q.host === TDMREP_FILE && q.path === '/.well-known/tdmrep.json');
  t.true(tdmrep.length >= 1, 'the origin’s tdmrep.json was fetched');
  const before = world.origins.requests.length;
  const again = await quote(resource);
  t.is(again.status, 200);
  t.is(world.origins.requests.length, before, 'nothing more was fetched');
  t.truthy(again.body.signals_preview);
});

for (const host of ['tdmrep-huge.example', 'tdmrep-redirect.example', 'tdmrep-forbidden.example']) {
  test(`an unusable tdmrep.json (${host}) is a diagnostic, never an error; RSL reads as before`, async (t) => {
    const q = await quote(SIGNAL_PAGE(host));
    t.is(q.status, 200);
    t.true(q.body.available);
    t.is(q.body.decision_preview.classification, 'PERMITTED_BY_OBSERVED_DECLARATION');
    t.false(q.body.signals_preview.restricts_purpose);
    const quoted = (await world.store.readAll(0n, 100_000)).find(
      (e) => e.type === 'Quoted' && (e.data as any).purchase_id === q.body.purchase_id,
    );
    const reading = (quoted!.data as any).reading;
    t.true(reading.discovery_complete, 'tdmrep.json is no RSL channel');
    const code = { 'tdmrep-huge.example': 'FETCH_TOO_LARGE', 'tdmrep-redirect.example': 'TDMREP_REDIRECT' }[host];
    t.true(
      reading.diagnostics.some((d: string) => d.includes('tdmrep.json') && d.includes(code ?? 'TDMREP_HTTP_STATUS')),
    );
  });
}

// --- What the readers (src/signals/) give each publisher, end to end. ---

const CHANNELS: [host: string, standard: string, channel: string][] = [
  ['tdmrep-header.example', 'tdmrep', 'header'],
  ['tdmrep-meta.example', 'tdmrep', 'meta'],
  ['aipref-header.example', 'aipref', 'header'],
  ['aipref-robots.example', 'aipref', 'robots'],
  ['content-signals.example', 'content-signals', 'robots'],
  ['noai-meta.example', 'noai', 'meta'],
  ['noai-header.example', 'noai', 'header'],
];

for (const [host, standard, channel] of CHANNELS) {
  test(`${standard} ${channel}: previewed, reserves ai-train in the paid report, verify checks it`, async (t) => {
    const q = await quote(SIGNAL_PAGE(host));
    t.true(q.body.available);
    t.deepEqual(q.body.signals_preview, {
      standards: [standard],
      restricts_purpose: true,
      summary: 'RESTRICTED_BY_OTHER_SIGNAL',
    });
    const r = await buy(SIGNAL_PAGE(host));
    const entry = reportResource(r);
    t.is(entry.classification, 'PERMITTED_BY_OBSERVED_DECLARATION', 'RSL reads as it did');
    t.is(entry.signals_summary, 'RESTRICTED_BY_OTHER_SIGNAL');
    const seen = entry.signals.find((o: any) => o.standard === standard && o.channel === channel);
    t.is(seen?.readings.find((x: any) => x.token === 'ai-train')?.verdict, 'reserved');
    t.truthy(r.ingestion_hold, 'the buyer holds ingestion by default');
    const v = verifySavedReport(r.saved, world.evidenceKey);
    t.true(v.ok && v.signals[0]?.signals_summary === 'RESTRICTED_BY_OTHER_SIGNAL');
    const altered = structuredClone(r.saved) as any;
    const reading = altered.response.report.resources[0].signals.find((o: any) => o.standard === standard).readings;
    reading.find((x: any) => x.token === 'ai-train').verdict = 'allowed';
    t.false(verifySavedReport(altered, world.evidenceKey).ok, 'an altered signal is refused');
  });
}

test('RSL permits ai-train free, tdmrep.json reserves: PERMITTED, RESTRICTED_BY_OTHER_SIGNAL, held', async (t) => {
  const r = await buy(SIGNAL_PAGE(TDMREP_FILE, '/reserved/a'));
  const entry = reportResource(r);
  t.is(entry.classification, 'PERMITTED_BY_OBSERVED_DECLARATION');
  t.is(entry.signals_summary, 'RESTRICTED_BY_OTHER_SIGNAL');
  const file = entry.signals.find((o: any) => o.standard === 'tdmrep' && o.channel === 'well-known');
  t.is(file.url, `https://${TDMREP_FILE}/.well-known/tdmrep.json`);
  t.regex(file.statement, /\/reserved\/\*/, 'the matched rule, by its location pattern');
  t.deepEqual(r.ingestion_hold, {
    reason: 'RESTRICTED_BY_OTHER_SIGNAL',
    resources: [{ resource: SIGNAL_PAGE(TDMREP_FILE, '/reserved/a'), standards: ['tdmrep'] }],
  });
  const open = await quote(SIGNAL_PAGE(TDMREP_FILE, '/open/a'));
  t.false(open.body.signals_preview.restricts_purpose, 'the rule of /open/* does not reserve');
  const unheld = await buy(SIGNAL_PAGE(TDMREP_FILE, '/reserved/a'), 'ai-train', false);
  t.is(unheld.ingestion_hold, null, 'holding turned off');
});

test('no RSL, Content-Usage train-ai=n: unavailable, charge 0, the free preview names the restriction', async (t) => {
  const q = await quote(SIGNAL_PAGE('norsl-aipref.example'));
  t.is(q.status, 200);
  t.false(q.body.available);
  t.is(q.body.reason, 'NO_VERIFIABLE_DECLARATION');
  t.is(q.body.charge_micro, '0');
  t.deepEqual(q.body.signals_preview, {
    standards: ['aipref'],
    restricts_purpose: true,
    summary: 'RESTRICTED_BY_OTHER_SIGNAL',
  });
  const r = await fastBuyer().buyReport({
    resource: SIGNAL_PAGE('norsl-aipref.example'),
    purpose: 'ai-train',
    tier: 'fresh',
  });
  t.like(r, { status: 'unavailable', charge_micro: '0', signals_preview: q.body.signals_preview });
});

test('a malformed statement of every standard is silent with a reason, never an error', async (t) => {
  const q = await quote(SIGNAL_PAGE('malformed.example'));
  t.is(q.status, 200);
  t.deepEqual(q.body.signals_preview, { standards: [], restricts_purpose: false, summary: 'NONE_OBSERVED' });
  const entry = reportResource(await buy(SIGNAL_PAGE('malformed.example')));
  t.is(entry.signals_summary, 'NONE_OBSERVED');
  const standards = new Set(entry.signals.map((o: any) => `${o.standard} ${o.channel}`));
  for (const seen of ['tdmrep well-known', 'tdmrep header', 'tdmrep meta', 'aipref header', 'aipref robots'])
    t.true(standards.has(seen), `${seen} observed`);
  t.true(standards.has('content-signals robots'));
  for (const o of entry.signals) for (const x of o.readings) t.is(x.verdict, 'silent', `${o.standard} ${o.channel}`);
  t.true(entry.signals.every((o: any) => o.readings.every((x: any) => x.rule.length > 0)));
});

test('the buyer CLI holds ingestion (exit 3) unless --ignore-other-signals; verify shows the signals', async (t) => {
  const dir = await mkdtemp(path.join(tmpdir(), 'rights-signals-cli-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  // The CLI as a user runs it (its bin, in a process of its own), against the fast world's loopback port.
  const cli = async (...args: string[]) => {
    const { code, stdout, stderr } = await runBuyerCli(args, { BUYER_PRIVATE_KEY: BUYER_KEY });
    return { code, out: stdout, err: stderr };
  };
  const pins = ['--service', world.url, '--network', 'eip155:8453', '--asset', BASE_USDC];
  pins.push('--recipient', FAST_PAY_TO, '--key', world.evidenceKey);
  const resource = SIGNAL_PAGE(TDMREP_FILE, '/reserved/a');
  const file = path.join(dir, 'held.json');
  const held = await cli('buy', resource, '--purpose', 'ai-train', '--out', file, ...pins);
  t.is(held.code, 3, held.err);
  t.is(JSON.parse(held.out).ingestion_hold.reason, 'RESTRICTED_BY_OTHER_SIGNAL');
  t.regex(held.err, /ingestion held: RESTRICTED_BY_OTHER_SIGNAL/);
  const ignored = await cli(
    'buy',
    resource,
    '--purpose',
    'ai-train',
    '--out',
    `${file}.2`,
    '--ignore-other-signals',
    ...pins,
  );
  t.is(ignored.code, 0, ignored.err);
  t.is(JSON.parse(ignored.out).ingestion_hold, null);
  const verified = await cli('verify', file, '--key', world.evidenceKey);
  t.is(verified.code, 0, verified.err);
  t.regex(verified.out, /signals beside RSL RESTRICTED_BY_OTHER_SIGNAL/);
  t.regex(
    verified.out,
    /tdmrep well-known https:\/\/tdmrep-file\.example\/\.well-known\/tdmrep\.json .*ai-train reserved/,
  );
  const saved = JSON.parse(await readFile(file, 'utf8'));
  saved.response.report.resources[0].signals[0].statement = '[]';
  await writeFile(file, JSON.stringify(saved));
  const refused = await cli('verify', file, '--key', world.evidenceKey);
  t.is(refused.code, 1);
  t.regex(refused.err, /^FAIL: report digest does not match/);
});

// --- The read side (docs/wire.md §15): the paid report's events on a SQL store, through facts v4 and the read
// models, into the compliance export and the HTML report's count. ---

test('a report another signal restricted: its summary and observations in the export, counted in HTML', async (t) => {
  const r = await buy(SIGNAL_PAGE(TDMREP_FILE, '/reserved/b'));
  const entry = reportResource(r);
  const id = r.purchase_id;
  const under = await embeddedStore();
  try {
    const events = await world.store.readStream(streamName(id));
    await under.store.append(streamName(id), events, 'no_stream');
    const models = await openReadModels(under.store);
    await rebuild(models.db, sqlFactFeed(under.store.sql!));
    const rows = [];
    for await (const row of complianceRows(models.db)) rows.push({ ...row, previous_report_sha256: null });
    const observed = entry.signals.map((o: { standard: string; sha256: string }) => `${o.standard}:${o.sha256}`);
    t.true(
      observed.some((o: string) => o.startsWith('tdmrep:')),
      'the tdmrep.json observation among them',
    );
    t.like(rows, [
      { classification: 'PERMITTED_BY_OBSERVED_DECLARATION', signals_summary: 'RESTRICTED_BY_OTHER_SIGNAL' },
    ]);
    t.deepEqual(rows[0]!.signals, observed);
    let csv = '';
    const out = new Writable({ write: (chunk, _enc, done) => done(void (csv += String(chunk))) });
    await writeComplianceExport(
      (async function* () {
        yield* rows;
      })(),
      'csv',
      out,
    );
    t.true(csv.split('\r\n')[1]!.endsWith(`,RESTRICTED_BY_OTHER_SIGNAL,${observed.join(' ')}`), 'the last two columns');
    const html = renderComplianceReport({ generatedAt: 'now', range: {}, daily: await complianceDaily(models.db) });
    t.regex(html, /data-total="restricted_by_other_signal">1</);
    t.regex(html, /1 reports [^<]* · 1 restricted by another signal<\/p>/);
    await models.close();
  } finally {
    await under.dispose();
  }
});
