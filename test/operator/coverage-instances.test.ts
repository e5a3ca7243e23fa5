import { randomBytes } from 'node:crypto';
import test from 'ava';
import { runCli } from '../../ops/cli.js';
import { DECLARED, getReport, postQuote } from '../support/money-env.js';
import { signPayment } from '../support/pay.js';
import { relayerPool } from '../support/relayer-pool.js';
import { requiredServerUrl } from '../support/required-server.js';
import { useWorld } from '../support/world.js';
import { onOperatorSocket } from './operator-socket.js';

// Coverage is the ledger's (docs/decisions.md, "Coverage in the ledger"): two service instances on one
// PostgreSQL schema, one in this process (its operator socket answers the operator API), one in a
// process of its own. An origin reviewed and added through the first is quotable through the second
// without a restart; withdrawn, it is refused on both; a purchase quoted before the withdrawal is
// delivered under the terms its signed quote fixed. The second instance's COVERED_ORIGINS names the
// origin too, and is ignored: it only seeds an empty ledger. The day's compliance report and export
// (--of coverage) name every origin covered during it.
const PG = requiredServerUrl(test, 'PG_TEST_URL', 'coverage ledger across two instances on PostgreSQL', {
  requiredInCi: true,
});

const PUB = new URL(DECLARED).origin;
const QUOTE = { resource: DECLARED, purpose: 'ai-input', tier: 'fresh', max_total_micro: '50000' };

const coveredBy = async (url: string): Promise<string[]> =>
  ((await (await fetch(`${url}/v1/capabilities`)).json()) as any).coverage.origins;

/** Polls an instance's capabilities until `ok` holds of its origins (bounded: a missed change fails the test). */
async function untilCoverage(url: string, ok: (origins: string[]) => boolean): Promise<number> {
  const started = Date.now();
  while (!ok(await coveredBy(url))) {
    if (Date.now() - started > 15_000) throw new Error(`${url}: coverage did not change`);
    await new Promise((r) => setTimeout(r, 25));
  }
  return Date.now() - started;
}

if (PG) {
  const storeUrl = `${PG}?schema=coverage_${randomBytes(4).toString('hex')}`;
  const w = useWorld({ service: false, eventStoreUrl: storeUrl, logLevel: 'info' });

  test.serial('added through one instance, quotable through the other; withdrawn, refused on both', async (t) => {
    const pool = await relayerPool(w.devnet.rpcUrl, 2);
    const all = w.origins.origins;
    t.true(all.includes(PUB) && all.length > 1);
    const seed = all.filter((o) => o !== PUB);
    const a = await w.start({ env: { ...pool.env, COVERED_ORIGINS: seed.join(',') } });
    // The ledger was seeded by the first instance: this one's COVERED_ORIGINS (every origin) is ignored.
    const b = await w.startProcess({ ...pool.env, COVERED_ORIGINS: all.join(',') });
    const socket = a.operator.socketPath!;
    const api = (method: string, path: string, body?: unknown) =>
      onOperatorSocket(socket, method, `/operator/v1${path}`, body);

    t.deepEqual(await coveredBy(b.url), seed);
    t.deepEqual(await coveredBy(a.url), seed);
    const before = await postQuote(b.url, QUOTE);
    t.is(before.status, 422);
    t.is(before.body.error.code, 'RESOURCE_NOT_COVERED');

    const change = { origin: PUB, operator: 'ana', reason: 'the publisher asked to be covered' };
    const unreviewed = await api('POST', '/coverage/add', change);
    t.is(unreviewed.status, 409);
    t.is(unreviewed.body.refused.code, 'COVERAGE_NOT_REVIEWED');

    const review = await api('POST', '/coverage/review', change);
    t.is(review.status, 200, JSON.stringify(review.body));
    const observed = review.body.change.event.data.observed;
    t.is(observed.resource, `${PUB}/`);
    t.true(observed.declaration_found, 'the review ran discovery on the origin before it was covered');
    t.deepEqual(
      observed.purposes.map((p: { purpose: string }) => p.purpose),
      ['ai-input', 'ai-index', 'ai-train', 'search'],
    );
    t.false((await coveredBy(b.url)).includes(PUB), 'a review alone covers nothing');

    const added = await api('POST', '/coverage/add', change);
    t.is(added.status, 200, JSON.stringify(added.body));
    t.log(`the other instance showed the added origin after ${await untilCoverage(b.url, (o) => o.includes(PUB))} ms`);
    const quoted = await postQuote(b.url, QUOTE);
    t.is(quoted.status, 200, JSON.stringify(quoted.body));

    // Quoted (and offered) before the withdrawal, on the second instance.
    const claim = { 'x-service-claim': quoted.body.claim_token as string };
    const offer = await getReport(b.url, quoted.body.report_url, claim);
    t.is(offer.status, 402);

    const withdrawn = await api('POST', '/coverage/withdraw', { ...change, reason: 'the publisher left' });
    t.is(withdrawn.status, 200, JSON.stringify(withdrawn.body));
    await untilCoverage(b.url, (o) => !o.includes(PUB));
    await untilCoverage(a.url, (o) => !o.includes(PUB));
    for (const url of [a.url, b.url]) {
      const refused = await postQuote(url, QUOTE);
      t.is(refused.status, 422);
      t.is(refused.body.error.code, 'RESOURCE_NOT_COVERED');
    }
    t.is((await api('POST', '/coverage/withdraw', change)).body.refused.code, 'COVERAGE_NOT_COVERED');

    // The quote fixed the terms and the reading: paid on the first instance after the withdrawal, it is
    // delivered as quoted (the report is drafted from the quote's reading; nothing is fetched).
    const header = await signPayment(w.devnet.buyers[0]!.privateKey, offer.headers.get('payment-required')!);
    const delivered = await getReport(a.url, quoted.body.report_url, { ...claim, 'payment-signature': header });
    t.is(delivered.status, 200, delivered.text);
    const proof = delivered.body.delivery_proof.payload;
    t.is(proof.purchase_id, quoted.body.purchase_id);
    t.is(proof.settlement.amount, quoted.body.charge_micro, 'charged the quoted amount');
    t.is(
      delivered.body.evidence.payload.resources[0].reading.observed_at <= withdrawn.body.change.event.data.at,
      true,
      'the report is the reading made at quote time, before the withdrawal',
    );

    const history = await api('GET', `/coverage/history?origin=${encodeURIComponent(PUB)}`);
    t.deepEqual(
      history.body.history.map((e: { type: string; data: { operator: string } }) => [e.type, e.data.operator]),
      [
        ['OriginReviewed', 'ana'],
        ['OriginAdded', 'ana'],
        ['OriginWithdrawn', 'ana'],
      ],
    );

    // The console's coverage page shows the ledger: the origin withdrawn, its review, the history.
    const consolePage = await onOperatorSocket(socket, 'GET', '/console/coverage');
    t.is(consolePage.status, 200);
    const row = /<tr><td><code>https:\/\/pub\.example<\/code><\/td><td>(\w+)<\/td>.*?<\/tr>/.exec(consolePage.body);
    t.is(row?.[1], 'withdrawn');
    t.regex(row![0], /RSL declaration: found/);
    t.regex(row![0], /data-api="\/operator\/v1\/coverage\/review"/, 'a withdrawn origin is reviewed again first');
    t.regex(consolePage.body, /<td>OriginWithdrawn<\/td><td><code>https:\/\/pub\.example<\/code><\/td><td>ana<\/td>/);

    // The compliance report says what was covered on the day of the delivery, and the day's changes.
    const report = await onOperatorSocket(socket, 'GET', '/operator/v1/compliance/report');
    t.is(report.status, 200);
    const today = new Date().toISOString().slice(0, 10);
    const day = new RegExp(`<tr><th scope="row">${today}</th><td>(.*?)</td><td>(.*?)</td></tr>`).exec(report.body);
    t.truthy(day, 'a coverage row for the day of the delivery');
    t.true(day![1]!.split('<br>').includes(PUB), 'covered during the day');
    t.regex(day![2]!, /OriginWithdrawn https:\/\/pub\.example by ana/);

    // So does the compliance export of the day (--of coverage): one record per origin covered at some
    // moment of it, through the operator API and through `ops` beside the running instances.
    const exported = await onOperatorSocket(
      socket,
      'GET',
      `/operator/v1/compliance/export?from=${today}&to=${today}&format=csv&of=coverage`,
    );
    t.is(exported.status, 200, String(exported.body));
    const csv = (exported.body as string).split('\r\n');
    t.is(csv[0], 'day,origin,covered_at_start,covered_at_end,changes');
    t.true(
      csv.some((l) => l.startsWith(`${today},${PUB},false,false,"`)),
      'added and withdrawn during the day',
    );
    const records = await (async () => {
      const lines: string[] = [];
      const quiet = { out: (l: string) => lines.push(l), err: () => {} };
      const args = ['compliance', 'export', '--from', today, '--to', today, '--format', 'jsonl', '--of', 'coverage'];
      t.is(await runCli(args, quiet, { ...w.env, ...pool.env, LOG_LEVEL: 'silent' }), 0);
      return lines.map((l) => JSON.parse(l) as { day: string; origin: string; changes: { type: string }[] });
    })();
    t.deepEqual(
      records.map((r) => r.origin),
      [...all].sort(),
      'every origin covered that day: the seed, and the one added then withdrawn',
    );
    t.true(records.every((r) => r.day === today));
    t.deepEqual(
      records.find((r) => r.origin === PUB)?.changes.map((c) => c.type),
      ['OriginAdded', 'OriginWithdrawn'],
    );

    // `npm run ops -- coverage …` beside the running instances reaches the first one's operator socket.
    const out: string[] = [];
    const io = { out: (l: string) => out.push(l), err: (l: string) => out.push(l) };
    const env = { ...w.env, ...pool.env, LOG_LEVEL: 'silent' };
    t.is(await runCli(['coverage', 'list', '--json'], io, env), 0);
    const listed = JSON.parse(out.pop()!).coverage as { origin: string; status: string }[];
    t.is(listed.find((l) => l.origin === PUB)?.status, 'withdrawn');
    t.is(listed.filter((l) => l.status === 'covered').length, seed.length);
    t.is(await runCli(['coverage', 'history', PUB], io, env), 0);
    t.regex(out.join('\n'), /OriginWithdrawn +https:\/\/\S+ by ana: the publisher left/);
  });
}
