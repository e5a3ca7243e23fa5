import type { ServiceConfig } from '../config/config.js';
import { createApp, type AppDeps } from '../http/app.js';
import { STATUS_OF } from '../http/status-of.js';
import { answerClientError } from '../http/client-error.js';
import { browserCors } from '../http/cors.js';
import { closeGracefully } from '../http/graceful-close.js';
import type { EarlyListener } from '../http/listen-first.js';
import { createRateLimits, type RateLimitedRoute } from '../http/rate-limit.js';
import { paidPayer } from '../money-path/paid-admission.js';
import { chainAnswers, createReadiness, relayerFunded, type Readiness } from '../http/readiness.js';
import { requestMetrics } from '../http/request-metrics.js';
import { buildCapabilities, capabilitiesRouter, type CapabilitiesDeps } from '../http/routes/capabilities.js';
import { docsRouter } from '../http/routes/docs.js';
import { inspectRouter, type InspectDeps } from '../http/routes/inspect.js';
import { mcpRouter } from '../http/routes/mcp.js';
import { openApiRouter } from '../http/routes/openapi.js';
import { refundsRouter } from '../http/routes/refunds.js';
import { reportsRouter } from '../http/routes/reports.js';
import type { Logger } from '../runtime/log.js';
import { registerReadModelGauges } from '../metrics/read-model-gauges.js';
import { registerRelayerGauges } from '../metrics/relayer-gauges.js';
import type { ServiceMetrics } from '../metrics/service-metrics.js';
import type { PaymentTerms } from '../money-path/deps.js';
import type { RelayerFunds } from '../payment/settlement/relayer-funds.js';
import type { Settlement } from '../payment/settlement/settlement.js';
import { quote } from '../products/single-report/quote.js';
import type { SingleReportObserver } from '../products/single-report/product.js';
import type { ResumeDeps } from '../money-path/resume.js';
import type { RslEngine } from '../rsl/engine.js';
import { createInspectPool } from '../rsl/inspect-pool.js';
import { DEFAULT_PARSE_LIMITS } from '../rsl/parse/parse.js';
import type { ReadModels } from '../../projections/read-models.js';
import type { Cleanups } from './cleanups.js';
import type { ServiceMoneyDeps } from './money-path-deps.js';
import type { ProductCatalog } from './product-registry.js';
import { TOOLS } from '../mcp/tools.js';

// The public HTTP surface on the listener bound first: rate limits, the inspect workers, readiness,
// the routers in the order requests reach them, and a graceful drain.

export interface PublicHttp {
  readiness: Readiness;
  /** Marks the instance draining and closes the listener once in-flight requests finish (idempotent). */
  drain(): Promise<void>;
}

/**
 * Paid requests one payer may have in progress at once: 4 × the bulk check's default concurrency, so a
 * pipeline at the documented concurrency never meets it (docs/decisions.md, "Paid work is not free work").
 */
export const PAID_CONCURRENT_PER_PAYER = 64;

/** Every public operation that fetches or works before payment: inspect, and each product's (its listing's
 *  rate-limit spec; the MCP quote tool spends the quote's). */
function rateLimitedRoutes(
  config: ServiceConfig,
  catalog: Pick<ProductCatalog<unknown>, 'rateLimits'>,
): RateLimitedRoute[] {
  return [
    { method: 'POST', path: '/v1/rights/inspect', name: 'inspect', limit: config.rateLimits.inspect },
    ...catalog.rateLimits(config.rateLimits),
  ];
}

/** Every MCP message (each of a batch) spends one request here, whatever its tool; the quote tool spends the
 *  quote's too (docs/decisions.md, "MCP by the JSON-RPC 2.0 rules"). */
const mcpRateLimit = (config: ServiceConfig): RateLimitedRoute => ({
  method: 'POST',
  path: '/mcp',
  name: 'mcp',
  limit: config.rateLimits.mcp,
  mcpTools: TOOLS.map((tool) => tool.name),
});

function readinessOf(
  config: ServiceConfig,
  parts: { log: Logger; readModels: ReadModels; funds: RelayerFunds | undefined },
): Readiness {
  const { funds } = parts;
  return createReadiness(
    [
      { name: 'store', probe: () => parts.readModels.feed.head() },
      { name: 'chain_rpc', probe: chainAnswers(config.rpcUrl) },
      ...(funds ? [{ name: 'relayer_funds' as const, probe: relayerFunded(funds) }] : []),
    ],
    { log: parts.log },
  );
}

/** What the public app is built from: the money path's deps and the products they sell, and the parts
 *  every route shares. `Own` is what the products need beyond the money path (their observers). */
export interface PublicAppParts<Own extends SingleReportObserver> {
  log: Logger;
  rsl: Pick<RslEngine, 'coverage'>;
  terms: PaymentTerms;
  evidencePublic: { key_id: string; public_key: string };
  moneyDeps: ResumeDeps & Own;
  catalog: ProductCatalog<Own>;
  metrics: ServiceMetrics;
  /** GET /readyz. */
  ready: AppDeps['ready'];
  /** Free inspection of supplied RSL XML (the worker pool). */
  inspect: InspectDeps['inspect'];
}

/**
 * The public Koa app: rate limits, the routers in the order requests reach them, each product's from the
 * registry. The service serves it on the listener bound first (servePublicHttp); a test world serves the
 * same app on loopback, so the routes a test reaches are wired as in production (test/README.md).
 */
export function publicApp<Own extends SingleReportObserver>(config: ServiceConfig, parts: PublicAppParts<Own>) {
  const { log, rsl, moneyDeps, catalog, metrics } = parts;
  const rateLimits = rateLimitedRoutes(config, catalog);
  const limits = createRateLimits(rateLimits, {
    trustProxy: config.trustProxy,
    paid: {
      payerOf: paidPayer({ terms: parts.terms, now: moneyDeps.now, settlement: moneyDeps.settlement }),
      concurrentPerPayer: PAID_CONCURRENT_PER_PAYER,
    },
  });
  // Not in the middleware's routes: MCP spends per message, answered as JSON-RPC errors.
  const mcpLimit = mcpRateLimit(config);
  const mcpLimits = createRateLimits([mcpLimit], { trustProxy: config.trustProxy });
  const capabilityDeps: CapabilitiesDeps = {
    coveredOrigins: () => [...rsl.coverage.origins],
    terms: parts.terms,
    evidenceKeys: [parts.evidencePublic],
    quoteTtlSeconds: config.quoteTtlSeconds,
    products: catalog.capabilities(),
    rateLimits: [...rateLimits, mcpLimit],
    paidConcurrentPerPayer: PAID_CONCURRENT_PER_PAYER,
    now: () => new Date(),
  };
  return createApp({
    log,
    statuses: { ...STATUS_OF, ...catalog.statuses() },
    ready: parts.ready,
    middleware: [limits.middleware],
    outer: [requestMetrics(metrics.httpDuration), ...[browserCors(config.corsOrigins)].filter((m) => m !== undefined)],
    // In the order requests reach them: each router a request passes costs it two middleware steps.
    routers: [
      capabilitiesRouter(capabilityDeps),
      inspectRouter({ inspect: parts.inspect }),
      reportsRouter({ ...moneyDeps, paidOnlyAt: catalog.paidOnlyAt, bodiesOf: catalog.bodiesOf }),
      ...catalog.routers(moneyDeps, limits.admission),
      refundsRouter(moneyDeps),
      mcpRouter(
        (ctx) => ({
          capabilities: () => buildCapabilities(capabilityDeps),
          quote: (req) => {
            limits.spend('quote', ctx.req);
            return quote(moneyDeps, req, undefined);
          },
        }),
        { spend: (req) => mcpLimits.spend('mcp', req) },
      ),
      openApiRouter({ version: '0.1.0', serverUrl: () => moneyDeps.baseUrl, products: catalog.openapi() }),
      docsRouter({ version: '0.1.0' }),
    ],
  });
}

/** Serves the public app on the listener bound first, what Node's HTTP parser refuses answered as the
 *  service's errors (docs/wire.md §6); a test world serves its app through this too. */
export function servePublicApp(listener: EarlyListener, app: ReturnType<typeof publicApp>): void {
  listener.server.on('clientError', answerClientError);
  listener.serve(app.callback());
}

export function servePublicHttp(
  config: ServiceConfig,
  parts: {
    log: Logger;
    listener: EarlyListener;
    rsl: RslEngine;
    terms: PaymentTerms;
    evidencePublic: { key_id: string; public_key: string };
    moneyDeps: ServiceMoneyDeps;
    catalog: ProductCatalog;
    metrics: ServiceMetrics;
    readModels: ReadModels;
    settlement: Settlement;
    funds: RelayerFunds | undefined;
  },
  cleanups: Cleanups,
): PublicHttp {
  const { listener, metrics, funds } = parts;
  const inspectPool = createInspectPool({
    size: config.inspectWorkers,
    maxQueue: config.inspectQueue,
    maxQueueChars: config.inspectQueueChars,
    parseCacheChars: config.inspectParseCacheChars,
    perWorker: 4,
    jobTimeoutMs: 4 * DEFAULT_PARSE_LIMITS.maxMillis,
  });
  cleanups.push(() => inspectPool.close());
  registerReadModelGauges(metrics.registry, parts.readModels);
  if (funds && parts.settlement.pendingTransactions)
    registerRelayerGauges(metrics.registry, { funds, pending: parts.settlement.pendingTransactions });
  const readiness = readinessOf(config, parts);
  const app = publicApp(config, {
    ...parts,
    ready: () => readiness.ready(),
    inspect: (xml, q) => inspectPool.inspect(xml, q),
  });
  servePublicApp(listener, app);
  let httpClosed: Promise<void> | undefined;
  const drain = () => {
    readiness.markDraining();
    return (httpClosed ??= closeGracefully(listener.server, config.shutdownGraceMs));
  };
  cleanups.push(drain);
  return { readiness, drain };
}
