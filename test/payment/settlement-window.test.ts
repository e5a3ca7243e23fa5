import test from 'ava';
import { settlementWindowSeconds, WINDOW_MARGIN_SECONDS } from '../../src/payment/settlement-window.js';
import { configuredSettlementWindow } from '../../src/service/settlement.js';

// The settlement window covers every round of the relayer's fee-bump schedule, one block, and the 6 s the
// x402 facilitator keeps before validBefore (docs/decisions.md, "Authorizations the relayer can settle in time").

test('Base with the default bumps: ten rounds of 3 blocks of 2 s, one block more, and the margin', (t) => {
  t.is(settlementWindowSeconds({ blockMs: 2000, bumpBlocks: 3, confirmationTimeoutMs: 60_000 }), 60 + 2 + 6);
  t.is(configuredSettlementWindow({ network: 'eip155:8453', settlementBump: { blocks: 3, maxFeeGwei: 50 } }), 68);
});

test('a round that does not divide the timeout is counted whole: the last bump is sent before the timeout', (t) => {
  // 7 s rounds: the ninth starts at 56 s, before the 60 s timeout, and its replacement may still be mined.
  t.is(settlementWindowSeconds({ blockMs: 1000, bumpBlocks: 7, confirmationTimeoutMs: 60_000 }), 63 + 1 + 6);
});

test('slow blocks stretch the window; CHAIN_BLOCK_MS is the block time when set', (t) => {
  const slow = configuredSettlementWindow({
    network: 'eip155:8453',
    chainBlockMs: 12_000,
    settlementBump: { blocks: 3, maxFeeGwei: 50 },
  });
  t.is(slow, 72 + 12 + WINDOW_MARGIN_SECONDS);
  t.true(slow > 68);
});
