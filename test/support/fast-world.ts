import { tmpdir } from 'node:os';
import { startTestOrigins, type TestOrigins } from '../../src/devnet/https-origin.js';
import { BASE_USDC, USDC } from '@rights-preflight/wire/payment/x402-constants.js';
import { loadConfig, type ServiceConfig } from '../../src/config/config.js';
import { evidenceKeyFromSeed } from '../../src/evidence/keys.js';
import { listenFirst, type EarlyListener } from '../../src/http/listen-first.js';
import { createServiceMetrics } from '../../src/metrics/service-metrics.js';
import type { PaymentTerms } from '../../src/money-path/deps.js';
import { InFlight } from '../../src/money-path/inflight.js';
import type { ResumeDeps } from '../../src/money-path/resume.js';
import { createRslEngine } from '../../src/rsl/engine.js';
import { moneyPathDeps } from '../../src/service/money-path-deps.js';
import {
  PRODUCT_REGISTRY,
  productCatalog,
  type AnyListing,
  type ProductCatalog,
  type RegistryOwn,
} from '../../src/service/product-registry.js';
import { publicApp, servePublicApp } from '../../src/service/public-http.js';
import { memoryEventStore } from './memory/memory-event-store.js';
import { LOCAL_RATE_LIMITS } from '../../ops/world/local-rate-limits.js';
import { publisherSite, signalPublisherSite } from './publishers.js';
import { quietLogger } from './quiet-logger.js';
import { scriptedSettlement, type SettlementScript } from './scripted-settlement.js';
import { startedInHook } from './started-in-hook.js';

// The fast world for money-path rules (test/README.md): the service's own composition — the money path's
// deps (src/service/money-path-deps.ts) and the public app with every product of the registry
// (src/service/public-http.ts, src/service/product-registry.ts) — on loopback, the real RSL engine reading
// the test publishers over HTTPS on loopback, an in-memory store (held to the store conformance suite) and
// a settlement backend that answers from a script: no devnet, no service process, no database. Rules
// whose subject is the chain, several processes or real timing stay on the devnet world (./world.ts).
// `products` adds listings to the registry's (a product defined in the test tree is sold as one of ours);
// `env` adds to the service's environment (a rate limit, CORS origins).

/** The recipient of the fast world's offers (no chain looks at it). */
export const FAST_PAY_TO = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' as const;

/** The terms the scripted chain stands for: Base mainnet USDC (nothing is ever sent). */
const FAST_TERMS: PaymentTerms = {
  network: 'eip155:8453',
  asset: BASE_USDC,
  payTo: FAST_PAY_TO,
  eip712: USDC['eip155:8453'].eip712,
  maxTimeoutSeconds: 300,
  settlementWindowSeconds: 68,
};

export interface FastWorldOptions {
  /** Listings sold beside the registry's (a test's own product). */
  products?: readonly AnyListing[];
  /** Added to the service's environment, after this world's own (e.g. a route's rate limit, CORS_ORIGINS). */
  env?: Record<string, string>;
}

export interface FastWorld {
  url: string;
  origins: TestOrigins;
  store: ReturnType<typeof memoryEventStore>;
  settlement: ReturnType<typeof scriptedSettlement> & { kind: 'self' };
  /** The evidence public key (hex) a buyer pins. */
  evidenceKey: string;
  /** The deps the service's composition made: the money path's and every product's observer. */
  deps: ResumeDeps & RegistryOwn;
  catalog: ProductCatalog;
  close(): Promise<void>;
}

export async function startFastWorld(
  script: SettlementScript = { used: [false] },
  opts: FastWorldOptions = {},
): Promise<FastWorld> {
  const origins = await startTestOrigins({ ...publisherSite(), ...signalPublisherSite() });
  let listener: EarlyListener | undefined;
  try {
    // The service's own reading of the publishers' environment; no chain is asked (the settlement is scripted).
    const config: ServiceConfig = {
      ...loadConfig({ ...origins.env, ...LOCAL_RATE_LIMITS, DATA_DIR: tmpdir(), ...opts.env }),
      rpcUrl: 'http://127.0.0.1:9',
      payTo: FAST_PAY_TO,
    };
    // Time limits that are only caps: no publisher here stalls, and on a machine busy past its cores the
    // production 5 s read of a loopback TLS origin, shared by a file's concurrent tests, read as a failure.
    const rsl = createRslEngine(config, { connectTimeoutMs: 30_000, readTimeoutMs: 30_000, totalTimeoutMs: 60_000 });
    const store = memoryEventStore();
    const settlement = Object.assign(scriptedSettlement(script), { kind: 'self' as const });
    const log = quietLogger();
    const metrics = createServiceMetrics();
    const key = evidenceKeyFromSeed(new Uint8Array(32).fill(7));
    // A test's own listings add observers of their own; the registry's are typed, theirs are the test's.
    const catalog: ProductCatalog = productCatalog([...PRODUCT_REGISTRY, ...(opts.products ?? [])]);
    // Bound first, as the service does: offers and report URLs name the base URL.
    listener = await listenFirst(0, '127.0.0.1');
    const deps = moneyPathDeps(config, catalog, {
      ...{ store, log, now: undefined, url: listener.url, rsl, terms: FAST_TERMS, metrics },
      secrets: { evidenceKey: key, checkpointKey: new Uint8Array(32).fill(3), claimSecret: new Uint8Array(32).fill(9) },
      ...{ inflight: new InFlight<unknown>(), crashAt: undefined, settlement, funds: undefined },
    });
    const app = publicApp(config, {
      ...{ log, rsl, terms: FAST_TERMS, moneyDeps: deps, catalog, metrics },
      evidencePublic: { key_id: key.keyId, public_key: key.publicKeyHex },
      ready: async () => true,
      inspect: undefined,
    });
    servePublicApp(listener, app);
    const served = listener;
    return {
      url: served.url,
      origins,
      store,
      settlement,
      evidenceKey: key.publicKeyHex,
      deps,
      catalog,
      async close() {
        await new Promise<void>((resolve) => {
          served.server.close(() => resolve());
          served.server.closeAllConnections();
        });
        metrics.close();
        rsl.close();
        await origins.close();
      },
    };
  } catch (err) {
    listener?.server.close();
    await origins.close();
    throw err;
  }
}

/** One fast world for the calling test file, started before its tests and closed after them. */
export const useFastWorld = (script?: SettlementScript, opts: FastWorldOptions = {}): FastWorld =>
  startedInHook(
    () => startFastWorld(script, opts),
    (w) => w.close(),
  );
