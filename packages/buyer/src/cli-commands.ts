import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  checkpointsIn,
  createBuyer,
  memoryCheckpointStore,
  verifyCheckpoint,
  verifySavedReport,
  describeSignals,
  type BuyerLogEvent,
} from './index.js';
import type { GatePurpose } from '@rights-preflight/wire/rsl/purposes.js';
import { generatePrivateKey, isPrivateKeyHex, privateKeyAccount } from './account.js';
import { claimKeepingStore } from './claim-keeping-store.js';
import { requestRefund } from './refund-request.js';
import { ingestionGatePrice, revalidationPrice, type Tier } from '@rights-preflight/wire/pricing/prices.js';
import { fileBoxStore, fileCheckpointStore } from './node/file-checkpoint-store.js';
import { fileQuoteStore } from './node/file-quote-store.js';
import { defaultReportFile } from './cli-help.js';
import { need, UsageError, type Cli } from './cli-context.js';
import { checkCrawl, DEFAULT_CHECK_CONCURRENCY, summaryTable } from './check.js';
import { checkFiles } from './node/check-files.js';
import { urlNamingFetch } from './cli-errors.js';
import { deliveredSummary } from './cli-summary.js';
import type { Pins } from './offer.js';

// The commands of `rights-preflight`, each given the parsed command line (./cli-context.ts) and
// answering its exit code. Secrets come from the environment only; nothing secret is printed.

const fetchNamingUrl = urlNamingFetch();

function service(c: Cli): string {
  const url = need('--service or RIGHTS_SERVICE_URL', c.v.service ?? c.env.RIGHTS_SERVICE_URL).replace(/\/+$/, '');
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol))
    throw new UsageError(`--service or RIGHTS_SERVICE_URL ${JSON.stringify(url)} is not an http(s) URL`);
  return url;
}

function hexKey(hex: string): Uint8Array {
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) throw new UsageError('BUYER_CHECKPOINT_KEY must be 64 hex characters');
  return Uint8Array.from(hex.match(/../g)!.map((b) => parseInt(b, 16)));
}

const claimStore = (c: Cli) =>
  fileCheckpointStore(
    path.resolve(need('--checkpoint-dir', c.v['checkpoint-dir']), 'claims'),
    hexKey(need('BUYER_CHECKPOINT_KEY', c.env.BUYER_CHECKPOINT_KEY)),
  );

/** A cap in micro-USDC, or a usage error naming the flag and the variable it came from. */
function micro(flag: string, variable: string, value: string | undefined, fallback: bigint): bigint {
  if (value === undefined) return fallback;
  if (!/^[0-9]+$/.test(value)) throw new UsageError(`${flag} or ${variable} must be micro-USDC digits, not ${value}`);
  return BigInt(value);
}

/** The four pins, every one missing or malformed named in one message (not one per run). */
function pinsOf(c: Cli): Pins {
  const { v, env } = c;
  const got = {
    service: [v.service ?? env.RIGHTS_SERVICE_URL, '--service or RIGHTS_SERVICE_URL', /^https?:\/\//, 'an http(s) URL'],
    network: [v.network ?? env.BUYER_NETWORK, '--network or BUYER_NETWORK', /^eip155:[0-9]+$/, 'eip155:<chain id>'],
    asset: [v.asset ?? env.BUYER_ASSET, '--asset or BUYER_ASSET', /^0x[0-9a-fA-F]{40}$/, '0x and 40 hex'],
    recipient: [
      v.recipient ?? env.BUYER_RECIPIENT,
      '--recipient or BUYER_RECIPIENT',
      /^0x[0-9a-fA-F]{40}$/,
      '0x and 40 hex',
    ],
    evidenceKey: [v.key ?? env.BUYER_EVIDENCE_KEY, '--key or BUYER_EVIDENCE_KEY', /^[0-9a-fA-F]{64}$/, '64 hex'],
  } as const;
  const entries = Object.values(got);
  const missing = entries.filter(([value]) => !value).map(([, name]) => name);
  const malformed = entries
    .filter(([value, , shape]) => value && !shape.test(value))
    .map(([, name, , shape]) => `${name} must be ${shape}`);
  const problems = [...(missing.length ? [`missing ${missing.join(', ')}`] : []), ...malformed];
  if (problems.length) throw new UsageError(problems.join('; '));
  return {
    network: got.network[0]!,
    asset: got.asset[0]!,
    recipient: got.recipient[0]!,
    evidenceKey: got.evidenceKey[0]!,
  };
}

/** BUYER_PRIVATE_KEY, or a usage error naming it (never its value). */
function privateKey(c: Cli): string {
  const key = need('BUYER_PRIVATE_KEY', c.env.BUYER_PRIVATE_KEY);
  if (!isPrivateKeyHex(key)) throw new UsageError('BUYER_PRIVATE_KEY must be 0x and 64 hex digits');
  return key;
}

function buyerFromPins(c: Cli, key: string | undefined, log?: (e: BuyerLogEvent) => void, cap = 50_000n) {
  const { v, env } = c;
  const pins = pinsOf(c);
  const baseUrl = service(c);
  const store = v['checkpoint-dir']
    ? claimKeepingStore(
        fileCheckpointStore(
          path.resolve(v['checkpoint-dir']),
          hexKey(need('BUYER_CHECKPOINT_KEY', env.BUYER_CHECKPOINT_KEY)),
        ),
        claimStore(c),
      )
    : memoryCheckpointStore();
  return createBuyer({
    baseUrl,
    account: privateKeyAccount(key ?? generatePrivateKey()),
    pins,
    maxPerReportMicro: micro(
      '--max-per-report',
      'BUYER_MAX_PER_REPORT_MICRO',
      v['max-per-report'] ?? env.BUYER_MAX_PER_REPORT_MICRO,
      cap,
    ),
    maxPerTaskMicro: micro(
      '--max-per-task',
      'BUYER_MAX_PER_TASK_MICRO',
      v['max-per-task'] ?? env.BUYER_MAX_PER_TASK_MICRO,
      cap,
    ),
    checkpointStore: store,
    holdOnOtherSignals: v['ignore-other-signals'] !== true,
    fetch: fetchNamingUrl,
    ...(log ? { log } : {}),
  });
}

const reportRequest = (c: Cli) => ({
  resource: need('<resource-url>', c.arg),
  purpose: need('--purpose', c.v.purpose) as 'ai-input',
  tier: (c.v.tier ?? 'fresh') as 'fresh',
});

async function capabilities(c: Cli): Promise<number> {
  const res = await fetchNamingUrl(`${service(c)}/v1/capabilities`);
  if (!res.ok) return c.fail('ERROR', `capabilities answered HTTP ${res.status}`, 1);
  c.out(JSON.stringify(await res.json(), null, 2));
  return 0;
}

async function quote(c: Cli): Promise<number> {
  const buyer = buyerFromPins(c, c.env.BUYER_PRIVATE_KEY ? privateKey(c) : undefined);
  const request = reportRequest(c);
  const q = await buyer.quote(request);
  // The claim token is a secret bearer credential: never printed; kept only sealed, for `buy` to use.
  const quotes = keptQuotes(c);
  if (quotes && q.available) {
    await quotes.keep(service(c), request, q);
    c.err(
      `kept the quote in ${c.v['checkpoint-dir']}/quotes: buy with the same --checkpoint-dir uses it ` +
        `until ${q.expires_at}`,
    );
  }
  const { claim_token: _claim, ...shown } = q as Record<string, unknown>;
  c.out(JSON.stringify(shown, null, 2));
  return 0;
}

/** The quotes `quote --checkpoint-dir` keeps, sealed (./node/file-quote-store.ts); none without a directory. */
const keptQuotes = (c: Cli) =>
  c.v['checkpoint-dir']
    ? fileQuoteStore(
        path.resolve(c.v['checkpoint-dir'], 'quotes'),
        hexKey(need('BUYER_CHECKPOINT_KEY', c.env.BUYER_CHECKPOINT_KEY)),
      )
    : undefined;

/** `buy`: the fresh quote `quote` kept for this very request is bought (once) instead of quoting again. */
async function buyKeptOrNew(c: Cli, buyer: ReturnType<typeof buyerFromPins>) {
  const request = reportRequest(c);
  const quotes = keptQuotes(c);
  const kept = await quotes?.find(service(c), request);
  if (!kept) return buyer.buyReport(request);
  try {
    return await buyer.buyReport(request, { quote: kept });
  } finally {
    await quotes?.remove(kept.purchase_id);
  }
}

/** The checkpoints kept in each file: a checkpoint, a paid report or a saved report (all of its resources'). */
async function checkpointsOfFiles(files: string[]): Promise<unknown[]> {
  const all: unknown[] = [];
  for (const file of files) {
    let value: unknown;
    try {
      value = JSON.parse(await readFile(file, 'utf8'));
    } catch {
      throw new UsageError(`${file} is not readable JSON`);
    }
    const found = checkpointsIn(value);
    if (!found.length) throw new UsageError(`${file} holds no checkpoint (a report delivered before checkpoints?)`);
    all.push(...found);
  }
  return all;
}

/** `buy` (quote or --preflight flow), `gate` and `revalidate`: pay, then save the signed report. */
async function buy(c: Cli): Promise<number> {
  const { v, cmd, arg, more } = c;
  const key = privateKey(c);
  const tier = (v.tier ?? 'fresh') as Tier;
  const checkpoints = cmd === 'revalidate' ? await checkpointsOfFiles([need('<file>', arg), ...more]) : [];
  // A gate report's (a revalidation's) published price grows with its URLs; the default caps cover exactly it.
  const gatePrice =
    cmd === 'revalidate'
      ? revalidationPrice(tier, checkpoints.length)
      : ingestionGatePrice(tier, new Set([arg, ...more].filter(Boolean)).size);
  const log = (e: BuyerLogEvent) => {
    const { step, ...rest } = e;
    const fields = Object.entries(rest).filter(([, x]) => x !== undefined);
    c.err(`[${step}] ${fields.map(([k, x]) => `${k}=${x}`).join(' ')}`);
  };
  const buyer = buyerFromPins(c, key, log, cmd !== 'buy' && gatePrice > 50_000n ? gatePrice : 50_000n);
  const r =
    cmd === 'revalidate'
      ? await buyer.revalidate(checkpoints, { tier })
      : cmd === 'gate'
        ? await buyer.ingestionGate({
            resources: [need('<url>', arg), ...more],
            purpose: need('--purpose', v.purpose) as 'ai-input',
            tier: (v.tier ?? 'fresh') as 'fresh',
            ...(v.geo ? { geo: v.geo } : {}),
          })
        : v.preflight
          ? await buyer.preflight(reportRequest(c))
          : await buyKeptOrNew(c, buyer);
  if (r.status !== 'delivered') {
    c.out(JSON.stringify(r, null, 2));
    return r.status === 'unavailable' ? 0 : 1;
  }
  // The report was paid for: it is always kept (docs/decisions.md, "The first hour").
  const file = v.out ?? defaultReportFile(r.purchase_id);
  await writeFile(file, `${JSON.stringify(r.saved, null, 2)}\n`, { mode: 0o600 });
  c.err(`saved the signed report to ${path.resolve(file)}`);
  const { ingestion_hold } = r;
  c.out(JSON.stringify(deliveredSummary(r, file), null, 2));
  // Held: another standard beside RSL restricts the purpose (docs/wire.md §15). A script's `buy && ingest` stops here.
  if (ingestion_hold) {
    c.err(`ingestion held: ${ingestion_hold.reason} (${ingestion_hold.resources.map((x) => x.resource).join(', ')})`);
    return 3;
  }
  return 0;
}

async function verify(c: Cli): Promise<number> {
  const file = need('<report.json>', c.arg);
  const pinned = need('--key', c.v.key ?? c.env.BUYER_EVIDENCE_KEY);
  let saved: unknown;
  try {
    saved = JSON.parse(await readFile(file, 'utf8'));
  } catch {
    return c.fail('FAIL', `${file} is not readable JSON`, 1);
  }
  // A checkpoint kept on its own (docs/wire.md §14) is verified as such; anything else as a report.
  if ((saved as { payload?: { type?: unknown } } | null)?.payload?.type === 'checkpoint') {
    const kept = verifyCheckpoint(saved, pinned.toLowerCase());
    if (!kept.ok) {
      c.err(`FAIL: ${kept.reason}`);
      if (c.json) c.out(JSON.stringify({ ok: false, reason: kept.reason }, null, 2));
      return 1;
    }
    const p = kept.checkpoint;
    if (c.json) c.out(JSON.stringify({ ok: true, checkpoint: p }, null, 2));
    else c.out(`OK checkpoint of purchase ${p.purchase_id}: ${p.resource} ${p.classification} at ${p.observed_at}`);
    return 0;
  }
  const result = verifySavedReport(saved, pinned.toLowerCase(), c.v['binding-key']);
  if (!result.ok) {
    c.err(`FAIL: ${result.reason}`);
    if (c.json) c.out(JSON.stringify({ ok: false, reason: result.reason }, null, 2));
    return 1;
  }
  if (c.json) {
    c.out(JSON.stringify(result, null, 2));
    return 0;
  }
  c.out(
    `OK purchase ${result.purchase_id}: ` +
      `${result.classifications.map((x) => `${x.resource} ${x.classification}`).join(', ')}; ` +
      `paid ${result.amount} by ${result.payer} in ${result.transaction}`,
  );
  for (const line of describeSignals(result.purpose as GatePurpose, result.signals)) c.out(line);
  return 0;
}

/**
 * The whole purchase id for an id as printed: whole, or the 12-character prefix that buy and ops print,
 * resolved against the purchases this buyer keeps claims for. An unknown or ambiguous prefix is refused.
 */
async function wholePurchaseId(claims: string, given: string): Promise<string> {
  const id = given.toLowerCase();
  if (!/^[0-9a-f]{1,64}$/.test(id)) throw new UsageError(`<purchase_id> ${given} is not a hex purchase id or prefix`);
  if (id.length === 64) return id;
  const matches = (await fileBoxStore(claims).list()).filter((x) => x.startsWith(id));
  if (matches.length === 1) return matches[0]!;
  if (matches.length === 0) throw new Error(`no claim kept for a purchase ${given}… in ${claims}`);
  throw new Error(`purchase id prefix ${given} is ambiguous: ${matches.join(', ')}; give more characters`);
}

async function refund(c: Cli): Promise<number> {
  const given = need('<purchase_id>', c.arg);
  const reason = need('--reason', c.v.reason);
  const claims = path.resolve(need('--checkpoint-dir', c.v['checkpoint-dir']), 'claims');
  const purchaseId = await wholePurchaseId(claims, given);
  const kept = await claimStore(c).load(purchaseId);
  if (!kept)
    return c.fail(
      'ERROR',
      `no claim kept for purchase ${purchaseId} in ${c.v['checkpoint-dir']}/claims (buy it with --checkpoint-dir)`,
      1,
    );
  const view = await requestRefund(
    c.v.service ?? c.env.RIGHTS_SERVICE_URL ?? kept.base_url,
    kept.key,
    {
      purchase_id: purchaseId,
      reason,
      ...(c.v.message ? { message: c.v.message } : {}),
    },
    fetchNamingUrl,
  );
  c.out(JSON.stringify(view, null, 2));
  return 0;
}

export const COMMANDS: Record<string, (c: Cli) => Promise<number>> = {
  capabilities,
  check,
  quote,
  buy,
  gate: buy,
  revalidate: buy,
  verify,
  refund,
};

const positiveInt = (name: string, v: string) => {
  if (!/^[1-9][0-9]*$/.test(v)) throw new UsageError(`${name} must be a positive integer`);
  return v;
};

/** The URLs of a check: one per line of FILE, or of stdin for `-` or no file; # starts a comment. */
async function urlsOf(c: Cli): Promise<string[]> {
  const text =
    c.arg === undefined || c.arg === '-'
      ? await new Response(process.stdin as never).text()
      : await readFile(c.arg, 'utf8');
  return text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
}

/** `check`: a crawl checked in one command (README "Check a crawl"; ./check.ts). */
async function check(c: Cli): Promise<number> {
  const { v, env } = c;
  const budget = BigInt(positiveInt('--budget', need('--budget MICRO', v.budget)));
  const concurrency = Number(positiveInt('--concurrency', v.concurrency ?? String(DEFAULT_CHECK_CONCURRENCY)));
  const manifest = path.resolve(v.manifest ?? 'rights-check.jsonl');
  const key = privateKey(c);
  const checkpointKey = hexKey(need('BUYER_CHECKPOINT_KEY', env.BUYER_CHECKPOINT_KEY));
  const urls = await urlsOf(c);
  const tty = process.stderr.isTTY === true;
  const summary = await checkCrawl(
    {
      baseUrl: service(c),
      account: privateKeyAccount(key),
      pins: pinsOf(c),
      fetch: fetchNamingUrl,
      maxPerReportMicro: budget,
      maxPerTaskMicro: budget,
      // The checkpoints of this manifest live beside it, sealed with BUYER_CHECKPOINT_KEY.
      checkpointStore: fileCheckpointStore(v['checkpoint-dir'] ?? `${manifest}.checkpoints`, checkpointKey),
      holdOnOtherSignals: v['ignore-other-signals'] !== true,
    },
    {
      urls,
      purpose: need('--purpose', v.purpose) as GatePurpose,
      tier: (v.tier ?? 'fresh') as Tier,
      budgetMicro: budget,
      concurrency,
      io: checkFiles(manifest),
      ...(tty
        ? {
            progress: (p) =>
              c.err(`\rchecked ${p.done}/${p.total} gate calls, spent ${p.spentMicro} of ${budget} micro-USDC`),
          }
        : {}),
    },
  );
  if (tty) c.err('\n');
  c.out(c.json ? JSON.stringify({ manifest, ...summary }, null, 2) : `${summaryTable(summary)}\nmanifest ${manifest}`);
  return summary.pending > 0 || summary.held > 0 ? 1 : 0;
}
