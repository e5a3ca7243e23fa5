import type { ExecutionContext } from 'ava';
import type { DevnetOptions } from '../../../src/devnet/devnet.js';
import { signPayment } from '../../support/pay.js';
import { getReport, quoteAndOffer, type MoneyWorld } from '../../support/money-env.js';
import type { ServiceProcess } from '../../support/service-process.js';
import { useWorld } from '../../support/world.js';
import { assertNoSecretsLogged } from '../../support/secrets.js';

// The world of the SIGKILL tests: the test world for the file (devnet and publishers in this process),
// the service in processes of its own (its startProcess) that a test crashes at a chosen point and
// starts again on the same store, every line they print kept for the secret grep.

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
  const w = useWorld({ service: false, ...(opts.devnet ? { devnet: opts.devnet } : {}) });
  const claims: string[] = [];
  const paymentHeaders: string[] = [];
  const crash: CrashWorld = {
    world: () => w,
    start: (env = {}) => w.startProcess({ NODE_ENV: 'test', ...opts.env, ...env }),
    async paidOffer(url, buyer) {
      const { q, paymentRequired } = await quoteAndOffer(url, { purpose: 'search' });
      claims.push(q.claim_token);
      const header = await signPayment(buyer.privateKey, paymentRequired);
      paymentHeaders.push(header);
      return { q, header };
    },
    redeem: (url, { q, header }) =>
      getReport(url, q.report_url, { 'x-service-claim': q.claim_token, 'payment-signature': header }),
    assertNoSecretsLogged: (t) => assertNoSecretsLogged(t, w.allLogs(), { claims, paymentHeaders }),
  };
  return crash;
}
