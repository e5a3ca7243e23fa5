import { mkdir } from 'node:fs/promises';
import type { ServiceConfig } from '../config/config.js';
import type { CrashAt } from '../runtime/crash-points.js';
import type { Logger } from '../runtime/log.js';
import { listenFirst } from '../http/listen-first.js';
import { openStore } from '../store/open/open.js';
import { openReadStore } from '../store/open/read-store.js';
import type { EventStore } from '../store/port.js';
import { createRslEngine } from '../rsl/engine.js';
import { InFlight } from '../money-path/inflight.js';
import type { PaymentTerms } from '../money-path/deps.js';
import { openReadModels, type ReadModels } from '../../projections/read-models.js';
import { startOperatorListener, type OperatorListenerHandle } from '../operator/http/listener.js';
// Deployment surface (docs/decisions.md, "Deployment surface"): metrics, readiness and drain, CORS.
import { createServiceMetrics } from '../metrics/service-metrics.js';
import { countedRsl } from '../metrics/instrument.js';
import { startMetricsListener } from '../metrics/metrics-listener.js';
import { warmPaidPath } from './warm-paid-path.js';
import { startBackground } from './background.js';
import type { Cleanups } from './cleanups.js';
import { moneyPathDeps } from './money-path-deps.js';
import { productCatalog } from './product-registry.js';
import { servePublicHttp } from './public-http.js';
import { loadSecrets } from './secrets.js';
import { openSettlement, paymentTerms } from './settlement.js';
import { followCoverage } from './coverage-follower.js';

export interface RunningService {
  url: string;
  /** The open event store (tests and operator tooling read it; the service owns closing it). */
  store: EventStore;
  storeKind: string;
  evidenceKey: { key_id: string; public_key: string };
  terms: PaymentTerms;
  /** The read-model tables (report view, investigation queue, refunds, compliance) and their checkpoint. */
  readModels: ReadModels;
  /** Whether this instance holds the database's leadership (runs the projector and the recovery worker). */
  isLeader(): boolean;
  /** GET /metrics of this instance (METRICS_LISTEN), undefined when off. */
  metricsUrl: string | undefined;
  /** Runs one recovery pass now if this instance leads (tests, operator tooling). */
  recover(): Promise<void>;
  /** The covered origins as this instance serves them now (the coverage ledger's fold). */
  coveredOrigins(): readonly string[];
  /** The operator listener (Unix socket in DATA_DIR; loopback TCP with OPERATOR_LISTEN). */
  operator: Pick<OperatorListenerHandle, 'socketPath' | 'tcpUrl'>;
  stop(): Promise<void>;
}

export interface ServiceOptions {
  /** Test-only crash points; production never sets this. */
  crashAt?: CrashAt;
  /** Test-only clock for the money path (recovery-window tests); defaults to the wall clock. */
  now?: () => Date;
}

/**
 * Composes the service from configuration: store, engines, money path, routes, recovery. It only
 * wires: settings are checked by config.ts, the chain is whatever RPC URL the configuration names
 * (main.ts starts the development devnet as a child process and passes its URL). Each part lives in
 * ./service/ (secrets, settlement, money-path deps, public HTTP, background work) and pushes onto
 * `cleanups` what undoes it, so a failure half-way closes what was opened, in reverse.
 */
export async function startService(
  config: ServiceConfig,
  log: Logger,
  options: ServiceOptions = {},
): Promise<RunningService> {
  await mkdir(config.dataDir, { recursive: true });
  const secrets = await loadSecrets(config);
  const cleanups: Cleanups = [];
  const metrics = createServiceMetrics();
  cleanups.push(async () => metrics.close());
  try {
    const store = await openStore(config.eventStoreUrl, { log });
    cleanups.push(() => store.close());
    const rsl = countedRsl(createRslEngine(config), metrics);
    cleanups.push(async () => rsl.close());
    // Coverage is the ledger's (COVERED_ORIGINS seeds an empty one), followed live before anything is served.
    const coverage = await followCoverage(store, rsl.coverage, { seed: config.coveredOrigins, log, now: options.now });
    cleanups.push(() => coverage.stop());

    const terms = await paymentTerms(config);
    const readStore = await openReadStore(store, config.readStoreUrl, log);
    const readModels = await openReadModels(store, { readStore, log });
    cleanups.push(() => readModels.close());
    const { crashAt } = options;
    const { settlement, funds } = await openSettlement(config, { readModels, log, metrics, crashAt }, cleanups);

    // Bound before anything is built on the base URL (offers and report URLs name it).
    const listener = await listenFirst(config.port, config.host);
    const { server, url } = listener;
    cleanups.push(async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    });

    const inflight = new InFlight<unknown>();
    const catalog = productCatalog();
    const moneyDeps = moneyPathDeps(config, catalog, {
      ...{ store, log, now: options.now, url, rsl, terms, secrets },
      ...{ inflight, crashAt, settlement, funds, metrics },
    });
    const { evidenceKey } = secrets;
    const evidencePublic = { key_id: evidenceKey.keyId, public_key: evidenceKey.publicKeyHex };
    const http = servePublicHttp(
      config,
      { log, listener, rsl, terms, evidencePublic, moneyDeps, catalog, metrics, readModels, settlement, funds },
      cleanups,
    );
    const metricsServer = await startMetricsListener(metrics.registry, config, log);
    if (metricsServer) cleanups.push(() => metricsServer.close());

    const { leadership, recover } = startBackground(
      config,
      { log, store, readModels, moneyDeps, inflight, metrics },
      cleanups,
    );
    await leadership.settled;
    // The first buyers after a start do not pay for V8 compiling the paid path (warm-paid-path.ts).
    const warmMs = await warmPaidPath(terms);
    log.debug({ ms: Math.round(warmMs) }, 'paid path warmed');
    http.readiness.markReady();

    // Operators work beside the running service on their own listener, never the public one.
    const operator = await startOperatorListener({
      config,
      log,
      store,
      models: readModels,
      now: moneyDeps.now,
      isLeader: () => leadership.isLeader(),
    });
    cleanups.push(() => operator.stop());

    return {
      url,
      store,
      storeKind: store.kind,
      evidenceKey: evidencePublic,
      terms,
      readModels,
      isLeader: () => leadership.isLeader(),
      coveredOrigins: () => [...rsl.coverage.origins],
      metricsUrl: metricsServer?.url,
      recover,
      operator: { socketPath: operator.socketPath, tcpUrl: operator.tcpUrl },
      async stop() {
        // Drain first: the listener closes and in-flight requests finish while the store is still open.
        await http.drain();
        for (const c of cleanups.reverse())
          await c().catch((err) => log.warn({ err: { message: (err as Error).message } }, 'stop step failed'));
        cleanups.length = 0;
      },
    };
  } catch (err) {
    for (const c of cleanups.reverse()) await c().catch(() => {});
    throw err;
  }
}
