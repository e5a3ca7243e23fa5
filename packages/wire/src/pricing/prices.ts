// Prices in integer micro-USDC (spec §4 "Pricing per operation", §8). Kept as bigint so no price
// ever passes through a float; rendered as decimal strings on the wire.
export type Tier = 'fresh' | 'deep';

export const SINGLE_REPORT_PRICE: Readonly<Record<Tier, bigint>> = { fresh: 20_000n, deep: 50_000n };
export const GATE_BASE_PRICE: Readonly<Record<Tier, bigint>> = { fresh: 40_000n, deep: 60_000n };
export const GATE_PER_URL_PRICE: Readonly<Record<Tier, bigint>> = { fresh: 20_000n, deep: 40_000n };

/** Revalidation (docs/wire.md §14): per checkpoint (one unique URL each), no base; below a fresh gate's per-URL
 *  price because the conditional requests usually save the document transfers (docs/decisions.md). */
export const REVALIDATE_PER_URL_PRICE: Readonly<Record<Tier, bigint>> = { fresh: 10_000n, deep: 25_000n };

/** The largest budget a buyer may state (spec §2.3 `max_total_micro` pattern). */
export const MAX_BUDGET_MICRO = 100_000_000_000n;

export const singleReportPrice = (tier: Tier): bigint => SINGLE_REPORT_PRICE[tier];

/** Gate price: base + per *unique* canonical URL (duplicates are priced once). */
export const ingestionGatePrice = (tier: Tier, uniqueUrlCount: number): bigint =>
  GATE_BASE_PRICE[tier] + GATE_PER_URL_PRICE[tier] * BigInt(uniqueUrlCount);

/** Revalidation price: per checkpoint, every checkpoint naming a different URL. */
export const revalidationPrice = (tier: Tier, checkpointCount: number): bigint =>
  REVALIDATE_PER_URL_PRICE[tier] * BigInt(checkpointCount);
