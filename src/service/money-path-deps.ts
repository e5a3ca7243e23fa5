import { nodeSignatureCheck } from '../evidence/verify-node.js';
import type { ServiceConfig } from '../config/config.js';
import type { CrashAt } from '../runtime/crash-points.js';
import { checkpointSealer } from '../crypto/checkpoint-seal.js';
import { createSigner } from '@rights-preflight/wire/evidence/envelope.js';
import type { Logger } from '../runtime/log.js';
import { countedSettlement } from '../metrics/instrument.js';
import { registerPayerFailureGauge } from '../metrics/payer-failure-gauge.js';
import type { ServiceMetrics } from '../metrics/service-metrics.js';
import type { MoneyPathDeps, PaymentTerms } from '../money-path/deps.js';
import type { InFlight } from '../money-path/inflight.js';
import { payerFailures, type PayerFailures } from '../money-path/payer-failures.js';
import type { ResumeDeps } from '../money-path/resume.js';
import type { RelayerFunds } from '../payment/settlement/relayer-funds.js';
import type { Settlement } from '../payment/settlement/settlement.js';
import type { RslEngine } from '../rsl/engine.js';
import type { EventStore } from '../store/port.js';
import type { ServiceSecrets } from './secrets.js';
import type { ProductCatalog, RegistryOwn } from './product-registry.js';

/** The money path's deps and every product's own (its observer), as the registry's products need them. */
export type ServiceMoneyDeps = ResumeDeps & RegistryOwn;

/** What the money path and the products are handed: the store, the terms, the keys, the products by SKU. */
export function moneyPathDeps<Own = RegistryOwn>(
  config: ServiceConfig,
  catalog: ProductCatalog<Own>,
  parts: {
    store: EventStore;
    log: Logger;
    now: (() => Date) | undefined;
    /** The bound listener's URL (PUBLIC_BASE_URL, when set, names the service instead). */
    url: string;
    rsl: Pick<RslEngine, 'observe' | 'coverage'>;
    terms: PaymentTerms;
    secrets: ServiceSecrets;
    inflight: InFlight<unknown>;
    crashAt: CrashAt | undefined;
    settlement: Settlement;
    funds: RelayerFunds | undefined;
    metrics: ServiceMetrics;
  },
): ResumeDeps & Own {
  const { rsl, secrets, crashAt, funds } = parts;
  const base = {
    store: parts.store,
    log: parts.log,
    now: parts.now ?? (() => new Date()),
    baseUrl: (config.publicBaseUrl ?? parts.url).replace(/\/$/, ''),
    coveredOrigins: rsl.coverage.origins as string[],
    quoteTtlSeconds: config.quoteTtlSeconds,
    terms: parts.terms,
    claimSecret: secrets.claimSecret,
    sign: createSigner(secrets.evidenceKey),
    evidenceKeyId: secrets.evidenceKey.keyId,
    // Sealed per purchase (AAD = checkpointAad(id)); legacy compact values of old streams still open.
    ...checkpointSealer(secrets.checkpointKey),
    inflight: parts.inflight,
    products: catalog.products,
    ...(crashAt ? { crashAt } : {}),
    ...(funds ? { relayerCanPay: () => funds.sufficient() } : {}),
    payerFailures: countedPayerFailures(payerFailures(), parts.metrics, parts.now ?? (() => new Date())),
  } satisfies MoneyPathDeps;
  const evidenceKeys = [
    { key_id: secrets.evidenceKey.keyId, public_key: secrets.evidenceKey.publicKeyHex, check: nodeSignatureCheck },
  ];
  return {
    ...base,
    settlement: countedSettlement(parts.settlement, parts.metrics),
    ...catalog.observers({ rsl, store: parts.store, evidenceKeys }),
  };
}

/** The payers whose settlements keep reverting, in /metrics: as they fail, as they are refused, and how many are. */
function countedPayerFailures(failures: PayerFailures, metrics: ServiceMetrics, now: () => Date): PayerFailures {
  registerPayerFailureGauge(metrics.registry, failures, now);
  return {
    record(payer, at, stage) {
      metrics.payerSettlementReverts.inc({ stage });
      failures.record(payer, at, stage);
    },
    refusedUntil(payer, now) {
      const until = failures.refusedUntil(payer, now);
      if (until) metrics.paymentsRefusedPayerFailing.inc();
      return until;
    },
    refusedCount: (now) => failures.refusedCount(now),
  };
}
