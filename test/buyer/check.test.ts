import test from 'ava';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { privateKeyToAccount } from 'viem/accounts';
import { checkCrawl, ManifestLine, verifySavedReport, type BuyerOptions, type CheckIo } from '@rights-preflight/buyer';
import { checkFiles, fileCheckpointStore } from '@rights-preflight/buyer/node';
import { CRAWL_PAGE, crawlSite, publisherSite, UNDECLARED } from '../support/publishers.js';
import { useWorld } from '../support/world.js';
import { isRight } from 'fp-ts/lib/Either.js';

// `rights-preflight check` (packages/buyer/src/check.ts), a smaller version of bench/bulk.bench.ts: URLs over
// several covered HTTPS publishers on loopback, uncovered ones, one without any declaration, the devnet and
// the default gate limits (30 a minute, burst 10; every client here is 127.0.0.1). The gate calls are more
// than the burst, so any paid request that spent the free bucket would meet a 429.

const PUBLISHERS = 4;
const PAGES = 7;
const w = useWorld({
  site: { ...publisherSite(), ...crawlSite(PUBLISHERS, PAGES) },
  env: { RATE_LIMIT_GATE_PER_MINUTE: '30', RATE_LIMIT_GATE_BURST: '10', LOG_LEVEL: 'warn' },
});

const covered = Array.from({ length: PUBLISHERS }, (_, n) =>
  Array.from({ length: PAGES }, (_, p) => CRAWL_PAGE(n, p)),
).flat();
const uncovered = ['https://elsewhere.example/a', 'https://elsewhere.example/b', 'https://other.example/'];
const URLS = [...covered, ...uncovered, UNDECLARED, 'not a url', covered[0]!];
/** 4 publishers × 7 pages: calls of 4 and 3 per publisher = 8 paid calls (more than the burst); bare.example's. */
const PAID_CALLS = PUBLISHERS * 2;

const CHECKPOINT_KEY = new Uint8Array(32).fill(0x4c);

function options(dir: string, buyerIndex: number, fetch: typeof globalThis.fetch): BuyerOptions {
  return {
    baseUrl: w.url,
    account: privateKeyToAccount(w.devnet.buyers[buyerIndex]!.privateKey),
    pins: {
      network: w.devnet.network,
      asset: w.devnet.usdc,
      recipient: w.devnet.payTo,
      evidenceKey: w.service.evidenceKey,
    },
    maxPerReportMicro: 0n,
    maxPerTaskMicro: 0n,
    checkpointStore: fileCheckpointStore(path.join(dir, 'checkpoints'), CHECKPOINT_KEY),
    fetch,
  };
}

/** Every request the buyer makes, with its status. */
function watched() {
  const seen: { url: string; paid: boolean; status: number; body: string }[] = [];
  const fetchFn: typeof globalThis.fetch = async (input, init) => {
    const res = await globalThis.fetch(input, init);
    const headers = new Headers(init?.headers);
    seen.push({
      url: String(input),
      paid: headers.has('payment-signature'),
      status: res.status,
      body: String(init?.body ?? ''),
    });
    return res;
  };
  return { seen, fetch: fetchFn };
}

async function manifestLines(file: string): Promise<ManifestLine[]> {
  const text = await readFile(file, 'utf8');
  return text
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => {
      const d = ManifestLine.decode(JSON.parse(l));
      if (!isRight(d)) throw new Error(`not a manifest line: ${l}`);
      return d.right;
    });
}

const lastByUrl = (lines: ManifestLine[]) => new Map(lines.map((l) => [l.url, l]));

test.serial(
  'a crawl checked in one go: no 429, every paid report verified, one transfer a call, free URLs free',
  async (t) => {
    const dir = await mkdtemp(path.join(tmpdir(), 'rights-check-'));
    t.teardown(() => rm(dir, { recursive: true, force: true }));
    const manifest = path.join(dir, 'crawl.jsonl');
    const buyer = privateKeyToAccount(w.devnet.buyers[1]!.privateKey).address;
    const before = await w.devnet.balanceOf(buyer);
    const transfersBefore = (await w.devnet.transfers(buyer, w.devnet.payTo)).length;
    const budget = 10_000_000n;
    const { seen, fetch } = watched();
    const s = await checkCrawl(options(dir, 1, fetch), {
      urls: URLS,
      purpose: 'ai-input',
      budgetMicro: budget,
      concurrency: 4,
      io: checkFiles(manifest),
    });

    t.is(seen.filter((r) => r.status === 429).length, 0, 'no request was throttled');
    t.is(s.http_429, 0);
    const last = lastByUrl(await manifestLines(manifest));
    t.is(last.size, URLS.length - 1, 'one state per distinct URL');
    for (const url of covered) {
      const l = last.get(url)!;
      t.is(l.status, 'bought', url);
      const expected = /p2\.crawl/.test(url)
        ? 'PROHIBITED_BY_OBSERVED_DECLARATION'
        : 'PERMITTED_BY_OBSERVED_DECLARATION';
      t.is(l.classification, expected, url);
      const saved = JSON.parse(await readFile(path.join(dir, l.report_file!), 'utf8'));
      const v = verifySavedReport(saved, w.service.evidenceKey.public_key);
      t.true(v.ok, `${url}: ${v.ok ? '' : v.reason}`);
      t.is(v.ok ? v.transaction : null, l.transaction);
    }
    for (const url of uncovered)
      t.like(last.get(url), { status: 'not_bought', reason: { code: 'ORIGIN_NOT_COVERED' } as never });
    t.like(last.get('not a url'), { status: 'not_bought', reason: { code: 'INVALID_URL' } as never });
    t.like(last.get(UNDECLARED), {
      status: 'not_bought',
      charge_micro: '0',
      reason: { code: 'NO_VERIFIABLE_DECLARATION' } as never,
    });
    t.false(
      seen.some((r) => /elsewhere\.example|other\.example|not a url/.test(r.body)),
      'uncovered URLs never reach the service',
    );

    // Exactly one transfer per paid gate call, each the one its reports name; the chain agrees with the budget.
    const paidCalls = new Set(covered.map((u) => last.get(u)!.purchase_id));
    t.is(paidCalls.size, PAID_CALLS);
    const transfers = (await w.devnet.transfers(buyer, w.devnet.payTo)).slice(transfersBefore);
    t.is(transfers.length, PAID_CALLS);
    t.deepEqual(
      [...new Set(transfers.map((x) => x.transaction.toLowerCase()))].sort(),
      [...new Set(covered.map((u) => last.get(u)!.transaction!.toLowerCase()))].sort(),
    );
    const spent = transfers.reduce((a, x) => a + x.value, 0n);
    t.is(s.spent_micro, spent.toString());
    t.is(await w.devnet.balanceOf(buyer), before - spent);
    t.true(spent <= budget);
    t.is(s.bought, covered.length, 'covered[0], listed twice, is one URL');
  },
);

test.serial('the budget is never passed: the calls that would pass it are left for a bigger budget', async (t) => {
  const dir = await mkdtemp(path.join(tmpdir(), 'rights-check-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const manifest = path.join(dir, 'crawl.jsonl');
  const buyer = privateKeyToAccount(w.devnet.buyers[2]!.privateKey).address;
  const transfersBefore = (await w.devnet.transfers(buyer, w.devnet.payTo)).length;
  const budget = 300_000n; // a call of four URLs is 120,000: two fit, a third does not
  const { fetch } = watched();
  const s = await checkCrawl(options(dir, 2, fetch), {
    urls: covered,
    purpose: 'ai-input',
    budgetMicro: budget,
    concurrency: 4,
    io: checkFiles(manifest),
  });
  const transfers = (await w.devnet.transfers(buyer, w.devnet.payTo)).slice(transfersBefore);
  const spent = transfers.reduce((a, x) => a + x.value, 0n);
  t.true(spent <= budget, `${spent} ≤ ${budget}`);
  t.true(transfers.length >= 2);
  t.is(s.spent_micro, spent.toString());
  const last = lastByUrl(await manifestLines(manifest));
  t.true([...last.values()].some((l) => l.reason?.code === 'BUDGET_EXHAUSTED'));
  t.true([...last.values()].every((l) => l.status === 'bought' || l.reason?.code === 'BUDGET_EXHAUSTED'));
});

test.serial(
  'killed mid-run and run again with the same manifest: resumed from its checkpoints, nothing charged twice',
  async (t) => {
    const dir = await mkdtemp(path.join(tmpdir(), 'rights-check-'));
    t.teardown(() => rm(dir, { recursive: true, force: true }));
    const manifest = path.join(dir, 'crawl.jsonl');
    const buyer = privateKeyToAccount(w.devnet.buyers[3]!.privateKey).address;
    const transfersBefore = (await w.devnet.transfers(buyer, w.devnet.payTo)).length;

    // The first run dies when its third paid request has reached the service: from then on nothing it does
    // completes (no answer is read, no line or report is written), as after SIGKILL.
    let paidSent = 0;
    let dead = false;
    let landed: () => void = () => {};
    const killed = new Promise<void>((r) => {
      landed = r;
    });
    const never = new Promise<never>(() => {});
    const dying: typeof globalThis.fetch = async (input, init) => {
      if (dead) return never;
      const paid = new Headers(init?.headers).has('payment-signature');
      if (paid && ++paidSent === 3) {
        dead = true;
        void globalThis.fetch(input, init).then(
          () => landed(),
          () => landed(),
        );
        return never;
      }
      return globalThis.fetch(input, init);
    };
    const files = checkFiles(manifest);
    const dyingIo: CheckIo = {
      lines: () => files.lines(),
      append: (l) => (dead ? never : files.append(l)),
      saveReport: (id, s) => (dead ? never : files.saveReport(id, s)),
    };
    void checkCrawl(options(dir, 3, dying), {
      urls: covered,
      purpose: 'ai-input',
      budgetMicro: 10_000_000n,
      concurrency: 2,
      io: dyingIo,
    });
    await killed;
    const atKill = await manifestLines(manifest);
    t.true(
      atKill.some((l) => l.status === 'pending'),
      'a call was pending when the run died',
    );

    const { seen, fetch } = watched();
    const s = await checkCrawl(options(dir, 3, fetch), {
      urls: covered,
      purpose: 'ai-input',
      budgetMicro: 10_000_000n,
      concurrency: 2,
      io: checkFiles(manifest),
    });
    t.true(s.resumed >= 1, 'the pending call was resumed from its checkpoint');
    t.is(seen.filter((r) => r.status === 429).length, 0);
    const last = lastByUrl(await manifestLines(manifest));
    for (const url of covered) t.is(last.get(url)!.status, 'bought', url);
    const paidCalls = new Set(covered.map((u) => last.get(u)!.purchase_id));
    const transfers = (await w.devnet.transfers(buyer, w.devnet.payTo)).slice(transfersBefore);
    t.is(transfers.length, paidCalls.size, 'one transfer per gate call, none twice');
    t.deepEqual(
      [...new Set(transfers.map((x) => x.transaction.toLowerCase()))].sort(),
      [...new Set(covered.map((u) => last.get(u)!.transaction!.toLowerCase()))].sort(),
    );
  },
);
