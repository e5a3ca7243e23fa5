import type { ServiceConfig } from '../config/config.js';
import type { CrashAt } from '../runtime/crash-points.js';
import type { Logger } from '../runtime/log.js';
import type { ServiceMetrics } from '../metrics/service-metrics.js';
import { chainAt, chainClient } from '../payment/settlement/chain-reads.js';
import { tokenDomain } from '../payment/settlement/token-domain.js';
import type { PaymentTerms } from '../money-path/deps.js';
import { CONFIRMATION_TIMEOUT_MS, settlementWindowSeconds } from '../payment/settlement-window.js';
import { createSettlement } from '../payment/settlement/create.js';
import { relayerFunds, type RelayerFunds } from '../payment/settlement/relayer-funds.js';
import { leaseRelayerKey, type LeasedRelayerKey } from '../payment/settlement/relayer-key-lease.js';
import type { Settlement } from '../payment/settlement/settlement.js';
import type { ReadModels } from '../../projections/read-models.js';
import type { Cleanups } from './cleanups.js';

// The settlement backend of the running service (SETTLEMENT=self|facilitator) and, for self, the
// relayer key it signs with and whether that relayer can still pay gas.

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

export async function openSettlement(
  config: ServiceConfig,
  parts: { readModels: ReadModels; log: Logger; metrics: ServiceMetrics; crashAt: CrashAt | undefined },
  cleanups: Cleanups,
): Promise<{ settlement: Settlement; funds: RelayerFunds | undefined }> {
  const { readModels, log, metrics, crashAt } = parts;
  // SETTLEMENT=self signs with one relayer key, leased in the store so no other instance signs with it
  // (RELAYER_PRIVATE_KEYS, or a lone RELAYER_PRIVATE_KEY as a pool of one: docs/decisions.md).
  const relayerKey = config.settlement === 'self' ? await leaseRelayer(config, readModels, log) : undefined;
  if (relayerKey) cleanups.push(() => relayerKey.release());
  // Either backend (SETTLEMENT=self|facilitator).
  const settlement = createSettlement(relayerKey ? { ...config, relayerPrivateKey: relayerKey.privateKey } : config, {
    ...(crashAt ? { afterSettle: () => crashAt('after-settle'), afterSubmit: () => crashAt('after-submit') } : {}),
    ...(relayerKey?.holds ? { holdsKey: relayerKey.holds } : {}),
    onReplacement: () => metrics.relayerReplacements.inc(),
  });
  const funds = relayerKey
    ? relayerFunds(chainClient(config.rpcUrl, config.network), relayerKey.address, config.relayerMinSettlements)
    : undefined;
  return { settlement, funds };
}

/**
 * The settlement window of this configuration (src/payment/settlement-window.ts): the relayer's fee-bump
 * schedule at the node's block time, plus a margin. The same for a remote facilitator, whose settle we wait
 * for as long.
 */
export function configuredSettlementWindow(config: Pick<ServiceConfig, 'chainBlockMs' | 'network' | 'settlementBump'>) {
  const blockMs = config.chainBlockMs ?? chainAt('http://127.0.0.1/', config.network).blockTime ?? 12_000;
  return settlementWindowSeconds({
    blockMs,
    bumpBlocks: config.settlementBump.blocks,
    confirmationTimeoutMs: CONFIRMATION_TIMEOUT_MS,
  });
}

/**
 * The offer terms of this configuration. An offer's window always holds the settlement window with a minute
 * to sign and send in: 300 s unless a slow chain's fee-bump schedule needs more (docs/decisions.md,
 * "Authorizations the relayer can settle in time").
 */
export async function paymentTerms(
  config: Pick<ServiceConfig, 'chainBlockMs' | 'network' | 'settlementBump' | 'rpcUrl' | 'usdcAsset' | 'payTo'>,
): Promise<PaymentTerms> {
  const settlementWindow = configuredSettlementWindow(config);
  return {
    network: config.network,
    asset: config.usdcAsset,
    payTo: config.payTo,
    eip712: await tokenDomain(config.rpcUrl, config.network, config.usdcAsset),
    maxTimeoutSeconds: Math.max(300, settlementWindow + 60),
    settlementWindowSeconds: settlementWindow,
  };
}
