import { mkdir } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPublicClient, defineChain, http as httpTransport, parseAbi, type Hex } from 'viem';
import type { Config } from './config.js';
import type { Logger } from './log.js';
import { createApp } from './http/app.js';
import { openStore } from './store/open.js';
import type { EventStore } from './store/port.js';
import { createRslEngine } from './rsl/engine.js';
import { loadEvidenceKey } from './evidence/keys.js';
import { createSigner } from './evidence/envelope.js';
import { loadCheckpointKey } from './crypto/checkpoint-key.js';
import { checkpointSealer } from './crypto/checkpoint-seal.js';
import { createSettlement } from './payment/settlement/create.js';
import { loadClaimSecret } from './purchase/claim.js';
import { InFlight } from './purchase/inflight.js';
import type { MoneyPathDeps, PaymentTerms } from './purchase/deps.js';
import type { ResumeDeps } from './purchase/resume.js';
import { resumePurchase } from './purchase/resume.js';
import type { QuoteDeps } from './purchase/quote.js';
import { startRecoveryWorker, type RecoveryWorker } from './purchase/recovery-worker.js';
import { quoteRouter } from './http/routes/quote.js';
import { reportsRouter } from './http/routes/reports.js';
import { capabilitiesRouter } from './http/routes/capabilities.js';
import { inspectRouter } from './http/routes/inspect.js';
import { preflightRouter } from './http/routes/preflight.js';
import { ingestionGateRouter } from './http/routes/ingestion-gate.js';
import { refundsRouter } from './http/routes/refunds.js';
import { mcpRouter } from './http/routes/mcp.js';
import { openApiRouter } from './http/routes/openapi.js';
import { buildCapabilities, type CapabilitiesDeps } from './http/routes/capabilities.js';
import { quote } from './purchase/quote.js';
import type { GateDeps } from './gate/gate.js';
import { openReadModels, type ReadModels } from '../projections/read-models.js';
import { startLeadership, type Leadership } from '../projections/leadership.js';
import { startProjector } from '../projections/projector.js';
import { recoveryCandidates } from '../projections/queries/recovery-candidates.js';
// Deployment surface (issue 15): metrics, readiness and drain, CORS.
import { createServiceMetrics } from './metrics/service-metrics.js';
import { countedRecoveryPass, countedRsl, countedSettlement } from './metrics/instrument.js';
import { registerReadModelGauges } from './metrics/read-model-gauges.js';
import { startMetricsServer } from './metrics/server.js';
import { requestMetrics } from './http/request-metrics.js';
import { browserCors } from './http/cors.js';
import { chainAnswers, createReadiness } from './http/readiness.js';
import { closeGracefully } from './http/graceful-close.js';

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
  stop(): Promise<void>;
}

export interface ServiceOptions {
  /** Test-only crash points; production never sets this. */
  crashAt?: MoneyPathDeps['crashAt'];
  /** Test-only clock for the money path (recovery-window tests); defaults to the wall clock. */
  now?: () => Date;
}

/** EIP-712 domains of the real deployments, used when the token cannot be asked. */
const KNOWN_DOMAINS: Record<string, { name: string; version: string }> = {
  'eip155:8453': { name: 'USD Coin', version: '2' },
  'eip155:84532': { name: 'USDC', version: '2' },
};

/** Composes the service from configuration: store, engines, money path, routes, recovery. */
export async function startService(config: Config, log: Logger, options: ServiceOptions = {}): Promise<RunningService> {
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
    // Chain: the configured RPC, or (development) the local devnet in-process.
    let rpcUrl = config.rpcUrl;
    let relayerKey = config.relayerPrivateKey ? (`0x${config.relayerPrivateKey}` as Hex) : undefined;
    let payTo = config.payTo;
    if (!rpcUrl && config.devnet === 'auto') {
      const { startDevnet } = await import('../ops/devnet/devnet.js');
      const devnet = await startDevnet();
      cleanups.push(() => devnet.stop());
      rpcUrl = devnet.rpcUrl;
      relayerKey ??= devnet.relayer.privateKey;
      payTo ??= devnet.payTo;
      // Development keys of the local chain only (Hardhat's public test keys), printed for the demo.
      log.info({ devnet_rpc_url: devnet.rpcUrl, usdc: devnet.usdc, pay_to: devnet.payTo, buyer_keys: devnet.buyers.map((b) => `${b.address}:${b.privateKey}`) }, 'development devnet started (test keys, no real funds)');
      if (!config.production) process.stderr.write((await import('../ops/devnet/dev-chain-block.js')).devChainBlock(devnet));
    }
    if (!rpcUrl) throw new Error('RPC_URL is required when DEVNET=off');
    if (!payTo) throw new Error('PAY_TO is required outside the development devnet');
    if (config.settlement === 'self' && !relayerKey) throw new Error('RELAYER_PRIVATE_KEY is required for SETTLEMENT=self');
    if (config.settlement === 'facilitator' && !config.facilitatorUrl) throw new Error('FACILITATOR_URL is required for SETTLEMENT=facilitator');

    const store = await openStore(config.eventStoreUrl, { log });
    cleanups.push(() => store.close());
    const rsl = countedRsl(createRslEngine(config), metrics);
    cleanups.push(async () => rsl.close());

    const terms: PaymentTerms = {
      network: config.network,
      asset: config.usdcAsset,
      payTo,
      eip712: await tokenDomain(rpcUrl, config.network, config.usdcAsset),
      maxTimeoutSeconds: 300,
    };
    // Either backend (SETTLEMENT=self|facilitator); the devnet may have supplied the RPC URL and key.
    const settlement = createSettlement(config, {
      rpcUrl,
      ...(relayerKey ? { relayerPrivateKey: relayerKey } : {}),
      ...(options.crashAt ? { afterSettle: () => options.crashAt!('after-settle') } : {}),
    });

    const inflight = new InFlight<unknown>();
    const base = {
      store,
      log,
      now: options.now ?? (() => new Date()),
      baseUrl: '', // set once the listening address is known
      coveredOrigins: rsl.coverage.origins as string[],
      quoteTtlSeconds: config.quoteTtlSeconds,
      terms,
      claimSecret,
      sign: createSigner(evidenceKey),
      evidenceKeyId: evidenceKey.keyId,
      // Sealed per purchase (AAD = checkpointAad(id)); legacy compact values of old streams still open.
      ...checkpointSealer(checkpointKey),
      inflight,
      ...(options.crashAt ? { crashAt: options.crashAt } : {}),
    } satisfies MoneyPathDeps;
    const moneyDeps: ResumeDeps & QuoteDeps & GateDeps = {
      ...base,
      settlement: countedSettlement(settlement, metrics),
      observe: (resource, purpose, userClass) => rsl.observe(resource, [purpose], { userClass, geo: null, freshnessSeconds: 300 }),
      observeGate: (resource, purposes, ctx) => rsl.observe(resource, purposes, ctx),
    };

    const readModels = await openReadModels(store, { readStoreUrl: config.readStoreUrl, log });
    cleanups.push(() => readModels.close());
    const evidencePublic = { key_id: evidenceKey.keyId, public_key: evidenceKey.publicKeyHex };
    const capabilityDeps: CapabilitiesDeps = {
      coveredOrigins: () => [...rsl.coverage.origins],
      terms,
      evidenceKeys: [evidencePublic],
      quoteTtlSeconds: config.quoteTtlSeconds,
      enabled: { preflight: true, ingestionGate: true, revalidate: false },
      now: () => new Date(),
    };
    registerReadModelGauges(metrics.registry, readModels);
    const readiness = createReadiness([() => readModels.feed.head(), chainAnswers(rpcUrl)]);
    const app = createApp({
      log,
      ready: () => readiness.ready(),
      outer: [requestMetrics(metrics.httpDuration), ...[browserCors(config.corsOrigins)].filter((m) => m !== undefined)],
      routers: [
        inspectRouter(),
        quoteRouter(moneyDeps),
        reportsRouter(moneyDeps),
        capabilitiesRouter(capabilityDeps),
        preflightRouter(moneyDeps),
        ingestionGateRouter(moneyDeps),
        refundsRouter(moneyDeps),
        mcpRouter({ capabilities: () => buildCapabilities(capabilityDeps), quote: (req) => quote(moneyDeps, req, undefined) }),
        openApiRouter({ version: '0.1.0', serverUrl: () => moneyDeps.baseUrl || undefined }),
      ],
    });
    const server = http.createServer(app.callback());
    server.listen(config.port, config.host);
    await new Promise<void>((resolve, reject) => { server.once('listening', resolve); server.once('error', reject); });
    const { port } = server.address() as AddressInfo;
    const url = `http://${config.host}:${port}`;
    moneyDeps.baseUrl = (config.publicBaseUrl ?? url).replace(/\/$/, '');
    let httpClosed: Promise<void> | undefined;
    const drainHttp = () => { readiness.markDraining(); return (httpClosed ??= closeGracefully(server, config.shutdownGraceMs)); };
    cleanups.push(drainHttp);
    const metricsServer = config.metricsListen === 'off' ? undefined : await startMetricsServer(metrics.registry, config.metricsListen);
    if (metricsServer) cleanups.push(() => metricsServer.close());

    // Recovery: on start and every RECOVERY_INTERVAL_MS, resume paid-but-undelivered purchases. The
    // candidates are an indexed query of the report view, once it has caught up with the store.
    const pass = async () => {
      try {
        await readModels.caughtUp(Math.min(config.recoveryIntervalMs, 10_000));
      } catch {
        log.info({}, 'read models still catching up; recovery waits for the next pass');
        return 0;
      }
      let n = 0;
      for (const id of await recoveryCandidates(readModels.db)) {
        if (inflight.has(id)) continue;
        await inflight.run(id, () => resumePurchase(moneyDeps, id)).catch((err) => log.error({ purchase_id: id, err: { message: (err as Error).message } }, 'resume failed'));
        n++;
      }
      return n;
    };
    // One leader per database runs the projector and the recovery worker; every instance serves HTTP.
    let worker: RecoveryWorker | undefined;
    const leadership: Leadership = startLeadership({
      db: readModels.db,
      name: 'read-models',
      log,
      lead: async () => {
        const projector = startProjector({ db: readModels.db, feed: readModels.feed, log, onAdvance: () => readModels.advanced(), ...(store.onAppend ? { onAppend: (wake) => store.onAppend!(wake) } : {}) });
        const recovery = startRecoveryWorker({ intervalMs: config.recoveryIntervalMs, log, pass: countedRecoveryPass(pass, metrics) });
        worker = recovery;
        return async () => {
          worker = undefined;
          await recovery.stop();
          await projector.stop();
        };
      },
    });
    cleanups.push(async () => { await leadership.stop(); await inflight.drain(); });
    await leadership.settled;
    readiness.markReady();

    return {
      url,
      store,
      storeKind: store.kind,
      evidenceKey: evidencePublic,
      terms,
      readModels,
      isLeader: () => leadership.isLeader(),
      metricsUrl: metricsServer?.url,
      recover: async () => { await worker?.runNow(); },
      async stop() {
        // Drain first: the listener closes and in-flight requests finish while the store is still open.
        await drainHttp();
        for (const c of cleanups.reverse()) await c().catch((err) => log.warn({ err: { message: (err as Error).message } }, 'stop step failed'));
        cleanups.length = 0;
      },
    };
  } catch (err) {
    for (const c of cleanups.reverse()) await c().catch(() => {});
    throw err;
  }
}

async function tokenDomain(rpcUrl: string, network: string, asset: Hex): Promise<{ name: string; version: string }> {
  const chainId = Number(network.split(':')[1]);
  const chain = defineChain({ id: chainId, name: network, nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [rpcUrl] } } });
  const pub = createPublicClient({ chain, transport: httpTransport(rpcUrl) });
  const abi = parseAbi(['function name() view returns (string)', 'function version() view returns (string)']);
  try {
    const [name, version] = await Promise.all([
      pub.readContract({ address: asset, abi, functionName: 'name' }),
      pub.readContract({ address: asset, abi, functionName: 'version' }),
    ]);
    return { name, version };
  } catch {
    const known = KNOWN_DOMAINS[network];
    if (!known) throw new Error(`cannot read the EIP-712 domain of ${asset} on ${network}`);
    return known;
  }
}
