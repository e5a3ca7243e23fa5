import { startTestOrigins, type TestOrigins } from '../../src/devnet/https-origin.js';
import { tmpdir } from 'node:os';
import { loadConfig } from '../../src/config/config.js';
import { SINGLE_REPORT_SKU } from '@rights-preflight/wire/contract/common.js';
import { GATE_SKU } from '@rights-preflight/wire/contract/ingestion-gate.js';
import { checkpointSealer } from '../../src/crypto/checkpoint-seal.js';
import { createSigner } from '@rights-preflight/wire/evidence/envelope.js';
import { evidenceKeyFromSeed } from '../../src/evidence/keys.js';
import { createApp } from '../../src/http/app.js';
import { quoteRouter } from '../../src/http/routes/quote.js';
import { reportsRouter } from '../../src/http/routes/reports.js';
import { InFlight } from '../../src/money-path/inflight.js';
import type { ResumeDeps } from '../../src/money-path/resume.js';
import { BASE_USDC, USDC } from '@rights-preflight/wire/payment/x402-constants.js';
import { ingestionGateProduct } from '../../src/products/ingestion-gate/product.js';
import { singleReportProduct } from '../../src/products/single-report/product.js';
import type { QuoteDeps } from '../../src/products/single-report/quote.js';
import { createRslEngine } from '../../src/rsl/engine.js';
import { listen, type Listening } from './listen.js';
import { memoryEventStore } from './memory/memory-event-store.js';
import { publisherSite, signalPublisherSite } from './publishers.js';
import { quietLogger } from './quiet-logger.js';
import { startedInHook } from './started-in-hook.js';
import { scriptedSettlement, type SettlementScript } from './scripted-settlement.js';

// The fast application-level world for money-path rules (test/README.md): the real quote and report
// routes in the real Koa app on loopback, the real RSL engine reading the test publishers over HTTPS on
// loopback, an in-memory store (held to the store conformance suite) and a settlement backend that
// answers from a script — no devnet, no service process, started in well under a second. Rules whose
// subject is the chain, several processes or real timing stay on the devnet world (./world.ts).

/** The recipient of the fast world's offers (no chain looks at it). */
export const FAST_PAY_TO = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' as const;

export interface FastWorld {
  url: string;
  origins: TestOrigins;
  store: ReturnType<typeof memoryEventStore>;
  settlement: ReturnType<typeof scriptedSettlement>;
  /** The evidence public key (hex) a buyer pins. */
  evidenceKey: string;
  deps: ResumeDeps & QuoteDeps;
  close(): Promise<void>;
}

export async function startFastWorld(script: SettlementScript = { used: [false] }): Promise<FastWorld> {
  const origins = await startTestOrigins({ ...publisherSite(), ...signalPublisherSite() });
  let http: Listening | undefined;
  try {
    // The service's own reading of the publishers' environment (COVERED_ORIGINS, FETCH_*), with time limits
    // that are only caps: no publisher here stalls, and on a machine busy past its cores the production
    // 5 s read of a loopback TLS origin, shared by a file's concurrent tests, read as a failure (UNKNOWN).
    const rsl = createRslEngine(loadConfig({ ...origins.env, DATA_DIR: tmpdir() }), {
      connectTimeoutMs: 30_000,
      readTimeoutMs: 30_000,
      totalTimeoutMs: 60_000,
    });
    const store = memoryEventStore();
    const settlement = scriptedSettlement(script);
    const key = evidenceKeyFromSeed(new Uint8Array(32).fill(7));
    let baseUrl = '';
    const deps: ResumeDeps & QuoteDeps = {
      store,
      log: quietLogger(),
      now: () => new Date(),
      get baseUrl() {
        return baseUrl;
      },
      coveredOrigins: [...rsl.coverage.origins],
      quoteTtlSeconds: 900,
      terms: {
        network: 'eip155:8453',
        asset: BASE_USDC,
        payTo: FAST_PAY_TO,
        eip712: USDC['eip155:8453'].eip712,
        maxTimeoutSeconds: 300,
        settlementWindowSeconds: 68,
      },
      claimSecret: new Uint8Array(32).fill(9),
      sign: createSigner(key),
      evidenceKeyId: key.keyId,
      ...checkpointSealer(new Uint8Array(32).fill(3)),
      inflight: new InFlight<unknown>(),
      products: { [SINGLE_REPORT_SKU]: singleReportProduct, [GATE_SKU]: ingestionGateProduct },
      settlement,
      observe: (resource, purpose, userClass) =>
        rsl.observe(resource, [purpose], { userClass, geo: null, freshnessSeconds: 300 }),
    };
    const app = createApp({
      log: deps.log,
      ready: async () => true,
      routers: [quoteRouter(deps), reportsRouter(deps)],
    });
    http = await listen(app);
    baseUrl = http.base;
    const served = http;
    return {
      url: served.base,
      origins,
      store,
      settlement,
      evidenceKey: key.publicKeyHex,
      deps,
      async close() {
        await served.close();
        rsl.close();
        await origins.close();
      },
    };
  } catch (err) {
    await http?.close();
    await origins.close();
    throw err;
  }
}

/** One fast world for the calling test file, started before its tests and closed after them. */
export const useFastWorld = (script?: SettlementScript): FastWorld =>
  startedInHook(
    () => startFastWorld(script),
    (w) => w.close(),
  );
