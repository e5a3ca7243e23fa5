import test, { type ExecutionContext } from 'ava';
import type { DevnetOptions } from '../../../ops/devnet/devnet.js';
import { signPayment } from '../../support/pay.js';
import { DECLARED, getReport, moneyWorld, postQuote, type MoneyWorld } from '../../support/money-env.js';
import { startServiceProcess, type ServiceProcess } from '../../support/service-process.js';
import { assertNoSecretsLogged } from '../../support/secrets.js';

// The world of the SIGKILL tests: one money world for the file (devnet and publishers in this process),
// the service in processes of its own that a test crashes at a chosen point and starts again on the same
// store, every line they print kept for the secret grep.

export interface CrashWorld {
  world(): MoneyWorld;
  /** A service process on the world's store, with `env` added (e.g. its crash point). */
  start(env?: Record<string, string>): Promise<ServiceProcess>;
  /** A quote and its 402 offer through `url`, paid by `buyer`: what a buyer holds before it redeems. */
  paidOffer(
    url: string,
    buyer: { privateKey: `0x${string}` },
  ): Promise<{ q: { purchase_id: string; report_url: string; claim_token: string }; header: string }>;
  /** The paid request to `url` (which a test expects the crash to cut off). */
  redeem(url: string, paid: Awaited<ReturnType<CrashWorld['paidOffer']>>): ReturnType<typeof getReport>;
  /** What every process and the in-process service printed holds no claim, payment signature or authorization. */
  assertNoSecretsLogged(t: ExecutionContext): void;
}

export function useCrashWorld(opts: { devnet?: DevnetOptions; env?: Record<string, string> } = {}): CrashWorld {
  let w: MoneyWorld | undefined;
  let processLogs = '';
  const running: ServiceProcess[] = [];
  const claims: string[] = [];
  const paymentHeaders: string[] = [];
  test.before(async () => {
    w = await moneyWorld(opts.devnet ? { devnet: opts.devnet } : {});
  });
  test.after.always(async () => {
    for (const p of running) await p.kill9();
    await w?.close();
  });
  const crash: CrashWorld = {
    world: () => w!,
    async start(env = {}) {
      const p = await startServiceProcess({ ...w!.env, NODE_ENV: 'test', ...opts.env, ...env }, (s) => {
        processLogs += s;
      });
      running.push(p);
      return p;
    },
    async paidOffer(url, buyer) {
      const q = (
        await postQuote(url, { resource: DECLARED, purpose: 'search', tier: 'fresh', max_total_micro: '20000' })
      ).body;
      claims.push(q.claim_token);
      const offer = await getReport(url, q.report_url, { 'x-service-claim': q.claim_token });
      if (offer.status !== 402) throw new Error(`the offer answered ${offer.status}: ${offer.text}`);
      const header = await signPayment(buyer.privateKey, offer.headers.get('payment-required')!);
      paymentHeaders.push(header);
      return { q, header };
    },
    redeem: (url, { q, header }) =>
      getReport(url, q.report_url, { 'x-service-claim': q.claim_token, 'payment-signature': header }),
    assertNoSecretsLogged: (t) => assertNoSecretsLogged(t, processLogs + (w?.logs() ?? ''), { claims, paymentHeaders }),
  };
  return crash;
}
