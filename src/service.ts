import { mkdir } from 'node:fs/promises';
import type { ServiceConfig } from './config.js';
import type { Logger } from './log.js';
import { createApp } from './http/app.js';
import { answerClientError } from './http/client-error.js';
import { createRateLimits, type RateLimitedRoute } from './http/rate-limit.js';
import { createInspectPool } from './rsl/inspect-pool.js';
import { DEFAULT_PARSE_LIMITS } from './rsl/parse.js';
import { listenFirst } from './http/listen-first.js';
import { openStore } from './store/open.js';
import type { EventStore } from './store/port.js';
import { createRslEngine } from './rsl/engine.js';
import { loadEvidenceKey } from './evidence/keys.js';
import { createSigner } from './evidence/envelope.js';
import { loadCheckpointKey } from './crypto/checkpoint-key.js';
import { checkpointSealer } from './crypto/checkpoint-seal.js';
import { createSettlement } from './payment/settlement/create.js';
import { tokenDomain } from './payment/token-domain.js';
import { loadClaimSecret } from './money-path/claim.js';
import { InFlight } from './money-path/inflight.js';
import type { MoneyPathDeps, PaymentTerms } from './money-path/deps.js';
import type { ResumeDeps } from './money-path/resume.js';
import { resumePurchase } from './money-path/resume.js';
import type { QuoteDeps } from './products/single-report/quote.js';
import { recoveryPass, startRecoveryWorker, type RecoveryWorker } from './money-path/recovery-worker.js';
import { quoteRouter } from './http/routes/quote.js';
import { reportsRouter } from './http/routes/reports.js';
import { capabilitiesRouter } from './http/routes/capabilities.js';
import { inspectRouter } from './http/routes/inspect.js';
import { preflightRouter } from './http/routes/preflight.js';
import { ingestionGateRouter } from './http/routes/ingestion-gate.js';
import { revalidateRouter } from './http/routes/revalidate.js';
import { REVALIDATE_PATH, REVALIDATE_SKU } from './contract/revalidation.js';
import { revalidationProduct } from './products/revalidation/product.js';
import type { RevalidateDeps } from './products/revalidation/revalidate.js';
import { refundsRouter } from './http/routes/refunds.js';
import { mcpRouter } from './http/routes/mcp.js';
import { MCP_QUOTE_TOOL } from './mcp/tools.js';
import { openApiRouter } from './http/routes/openapi.js';
import { docsRouter } from './http/routes/docs.js';
import { buildCapabilities, type CapabilitiesDeps } from './http/routes/capabilities.js';
import { quote } from './products/single-report/quote.js';
import type { GateDeps } from './products/ingestion-gate/gate.js';
import { ingestionGateProduct } from './products/ingestion-gate/product.js';
import { singleReportProduct } from './products/single-report/product.js';
import { SINGLE_REPORT_SKU } from './contract/common.js';
import { GATE_PATH, GATE_SKU } from './contract/ingestion-gate.js';
import { openReadModels, type ReadModels } from '../projections/read-models.js';
import { startLeadership, type Leadership } from '../projections/leadership.js';
import { startProjector } from '../projections/projector.js';
import { recoveryCandidates } from '../projections/queries/recovery-candidates.js';
import { startOperatorListener, type OperatorListenerHandle } from './operator/listener.js';
// Deployment surface (issue 15): metrics, readiness and drain, CORS.
import { createServiceMetrics } from './metrics/service-metrics.js';
import { countedRecoveryPass, countedRsl, countedSettlement } from './metrics/instrument.js';
import { registerReadModelGauges } from './metrics/read-model-gauges.js';
import { startMetricsListener } from './metrics/metrics-listener.js';
import { requestMetrics } from './http/request-metrics.js';
import { browserCors } from './http/cors.js';
import { chainAnswers, createReadiness, relayerFunded } from './http/readiness.js';
import { registerRelayerGauges } from './metrics/relayer-gauges.js';
import { relayerFunds } from './payment/settlement/relayer-funds.js';
import { leaseRelayerKey, type LeasedRelayerKey } from './payment/settlement/relayer-key-lease.js';
import { chainClient } from './payment/settlement/chain-reads.js';
import { closeGracefully } from './http/graceful-close.js';

/**
 * The relayer key this instance signs with (SETTLEMENT=self), leased in the store so no two processes ever
 * sign with one relayer account's nonces: from a RELAYER_PRIVATE_KEYS pool the first key no other instance
 * holds; a lone RELAYER_PRIVATE_KEY is a pool of one (docs/decisions.md, "Fee cap, filler transaction and
 * confirmation levels"). Start-up fails, naming RELAYER_PRIVATE_KEYS, when every key is held.
 */
async function leaseRelayer(
  config: ServiceConfig,
  readModels: ReadModels,
  log: Logger,
): Promise<LeasedRelayerKey | undefined> {
  const tryLease = (name: string) => readModels.db.tryLease(name);
  if (config.relayerPrivateKeys) return leaseRelayerKey(config.relayerPrivateKeys, tryLease, { log });
  if (!config.relayerPrivateKey) return undefined;
  return leaseRelayerKey([config.relayerPrivateKey], tryLease, { log, variable: 'RELAYER_PRIVATE_KEY' });
}

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
  /** The operator listener (Unix socket in DATA_DIR; loopback TCP with OPERATOR_LISTEN). */
  operator: Pick<OperatorListenerHandle, 'socketPath' | 'tcpUrl'>;
  stop(): Promise<void>;
}

export interface ServiceOptions {
  /** Test-only crash points; production never sets this. */
  crashAt?: MoneyPathDeps['crashAt'];
  /** Test-only clock for the money path (recovery-window tests); defaults to the wall clock. */
  now?: () => Date;
}

/**
 * Composes the service from configuration: store, engines, money path, routes, recovery. It only
 * wires: settings are checked by config.ts, the chain is whatever RPC URL the configuration names
 * (main.ts starts the development devnet as a child process and passes its URL).
 */
export async function startService(
  config: ServiceConfig,
  log: Logger,
  options: ServiceOptions = {},
): Promise<RunningService> {
  await mkdir(config.dataDir, { recursive: true });
  // Keys and secrets first: in production (NODE_ENV=production) a missing one is a start-up error
  // naming its variable, never a silently generated key; development generates them into DATA_DIR.
  const generate = !config.production;
  const evidenceKey = await loadEvidenceKey(config.evidenceKeyHex, config.dataDir, { generate });
  const checkpointKey = await loadCheckpointKey(config, { generate });
  const claimSecret = await loadClaimSecret(config.claimSecretHex, config.dataDir, { generate });
  const cleanups: (() => Promise<void>)[] = [];
  const metrics = createServiceMetrics();
  cleanups.push(async () => metrics.close());
  try {
    const store = await openStore(config.eventStoreUrl, { log });
    cleanups.push(() => store.close());
    const rsl = countedRsl(createRslEngine(config), metrics);
    cleanups.push(async () => rsl.close());

    const terms: PaymentTerms = {
      network: config.network,
      asset: config.usdcAsset,
      payTo: config.payTo,
      eip712: await tokenDomain(config.rpcUrl, config.network, config.usdcAsset),
      maxTimeoutSeconds: 300,
    };
    const readModels = await openReadModels(store, { readStoreUrl: config.readStoreUrl, log });
    cleanups.push(() => readModels.close());

    // SETTLEMENT=self signs with one relayer key, leased in the store so no other instance signs with it
    // (RELAYER_PRIVATE_KEYS, or a lone RELAYER_PRIVATE_KEY as a pool of one: docs/decisions.md).
    const relayerKey = config.settlement === 'self' ? await leaseRelayer(config, readModels, log) : undefined;
    if (relayerKey) cleanups.push(() => relayerKey.release());
    // Either backend (SETTLEMENT=self|facilitator).
    const settlement = createSettlement(relayerKey ? { ...config, relayerPrivateKey: relayerKey.privateKey } : config, {
      ...(options.crashAt ? { afterSettle: () => options.crashAt!('after-settle') } : {}),
      ...(relayerKey?.holds ? { holdsKey: relayerKey.holds } : {}),
      onReplacement: () => metrics.relayerReplacements.inc(),
    });
    const funds = relayerKey
      ? relayerFunds(chainClient(config.rpcUrl, config.network), relayerKey.address, config.relayerMinSettlements)
      : undefined;

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
    const base = {
      store,
      log,
      now: options.now ?? (() => new Date()),
      baseUrl: (config.publicBaseUrl ?? url).replace(/\/$/, ''),
      coveredOrigins: rsl.coverage.origins as string[],
      quoteTtlSeconds: config.quoteTtlSeconds,
      terms,
      claimSecret,
      sign: createSigner(evidenceKey),
      evidenceKeyId: evidenceKey.keyId,
      // Sealed per purchase (AAD = checkpointAad(id)); legacy compact values of old streams still open.
      ...checkpointSealer(checkpointKey),
      inflight,
      products: {
        [SINGLE_REPORT_SKU]: singleReportProduct,
        [GATE_SKU]: ingestionGateProduct,
        [REVALIDATE_SKU]: revalidationProduct,
      },
      ...(options.crashAt ? { crashAt: options.crashAt } : {}),
      ...(funds ? { relayerCanPay: () => funds.sufficient() } : {}),
    } satisfies MoneyPathDeps;
    const moneyDeps: ResumeDeps & QuoteDeps & GateDeps & RevalidateDeps = {
      ...base,
      settlement: countedSettlement(settlement, metrics),
      observe: (resource, purpose, userClass) =>
        rsl.observe(resource, [purpose], { userClass, geo: null, freshnessSeconds: 300 }),
      observeGate: (resource, purposes, ctx) => rsl.observe(resource, purposes, ctx),
      evidenceKeys: [{ key_id: evidenceKey.keyId, public_key: evidenceKey.publicKeyHex }],
    };

    // Every public operation that fetches or works before payment; the MCP quote tool spends the quote's.
    const rateLimits: RateLimitedRoute[] = [
      { method: 'POST', path: '/v1/rights/inspect', name: 'inspect', limit: config.rateLimits.inspect },
      {
        method: 'POST',
        path: '/v1/rights/quote',
        name: 'quote',
        limit: config.rateLimits.quote,
        mcpTools: [MCP_QUOTE_TOOL],
      },
      { method: 'POST', path: '/v1/rights/preflight', name: 'preflight', limit: config.rateLimits.preflight },
      { method: 'POST', path: GATE_PATH, name: 'gate', limit: config.rateLimits.gate },
      { method: 'POST', path: REVALIDATE_PATH, name: 'revalidate', limit: config.rateLimits.gate },
    ];
    const limits = createRateLimits(rateLimits, { trustProxy: config.trustProxy });
    const inspectPool = createInspectPool({
      size: config.inspectWorkers,
      maxQueue: config.inspectQueue,
      maxQueueChars: config.inspectQueueChars,
      parseCacheChars: config.inspectParseCacheChars,
      perWorker: 4,
      jobTimeoutMs: 4 * DEFAULT_PARSE_LIMITS.maxMillis,
    });
    cleanups.push(() => inspectPool.close());
    const evidencePublic = { key_id: evidenceKey.keyId, public_key: evidenceKey.publicKeyHex };
    const capabilityDeps: CapabilitiesDeps = {
      coveredOrigins: () => [...rsl.coverage.origins],
      terms,
      evidenceKeys: [evidencePublic],
      quoteTtlSeconds: config.quoteTtlSeconds,
      enabled: { preflight: true, ingestionGate: true, revalidate: true },
      rateLimits,
      now: () => new Date(),
    };
    registerReadModelGauges(metrics.registry, readModels);
    if (funds && settlement.pendingTransactions)
      registerRelayerGauges(metrics.registry, { funds, pending: settlement.pendingTransactions });
    const readiness = createReadiness(
      [
        { name: 'store', probe: () => readModels.feed.head() },
        { name: 'chain_rpc', probe: chainAnswers(config.rpcUrl) },
        ...(funds ? [{ name: 'relayer_funds' as const, probe: relayerFunded(funds) }] : []),
      ],
      { log },
    );
    const app = createApp({
      log,
      ready: () => readiness.ready(),
      middleware: [limits.middleware],
      outer: [
        requestMetrics(metrics.httpDuration),
        ...[browserCors(config.corsOrigins)].filter((m) => m !== undefined),
      ],
      // In the order requests reach them: each router a request passes costs it two middleware steps.
      routers: [
        capabilitiesRouter(capabilityDeps),
        inspectRouter({ inspect: (xml, q) => inspectPool.inspect(xml, q) }),
        quoteRouter(moneyDeps),
        reportsRouter(moneyDeps),
        preflightRouter(moneyDeps),
        ingestionGateRouter(moneyDeps),
        revalidateRouter(moneyDeps),
        refundsRouter(moneyDeps),
        mcpRouter((ctx) => ({
          capabilities: () => buildCapabilities(capabilityDeps),
          quote: (req) => {
            limits.spend('quote', ctx.req);
            return quote(moneyDeps, req, undefined);
          },
        })),
        openApiRouter({ version: '0.1.0', serverUrl: () => moneyDeps.baseUrl }),
        docsRouter({ version: '0.1.0' }),
      ],
    });
    listener.server.on('clientError', answerClientError);
    listener.serve(app.callback());
    let httpClosed: Promise<void> | undefined;
    const drainHttp = () => {
      readiness.markDraining();
      return (httpClosed ??= closeGracefully(listener.server, config.shutdownGraceMs));
    };
    cleanups.push(drainHttp);
    const metricsServer = await startMetricsListener(metrics.registry, config, log);
    if (metricsServer) cleanups.push(() => metricsServer.close());

    // Recovery: on start and every RECOVERY_INTERVAL_MS, resume paid-but-undelivered purchases. The
    // candidates are an indexed query of the report view, once it has caught up with the store.
    const pass = recoveryPass({
      caughtUp: (ms) => readModels.caughtUp(ms),
      candidates: () => recoveryCandidates(readModels.db),
      resume: (id) => resumePurchase(moneyDeps, id),
      inflight,
      log,
      catchUpMs: Math.min(config.recoveryIntervalMs, 10_000),
    });
    // One leader per database runs the projector and the recovery worker; every instance serves HTTP.
    let worker: RecoveryWorker | undefined;
    const leadership: Leadership = startLeadership({
      db: readModels.db,
      name: 'read-models',
      log,
      lead: async () => {
        const projector = startProjector({
          db: readModels.db,
          feed: readModels.feed,
          log,
          onAdvance: () => readModels.advanced(),
          ...(store.onAppend ? { onAppend: (wake) => store.onAppend!(wake) } : {}),
        });
        const recovery = startRecoveryWorker({
          intervalMs: config.recoveryIntervalMs,
          log,
          pass: countedRecoveryPass(pass, metrics),
        });
        worker = recovery;
        return async () => {
          worker = undefined;
          await recovery.stop();
          await projector.stop();
        };
      },
    });
    cleanups.push(async () => {
      await leadership.stop();
      await inflight.drain();
    });
    await leadership.settled;
    readiness.markReady();

    // Operators work beside the running service on their own listener, never the public one.
    const operator = await startOperatorListener({
      config,
      log,
      store,
      models: readModels,
      now: base.now,
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
      metricsUrl: metricsServer?.url,
      recover: async () => {
        await worker?.runNow();
      },
      operator: { socketPath: operator.socketPath, tcpUrl: operator.tcpUrl },
      async stop() {
        // Drain first: the listener closes and in-flight requests finish while the store is still open.
        await drainHttp();
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
