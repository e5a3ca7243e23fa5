import { parseArgs, parseEnv } from 'node:util';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { isRight } from 'fp-ts/lib/Either.js';
import {
  checkpointsIn,
  createBuyer,
  BuyerRefused,
  memoryCheckpointStore,
  verifyCheckpoint,
  verifySavedReport,
  type BuyerLogEvent,
} from './index.js';
import { claimKeepingStore } from './claim-keeping-store.js';
import { requestRefund } from './refund-request.js';
import { GatePurpose, ReportPurpose } from '../rsl/purposes.js';
import { ingestionGatePrice, revalidationPrice, type Tier } from '../pricing/prices.js';
import { fileCheckpointStore } from './node/file-checkpoint-store.js';
import { COMMAND_HELP, REFUND_REASONS, USAGE, defaultReportFile } from './cli-help.js';

// `rights-preflight` (bin/rights-preflight.mjs): capabilities | quote | buy | gate | revalidate | verify | refund.
// Secrets come from the environment only (BUYER_PRIVATE_KEY, BUYER_CHECKPOINT_KEY); nothing secret is printed.

const options = {
  service: { type: 'string' },
  purpose: { type: 'string' },
  tier: { type: 'string' },
  out: { type: 'string' },
  network: { type: 'string' },
  asset: { type: 'string' },
  recipient: { type: 'string' },
  key: { type: 'string' },
  'max-per-report': { type: 'string' },
  'max-per-task': { type: 'string' },
  'checkpoint-dir': { type: 'string' },
  'binding-key': { type: 'string' },
  geo: { type: 'string' },
  preflight: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  reason: { type: 'string' },
  message: { type: 'string' },
  version: { type: 'boolean' },
  json: { type: 'boolean' },
  'env-file': { type: 'string' },
} as const;

class UsageError extends Error {}

/** With --json every failure is also one JSON document on stdout: {"error": {code, message}}. */
type Failure = 'USAGE' | 'REFUSED' | 'FAIL' | 'ERROR';

export async function main(
  argv: string[],
  env: NodeJS.ProcessEnv,
  out: (s: string) => void,
  err: (s: string) => void,
): Promise<number> {
  const json = argv.includes('--json');
  const fail = (code: Failure, message: string, exit: number, usage?: string): number => {
    const prefix = code === 'USAGE' ? '' : code === 'FAIL' ? 'FAIL: ' : `${code} `;
    err(usage ? `${message}\n${usage}` : `${prefix}${message}`);
    if (json) out(JSON.stringify({ error: { code, message } }, null, 2));
    return exit;
  };
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (e) {
    return fail('USAGE', (e as Error).message, 2, USAGE);
  }
  const {
    values: v,
    positionals: [cmd, arg, ...more],
  } = parsed;
  // --env-file FILE: KEY=value pins (npm start in development writes DATA_DIR/buyer.env); the environment wins.
  if (v['env-file'] !== undefined) {
    let text: string;
    try {
      text = await readFile(v['env-file'], 'utf8');
    } catch (e) {
      return fail('USAGE', `--env-file ${v['env-file']} cannot be read (${(e as Error).message})`, 2);
    }
    env = { ...parseEnv(text), ...env };
  }
  if (v.version) {
    out(json ? JSON.stringify({ version: await packageVersion() }) : await packageVersion());
    return 0;
  }
  // `<command> --help` and `help <command>`: the command's page; otherwise the overview.
  const page = cmd === 'help' ? arg : cmd;
  if (v.help || cmd === 'help') {
    const text = page !== undefined && Object.hasOwn(COMMAND_HELP, page) ? COMMAND_HELP[page]! : USAGE;
    out(json ? JSON.stringify({ help: text }) : text);
    return 0;
  }
  if (!cmd) return fail('USAGE', 'no command', 2, USAGE);
  const usageOf = (c: string) => COMMAND_HELP[c] ?? USAGE;
  if (cmd === 'refund' && v.reason !== undefined && !Object.hasOwn(REFUND_REASONS, v.reason))
    return fail(
      'USAGE',
      `invalid --reason ${JSON.stringify(v.reason)}: one of ${Object.keys(REFUND_REASONS).join(', ')}`,
      2,
      usageOf(cmd),
    );
  // Refused here, before any request: a purpose the command cannot buy, a tier that does not exist.
  if (['quote', 'buy', 'gate', 'revalidate'].includes(cmd)) {
    const purposes = cmd === 'gate' ? GatePurpose : ReportPurpose;
    if (v.purpose !== undefined && !isRight(purposes.decode(v.purpose)))
      return fail(
        'USAGE',
        `invalid --purpose ${JSON.stringify(v.purpose)}: one of ${Object.keys(purposes.keys).join(', ')}`,
        2,
        usageOf(cmd),
      );
    if (v.tier !== undefined && v.tier !== 'fresh' && v.tier !== 'deep')
      return fail('USAGE', `invalid --tier ${JSON.stringify(v.tier)}: fresh or deep`, 2, usageOf(cmd));
  }
  const need = (name: string, value: string | undefined): string => {
    if (!value) throw new UsageError(`missing ${name}`);
    return value;
  };
  const service = () =>
    need('--service or RIGHTS_SERVICE_URL', v.service ?? env.RIGHTS_SERVICE_URL).replace(/\/+$/, '');

  const claimStore = () =>
    fileCheckpointStore(
      path.resolve(need('--checkpoint-dir', v['checkpoint-dir']), 'claims'),
      hexKey(need('BUYER_CHECKPOINT_KEY', env.BUYER_CHECKPOINT_KEY)),
    );
  const buyerFromPins = async (
    privateKey: string | undefined,
    log?: (e: BuyerLogEvent) => void,
    defaultCapMicro = 50_000n,
  ) => {
    const baseUrl = service();
    const store = v['checkpoint-dir']
      ? claimKeepingStore(
          fileCheckpointStore(
            path.resolve(v['checkpoint-dir']),
            hexKey(need('BUYER_CHECKPOINT_KEY', env.BUYER_CHECKPOINT_KEY)),
          ),
          claimStore(),
        )
      : memoryCheckpointStore();
    return createBuyer({
      baseUrl,
      account: privateKeyToAccount((privateKey ?? generatePrivateKey()) as `0x${string}`),
      pins: {
        network: need('--network or BUYER_NETWORK', v.network ?? env.BUYER_NETWORK),
        asset: need('--asset or BUYER_ASSET', v.asset ?? env.BUYER_ASSET),
        recipient: need('--recipient or BUYER_RECIPIENT', v.recipient ?? env.BUYER_RECIPIENT),
        evidenceKey: need('--key or BUYER_EVIDENCE_KEY', v.key ?? env.BUYER_EVIDENCE_KEY),
      },
      maxPerReportMicro: BigInt(v['max-per-report'] ?? env.BUYER_MAX_PER_REPORT_MICRO ?? defaultCapMicro),
      maxPerTaskMicro: BigInt(v['max-per-task'] ?? env.BUYER_MAX_PER_TASK_MICRO ?? defaultCapMicro),
      checkpointStore: store,
      ...(log ? { log } : {}),
    });
  };
  const request = () => ({
    resource: need('<resource-url>', arg),
    purpose: need('--purpose', v.purpose) as 'ai-input',
    tier: (v.tier ?? 'fresh') as 'fresh',
  });

  try {
    switch (cmd) {
      case 'capabilities': {
        const res = await fetch(`${service()}/v1/capabilities`);
        if (!res.ok) return fail('ERROR', `capabilities answered HTTP ${res.status}`, 1);
        out(JSON.stringify(await res.json(), null, 2));
        return 0;
      }
      case 'quote': {
        const buyer = await buyerFromPins(env.BUYER_PRIVATE_KEY);
        const q = await buyer.quote(request());
        // The claim token is a secret bearer credential: never printed.
        const { claim_token: _claim, ...shown } = q as Record<string, unknown>;
        out(JSON.stringify(shown, null, 2));
        return 0;
      }
      case 'buy':
      case 'gate':
      case 'revalidate': {
        const key = need('BUYER_PRIVATE_KEY', env.BUYER_PRIVATE_KEY);
        const checkpoints = cmd === 'revalidate' ? await checkpointsOfFiles([need('<file>', arg), ...more]) : [];
        // A gate report's (a revalidation's) published price grows with its URLs; the default caps cover exactly it.
        const gatePrice =
          cmd === 'revalidate'
            ? revalidationPrice((v.tier ?? 'fresh') as Tier, checkpoints.length)
            : ingestionGatePrice((v.tier ?? 'fresh') as Tier, new Set([arg, ...more].filter(Boolean)).size);
        const buyer = await buyerFromPins(
          key,
          (e) => {
            const { step, ...rest } = e;
            err(
              `[${step}] ${Object.entries(rest)
                .filter(([, x]) => x !== undefined)
                .map(([k, x]) => `${k}=${x}`)
                .join(' ')}`,
            );
          },
          cmd !== 'buy' && gatePrice > 50_000n ? gatePrice : 50_000n,
        );
        const r =
          cmd === 'revalidate'
            ? await buyer.revalidate(checkpoints, { tier: (v.tier ?? 'fresh') as Tier })
            : cmd === 'gate'
              ? await buyer.ingestionGate({
                  resources: [need('<url>', arg), ...more],
                  purpose: need('--purpose', v.purpose) as 'ai-input',
                  tier: (v.tier ?? 'fresh') as 'fresh',
                  ...(v.geo ? { geo: v.geo } : {}),
                })
              : v.preflight
                ? await buyer.preflight(request())
                : await buyer.buyReport(request());
        if (r.status === 'delivered') {
          // The report was paid for: it is always kept (docs/decisions.md, "The first hour (issue 27)").
          const file = v.out ?? defaultReportFile(r.purchase_id);
          await writeFile(file, `${JSON.stringify(r.saved, null, 2)}\n`, { mode: 0o600 });
          err(`saved the signed report to ${path.resolve(file)}`);
          out(
            JSON.stringify(
              {
                status: r.status,
                purchase_id: r.purchase_id,
                classifications: r.classifications,
                transaction: r.transaction,
                amount_micro: r.amount_micro,
                saved: file,
              },
              null,
              2,
            ),
          );
          return 0;
        }
        out(JSON.stringify(r, null, 2));
        return r.status === 'unavailable' ? 0 : 1;
      }
      case 'verify': {
        const file = need('<report.json>', arg);
        const pinned = need('--key', v.key ?? env.BUYER_EVIDENCE_KEY);
        let saved: unknown;
        try {
          saved = JSON.parse(await readFile(file, 'utf8'));
        } catch {
          return fail('FAIL', `${file} is not readable JSON`, 1);
        }
        // A checkpoint kept on its own (docs/wire.md §14) is verified as such; anything else as a report.
        const lone = (saved as { payload?: { type?: unknown } } | null)?.payload?.type === 'checkpoint';
        if (lone) {
          const c = verifyCheckpoint(saved, pinned.toLowerCase());
          if (!c.ok) {
            err(`FAIL: ${c.reason}`);
            if (json) out(JSON.stringify({ ok: false, reason: c.reason }, null, 2));
            return 1;
          }
          const p = c.checkpoint;
          if (json) out(JSON.stringify({ ok: true, checkpoint: p }, null, 2));
          else out(`OK checkpoint of purchase ${p.purchase_id}: ${p.resource} ${p.classification} at ${p.observed_at}`);
          return 0;
        }
        const result = verifySavedReport(saved, pinned.toLowerCase(), v['binding-key']);
        if (!result.ok) {
          err(`FAIL: ${result.reason}`);
          if (json) out(JSON.stringify({ ok: false, reason: result.reason }, null, 2));
          return 1;
        }
        if (json) {
          out(JSON.stringify(result, null, 2));
          return 0;
        }
        out(
          `OK purchase ${result.purchase_id}: ` +
            `${result.classifications.map((c) => `${c.resource} ${c.classification}`).join(', ')}; ` +
            `paid ${result.amount} by ${result.payer} in ${result.transaction}`,
        );
        return 0;
      }
      case 'refund': {
        const purchaseId = need('<purchase_id>', arg);
        const reason = need('--reason', v.reason);
        const kept = await claimStore().load(purchaseId);
        if (!kept)
          return fail(
            'ERROR',
            `no claim kept for purchase ${purchaseId} in ${v['checkpoint-dir']}/claims (buy it with --checkpoint-dir)`,
            1,
          );
        const view = await requestRefund(v.service ?? env.RIGHTS_SERVICE_URL ?? kept.base_url, kept.key, {
          purchase_id: purchaseId,
          reason,
          ...(v.message ? { message: v.message } : {}),
        });
        out(JSON.stringify(view, null, 2));
        return 0;
      }
      default:
        return fail('USAGE', `unknown command ${cmd}`, 2, USAGE);
    }
  } catch (e) {
    if (e instanceof UsageError) return fail('USAGE', e.message, 2, usageOf(cmd));
    if (e instanceof BuyerRefused) return fail('REFUSED', e.message, 1);
    return fail('ERROR', (e as Error).message, 1);
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

function hexKey(hex: string): Uint8Array {
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) throw new UsageError('BUYER_CHECKPOINT_KEY must be 64 hex characters');
  return Uint8Array.from(hex.match(/../g)!.map((b) => parseInt(b, 16)));
}

async function packageVersion(): Promise<string> {
  const pkg = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}
