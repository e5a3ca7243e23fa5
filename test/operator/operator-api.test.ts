import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import test from 'ava';
import { runCli } from '../../ops/cli.js';
import { isRight } from 'fp-ts/lib/Either.js';
import type * as t from 'io-ts';
import {
  MoveResponse,
  OPERATOR_API,
  PurchasesResponse,
  QueueResponse,
  RefundChangeResponse,
  RefundsResponse,
  ReplayStatus,
  SummaryResponse,
  TimelineResponse,
} from '../../src/operator/contract.js';
import { streamName } from '../../streams/purchase/purchase-id.js';
import { deliveredPurchase, EVIDENCE_SEED_HEX, stuckPurchase } from '../ops/seed.js';
import { onOperatorSocket, type OperatorAnswer } from './operator-socket.js';
import { requestRefund } from './seed-refund.js';
import { useWorld } from '../support/world.js';

// The operator API on a real service (embedded store, real devnet): reachable on its 0600 Unix socket
// and, behind OPERATOR_TOKEN, on loopback TCP; never on the public port; actions at a stale revision
// refused CONCURRENT_CHANGE; a stuck purchase and a refund request visible within a second.

const TOKEN = 'operator-token-for-tests-0123456789';
let tcp: string;
let socketPath: string;

const w = useWorld({
  service: { env: { OPERATOR_LISTEN: '127.0.0.1:0', OPERATOR_TOKEN: TOKEN, EVIDENCE_KEY: EVIDENCE_SEED_HEX } },
});
test.before(() => {
  tcp = w.service.operator.tcpUrl!;
  socketPath = w.service.operator.socketPath!;
});

type Answer = OperatorAnswer;

/** The answer decodes with the contract's codec (the source of truth for the API's shapes). */
const shaped = (codec: t.Mixed, answer: Answer): boolean => isRight(codec.decode(answer.body));

const onSocket = (method: string, path: string, body?: unknown) => onOperatorSocket(socketPath, method, path, body);

async function onTcp(path: string, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await fetch(`${tcp}${path}`, { headers });
  const text = await res.text();
  return { status: res.status, body: text.startsWith('{') ? JSON.parse(text) : text };
}

/** Every operator route, with a body where it takes one. */
const ROUTES: [string, string][] = [
  ['GET', '/health'],
  ['GET', '/queue'],
  ['GET', '/purchases'],
  ['GET', `/purchases/${'ab'.repeat(32)}`],
  ['POST', `/purchases/${'ab'.repeat(32)}/move`],
  ['GET', '/refunds'],
  ['POST', `/refunds/${'ab'.repeat(32)}/review`],
  ['POST', `/refunds/${'ab'.repeat(32)}/paid`],
  ['GET', '/audit'],
  ['GET', '/replay'],
  ['POST', '/replay'],
  ['GET', '/summary'],
  ['GET', '/compliance/export?from=2026-01-01&to=2026-01-02&format=csv'],
  ['GET', '/compliance/report'],
  ['GET', '/coverage'],
  ['GET', '/coverage/history'],
  ['POST', '/coverage/review'],
  ['POST', '/coverage/add'],
  ['POST', '/coverage/withdraw'],
  ['POST', '/cli'],
];
const CONSOLE = ['/console', `/console/purchases/${'ab'.repeat(32)}`, '/console/coverage'];

test.serial('the socket is in DATA_DIR with mode 0600 and answers without a token', async (t) => {
  t.is(socketPath, `${w.dataDir}/operator.sock`);
  const s = await stat(socketPath);
  t.true(s.isSocket());
  t.is(s.mode & 0o777, 0o600);
  t.deepEqual((await onSocket('GET', `${OPERATOR_API}/health`)).body, { ok: true });
});

test.serial('no operator route is reachable on the public port: each one answers 404', async (t) => {
  for (const [method, path] of [
    ...ROUTES.map(([m, p]) => [m, `${OPERATOR_API}${p}`] as const),
    ...CONSOLE.map((p) => ['GET', p] as const),
  ]) {
    const res = await fetch(`${w.url}${path}`, {
      method,
      ...(method === 'POST' ? { headers: { 'content-type': 'application/json' }, body: '{}' } : {}),
    });
    t.is(res.status, 404, `${method} ${path} on the public port`);
    t.false((await res.text()).includes('refused'), 'the public app answers with its own 404, not the operator API');
  }
});

test.serial('TCP: without a token or with a wrong one every route is 401; with the token it answers', async (t) => {
  for (const [, path] of ROUTES.filter(([m]) => m === 'GET')) {
    t.is((await onTcp(`${OPERATOR_API}${path}`)).status, 401, `no token: ${path}`);
    t.is(
      (await onTcp(`${OPERATOR_API}${path}`, { authorization: `Bearer ${TOKEN}x` })).status,
      401,
      `wrong token: ${path}`,
    );
  }
  t.is((await onTcp('/console')).status, 401);
  const ok = await onTcp(`${OPERATOR_API}/queue`, { authorization: `Bearer ${TOKEN}` });
  t.is(ok.status, 200);
  t.true(Array.isArray(ok.body.items));
});

test.serial(
  'a stuck purchase and a refund request show on the first read after they are appended; ' +
    'a move at a stale revision is 409 CONCURRENT_CHANGE; the move records operator and note',
  async (t) => {
    const store = w.service!.store;
    const stuck = await stuckPurchase(store);
    await requestRefund(store, stuck);
    // The first reads after the append, no waiting and no retry: how long they take is the machine's.
    const queue = await onSocket('GET', `${OPERATOR_API}/queue`);
    const refunds = await onSocket('GET', `${OPERATOR_API}/refunds`);
    t.deepEqual(
      queue.body.items.map((i: { purchase_id: string }) => i.purchase_id),
      [stuck],
    );
    t.true(
      shaped(QueueResponse, queue) && shaped(RefundsResponse, refunds),
      'queue and refunds answer in their contract shapes',
    );
    t.deepEqual(
      refunds.body.refunds.map((r: { purchase_id: string; status: string }) => [r.purchase_id, r.status]),
      [[stuck, 'requested']],
    );

    const timeline = await onSocket('GET', `${OPERATOR_API}/purchases/${stuck.slice(0, 12)}`);
    t.is(timeline.status, 200);
    t.true(shaped(TimelineResponse, timeline));
    t.is(timeline.body.revision, '3', 'Quoted, Offered, AuthorizationCheckpointed, LockStuck');
    t.false(JSON.stringify(timeline.body).includes('sealed'), 'no sealed authorization in the timeline');
    // The console's purchase page shows what the buyer wrote with the request (seed-refund.ts's message).
    const page = await onSocket('GET', `/console/purchases/${stuck}`);
    t.regex(page.body as string, /<blockquote id="refund-message">nothing arrived<\/blockquote>/);

    const stale = await onSocket('POST', `${OPERATOR_API}/purchases/${stuck}/move`, {
      target: 'closed_no_charge',
      note: 'nonce unused',
      operator: 'ana',
      expected_revision: '2',
    });
    t.is(stale.status, 409);
    t.is(stale.body.refused.code, 'CONCURRENT_CHANGE');
    const malformed = await onSocket('POST', `${OPERATOR_API}/purchases/${stuck}/move`, {
      target: 'refund',
      note: 'x',
      operator: 'ana',
      expected_revision: '3',
    });
    t.is(malformed.status, 422, 'a target outside the codec is refused before deciding');

    const moved = await onSocket('POST', `${OPERATOR_API}/purchases/${stuck.slice(0, 12)}/move`, {
      target: 'closed_no_charge',
      note: 'nonce unused on chain',
      operator: 'ana',
      expected_revision: '3',
    });
    t.is(moved.status, 200, JSON.stringify(moved.body));
    t.true(shaped(MoveResponse, moved));
    t.like(moved.body.moved, { purchase_id: stuck, from: 'lock_stuck', to: 'closed_no_charge', revision: '4' });
    const last = (await store.readStream(streamName(stuck))).at(-1)!;
    t.is(last.type, 'OperatorMoved');
    t.like(last.data as object, { target: 'closed_no_charge', note: 'nonce unused on chain', operator: 'ana' });
    const again = await onSocket('POST', `${OPERATOR_API}/purchases/${stuck}/move`, {
      target: 'closed_no_charge',
      note: 'again',
      operator: 'ana',
      expected_revision: '4',
    });
    t.is(again.status, 409);
    t.is(again.body.refused.code, 'PURCHASE_CLOSED');

    const staleReview = await onSocket('POST', `${OPERATOR_API}/refunds/${stuck}/review`, {
      decision: 'reject',
      note: 'closed without charge',
      operator: 'ana',
      expected_revision: '1',
    });
    t.is(staleReview.body.refused?.code, 'CONCURRENT_CHANGE');
    const review = await onSocket('POST', `${OPERATOR_API}/refunds/${stuck}/review`, {
      decision: 'reject',
      note: 'closed without charge',
      operator: 'ana',
      expected_revision: '0',
    });
    t.is(review.status, 200, JSON.stringify(review.body));
    t.true(shaped(RefundChangeResponse, review));
    t.like(review.body.refund, { from: 'requested', to: 'rejected' });
    t.is((await onSocket('GET', `${OPERATOR_API}/purchases/${'ee'.repeat(32)}`)).status, 404);
  },
);

test.serial('purchases page on with next; audit, replay status and summary answer', async (t) => {
  const store = w.service!.store;
  await deliveredPurchase(store);
  await deliveredPurchase(store);
  const first = await onSocket('GET', `${OPERATOR_API}/purchases?limit=1`);
  t.is(first.body.purchases.length, 1);
  t.truthy(first.body.next);
  t.true(shaped(PurchasesResponse, first));
  const second = await onSocket('GET', `${OPERATOR_API}/purchases?limit=1&after=${first.body.next}`);
  t.not(second.body.purchases[0].purchase_id, first.body.purchases[0].purchase_id);
  t.is((await onSocket('GET', `${OPERATOR_API}/purchases?status=nope`)).status, 400);
  const audit = await onSocket('GET', `${OPERATOR_API}/audit`);
  t.is(audit.status, 200);
  t.is(audit.body.violations, 0, JSON.stringify(audit.body).slice(0, 500));
  const replay = await onSocket('GET', `${OPERATOR_API}/replay`);
  t.true(shaped(ReplayStatus, replay));
  t.like(replay.body, { behind: '0', leader: true });
  const summary = await onSocket('GET', `${OPERATOR_API}/summary`);
  t.true(shaped(SummaryResponse, summary));
  t.true(summary.body.by_status.some((s: { status: string }) => s.status === 'delivered'));
});

test.serial(
  'the CLI reaches the service over TCP with OPERATOR_LISTEN and OPERATOR_TOKEN ' +
    '(no socket in its DATA_DIR), and is refused with a wrong token',
  async (t) => {
    const elsewhere = await mkdtemp(path.join(tmpdir(), 'rights-ops-tcp-'));
    t.teardown(() => rm(elsewhere, { recursive: true, force: true }));
    const listen = new URL(tcp).host;
    const lines: string[] = [];
    const problems: string[] = [];
    const io = { out: (l: string) => lines.push(l), err: (l: string) => problems.push(l) };
    const code = await runCli(['purchases', '--json'], io, {
      DATA_DIR: elsewhere,
      OPERATOR_LISTEN: listen,
      OPERATOR_TOKEN: TOKEN,
      EVIDENCE_KEY: EVIDENCE_SEED_HEX,
    });
    t.is(code, 0, problems.join('\n'));
    t.true(JSON.parse(lines[0]!).purchases.length >= 3, "the service's purchases, not an empty store");
    const wrong = await runCli(['queue'], io, {
      DATA_DIR: elsewhere,
      OPERATOR_LISTEN: listen,
      OPERATOR_TOKEN: `${TOKEN}-wrong`,
      EVIDENCE_KEY: EVIDENCE_SEED_HEX,
    });
    t.is(wrong, 2, 'no listener accepts the token, and there is no store here either');
    t.deepEqual(await readdir(elsewhere), [], "nothing was created in the operator's DATA_DIR");
  },
);

test.serial('POST /replay rebuilds the read models and streams how far it is, then the result', async (t) => {
  await deliveredPurchase(w.service!.store);
  const answer = await onSocket('POST', `${OPERATOR_API}/replay`);
  t.is(answer.status, 200);
  const lines = (answer.body as string)
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { progress?: { position: string; head: string }; result?: any });
  const progress = lines.filter((l) => l.progress).map((l) => l.progress!);
  const result = lines.at(-1)!.result;
  t.truthy(result, `the last line is the result: ${JSON.stringify(lines.at(-1))}`);
  t.is(progress[0]!.position, '0', 'the head is told before the first page');
  t.true(BigInt(progress[0]!.head) > 0n);
  t.is(progress.at(-1)!.position, result.position, 'the last page committed is where the replay ended');
  t.true(BigInt(result.position) >= BigInt(progress[0]!.head), 'the rebuild reached the head it was told');
  t.true(
    progress.every((p, i) => i === 0 || BigInt(p.position) > BigInt(progress[i - 1]!.position)),
    'positions only go forward',
  );
  t.true(result.results.some((r: { table: string; rows: number }) => r.table === 'rm_purchases' && r.rows > 0));
});
