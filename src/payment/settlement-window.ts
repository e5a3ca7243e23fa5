// The settlement window: how long an EIP-3009 authorization must still be valid when it is accepted for
// the relayer to settle it with every fee bump it would try (docs/decisions.md, "Authorizations the
// relayer can settle in time"). Pure: the relayer's schedule is an input.
//
// The relayer's receipt wait (src/payment/settlement/relayer-transactions.ts `receiptOf`) sends the
// transaction, waits `bumpBlocks` blocks, replaces it with higher fees, and so on until the receipt
// timeout (or the fee cap, which only ends it sooner). A replacement sent in the last round is mined a
// block later at best, and FiatToken needs now < validBefore in the block that mines it; the x402
// facilitator keeps WINDOW_MARGIN_SECONDS (6 s) for that last step. So the window is every round of the
// schedule, one block more, and that margin: an authorization valid for less could be broadcast and
// bumped into a block after its expiry, where it reverts and the relayer pays the gas for nothing.

/** FiatToken requires now < validBefore when mined; the x402 facilitator wants 6 s of margin for that. */
export const WINDOW_MARGIN_SECONDS = 6;
/** How long one settle waits for its receipt, fee bumps included, before answering settlement_pending. */
export const CONFIRMATION_TIMEOUT_MS = 60_000;

interface SettlementSchedule {
  /** The node's block time (CHAIN_BLOCK_MS, else the chain's own). */
  blockMs: number;
  /** SETTLEMENT_BUMP_BLOCKS: blocks waited before each fee bump. */
  bumpBlocks: number;
  /** The settle's receipt timeout (CONFIRMATION_TIMEOUT_MS unless a test changes it). */
  confirmationTimeoutMs: number;
}

/** Whole seconds an authorization must still be valid, at acceptance, to be settled on this schedule. */
export function settlementWindowSeconds(s: SettlementSchedule): number {
  const roundMs = Math.max(1, s.bumpBlocks) * s.blockMs;
  const rounds = Math.max(1, Math.ceil(s.confirmationTimeoutMs / roundMs));
  return Math.ceil((rounds * roundMs + s.blockMs) / 1000) + WINDOW_MARGIN_SECONDS;
}
