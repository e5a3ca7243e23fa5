import type { Hex } from 'viem';
import type { PaymentNetwork } from '@rights-preflight/wire/payment/network.js';
import { createFacilitatorSettlement } from './facilitator.js';
import { createSelfSettlement } from './self.js';
import type { Settlement } from './settlement.js';

// The settlement backend the configuration asks for (SETTLEMENT=self|facilitator).

/** What settlement is handed from the configuration (src/config/config.ts): it receives it, never reads it. */
interface SettlementConfig {
  settlement: 'self' | 'facilitator';
  rpcUrl: string | undefined;
  relayerPrivateKey: string | undefined;
  facilitatorUrl: string | undefined;
  network: PaymentNetwork;
  usdcAsset: `0x${string}`;
  chainBlockMs?: number | undefined;
  settlementBump?: { blocks: number; maxFeeGwei: number };
  confirmation?: 'block' | 'preconfirmed';
}

class SettlementConfigError extends Error {}

export function createSettlement(
  config: SettlementConfig,
  over: {
    afterSettle?: () => void;
    afterSubmit?: () => void;
    holdsKey?: () => boolean;
    onReplacement?: () => void;
  } = {},
): Settlement {
  const rpcUrl = config.rpcUrl;
  if (!rpcUrl) throw new SettlementConfigError('RPC_URL is required (settlement and recovery read the chain)');
  if (config.settlement === 'facilitator') {
    if (!config.facilitatorUrl)
      throw new SettlementConfigError('FACILITATOR_URL is required when SETTLEMENT=facilitator');
    return createFacilitatorSettlement({
      facilitatorUrl: config.facilitatorUrl,
      rpcUrl,
      network: config.network,
      asset: config.usdcAsset,
      timing: { blockMs: config.chainBlockMs, confirmation: config.confirmation },
    });
  }
  const key = config.relayerPrivateKey ? (`0x${config.relayerPrivateKey.replace(/^0x/, '')}` as Hex) : undefined;
  if (!key) throw new SettlementConfigError('RELAYER_PRIVATE_KEY is required when SETTLEMENT=self');
  return createSelfSettlement({
    rpcUrl,
    relayerPrivateKey: key,
    network: config.network,
    asset: config.usdcAsset,
    timing: { blockMs: config.chainBlockMs, confirmation: config.confirmation },
    ...(config.settlementBump
      ? {
          bump: {
            blocks: config.settlementBump.blocks,
            maxFeePerGas: BigInt(config.settlementBump.maxFeeGwei) * 1_000_000_000n,
          },
        }
      : {}),
    ...(over.afterSettle ? { afterSettle: over.afterSettle } : {}),
    ...(over.afterSubmit ? { afterSubmit: over.afterSubmit } : {}),
    ...(over.holdsKey ? { holdsKey: over.holdsKey } : {}),
    ...(over.onReplacement ? { onReplacement: over.onReplacement } : {}),
  });
}
