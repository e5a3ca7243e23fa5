import type { Hex } from '@rights-preflight/wire/contract/primitives.js';

// Whether a transaction is the refund an operator says it is. Pure: the chain's answer (the receipt's
// status and the configured token's Transfer logs in it) and the refund stream that already records the
// hash are read by the caller (src/refund/refund-transfer-reads.ts) and passed in, so `refunds paid` and
// `audit` apply the same rule (docs/decisions.md, "Refunds checked on the chain").
//
//   judgeRefundTransfer(onChain, { payer, amount_micro: '20000', senders: 'any' }) === undefined  // a refund
//
// A refund is one Transfer of the token, in a successful transaction, to the purchase's payer, of the
// stated amount, from an allowed sender. A mint (from the zero address) and a transfer from the payer
// itself are never refunds, whoever is allowed.

export const REFUND_TRANSFER_REFUSAL_CODES = [
  'REFUND_TX_NOT_FOUND', // the chain knows no such transaction (or it is not mined yet)
  'REFUND_TX_FAILED', // the transaction reverted
  'REFUND_TX_NOT_A_TRANSFER', // no Transfer of the configured token in it
  'REFUND_TX_WRONG_RECIPIENT', // no Transfer of the token to the purchase's payer
  'REFUND_TX_WRONG_AMOUNT', // a Transfer to the payer, but not of the stated amount
  'REFUND_TX_WRONG_SENDER', // from the zero address, the payer itself, or a sender not in REFUND_SENDERS
  'REFUND_TX_ALREADY_USED', // another refund already records this transaction
] as const;
type RefundTransferRefusalCode = (typeof REFUND_TRANSFER_REFUSAL_CODES)[number];

/** What the chain says about one transaction, as far as a refund is concerned. */
export interface RefundTransferOnChain {
  transaction: Hex;
  /** `missing`: no receipt (unknown hash, or not mined yet). */
  receipt: 'success' | 'reverted' | 'missing';
  /** Transfer logs of the configured token in the receipt, values as decimal strings. */
  transfers: readonly { from: Hex; to: Hex; value: string }[];
  /** The purchase id of another refund that already records this transaction, if any. */
  usedBy?: string;
}

export interface ExpectedRefund {
  payer: Hex;
  amount_micro: string;
  /** The addresses refunds may come from (REFUND_SENDERS), or any sender when none is configured. */
  senders: readonly Hex[] | 'any';
}

const ZERO = `0x${'0'.repeat(40)}`;
const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** undefined when the transaction is the refund; else the refusal and why. */
export function judgeRefundTransfer(
  chain: RefundTransferOnChain,
  expected: ExpectedRefund,
): { code: RefundTransferRefusalCode; message: string } | undefined {
  const tx = chain.transaction;
  if (chain.usedBy !== undefined)
    return { code: 'REFUND_TX_ALREADY_USED', message: `${tx} is already recorded for refund-${chain.usedBy}` };
  if (chain.receipt === 'missing')
    return { code: 'REFUND_TX_NOT_FOUND', message: `the chain has no mined transaction ${tx}` };
  if (chain.receipt === 'reverted') return { code: 'REFUND_TX_FAILED', message: `transaction ${tx} reverted` };
  if (chain.transfers.length === 0)
    return { code: 'REFUND_TX_NOT_A_TRANSFER', message: `transaction ${tx} transfers none of the configured token` };
  const toPayer = chain.transfers.filter((t) => same(t.to, expected.payer));
  if (toPayer.length === 0)
    return {
      code: 'REFUND_TX_WRONG_RECIPIENT',
      message: `transaction ${tx} transfers nothing to the purchase's payer ${expected.payer}`,
    };
  const ofAmount = toPayer.filter((t) => t.value === expected.amount_micro);
  if (ofAmount.length === 0)
    return {
      code: 'REFUND_TX_WRONG_AMOUNT',
      message:
        `transaction ${tx} transfers ${toPayer.map((t) => t.value).join(', ')} to the payer, ` +
        `not ${expected.amount_micro}`,
    };
  const allowed = ofAmount.find(
    (t) =>
      !same(t.from, ZERO) &&
      !same(t.from, expected.payer) &&
      (expected.senders === 'any' || expected.senders.some((s) => same(s, t.from))),
  );
  if (!allowed)
    return {
      code: 'REFUND_TX_WRONG_SENDER',
      message:
        `transaction ${tx} comes from ${ofAmount[0]!.from}, ` +
        (expected.senders === 'any'
          ? 'a mint or the payer itself'
          : `not one of REFUND_SENDERS (${expected.senders.join(', ')})`),
    };
  return undefined;
}
