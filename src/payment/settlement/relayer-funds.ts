import type { Hex, PublicClient } from 'viem';

// Whether the relayer (SETTLEMENT=self) can pay gas for the next few settlements (docs/decisions.md,
// "Relayer health and a pool of relayer keys"). Readiness reads it on every probe; new offers ask it
// before anyone signs, through a short cache, so a burst of offers costs one balance read per second
// rather than one per offer.

/**
 * Gas one settlement's transferWithAuthorization may use: on the devnet's FiatToken v2.2 the first
 * settlement to a fresh recipient used 95 569, later ones about 78 500 (docs/decisions.md); rounded up.
 */
export const SETTLEMENT_GAS = 120_000n;

export interface RelayerBalance {
  balance: bigint;
  /** What `settlements` settlements' gas costs at the current fee (max fee per gas × SETTLEMENT_GAS each). */
  need: bigint;
  settlements: number;
}

export interface RelayerFunds {
  readonly address: Hex;
  /** The balance and the need, read from the chain now. */
  read(): Promise<RelayerBalance>;
  /**
   * Whether the relayer can pay for the next `settlements`, read at most once per `cacheMs`. True when
   * the chain cannot be read: the offer then fails on the chain's own check, and readiness names chain_rpc.
   */
  sufficient(): Promise<boolean>;
}

export function relayerFunds(
  pub: PublicClient,
  address: Hex,
  settlements: number,
  opts: { cacheMs?: number; now?: () => number } = {},
): RelayerFunds {
  const cacheMs = opts.cacheMs ?? 1_000;
  const now = opts.now ?? Date.now;
  let cached: { at: number; ok: Promise<boolean> } | undefined;
  const read = async (): Promise<RelayerBalance> => {
    const [balance, fees] = await Promise.all([
      pub.getBalance({ address }),
      pub.estimateFeesPerGas().catch(async () => ({ maxFeePerGas: await pub.getGasPrice() })),
    ]);
    return { balance, need: (fees.maxFeePerGas ?? 0n) * SETTLEMENT_GAS * BigInt(settlements), settlements };
  };
  return {
    address,
    read,
    sufficient() {
      if (!cached || now() - cached.at >= cacheMs)
        cached = {
          at: now(),
          ok: read().then(
            (r) => r.balance >= r.need,
            () => true,
          ),
        };
      return cached.ok;
    },
  };
}
