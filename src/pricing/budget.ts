import { Refusal } from '@rights-preflight/wire/refusal.js';

/** Refuses, before anything is appended, a price the buyer's stated budget does not cover. */
export function assertWithinBudget(priceMicro: bigint, maxTotalMicro: string): void {
  if (priceMicro > BigInt(maxTotalMicro)) {
    throw new Refusal(
      'PRICE_EXCEEDS_BUDGET',
      'the price of this report is above max_total_micro; nothing was quoted or charged',
      {
        charge_micro: priceMicro.toString(),
        max_total_micro: maxTotalMicro,
      },
    );
  }
}
