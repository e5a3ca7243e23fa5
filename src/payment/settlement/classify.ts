import type { Hex } from 'viem';
import { TxHash } from '@rights-preflight/wire/contract/primitives.js';
import type { SettleOutcome } from './settlement.js';

// Turning a facilitator's SettleResponse into the settle contract (settlement.ts). Pure.

/** Reasons after which nothing was broadcast, or the broadcast transaction reverted (nothing moved). */
const NOTHING_MOVED = new Set([
  // verify stage (before any broadcast)
  'invalid_exact_evm_scheme',
  'invalid_exact_evm_missing_eip712_domain',
  'invalid_exact_evm_network_mismatch',
  'invalid_exact_evm_signature',
  'invalid_exact_evm_recipient_mismatch',
  'invalid_exact_evm_payload_authorization_valid_before',
  'invalid_exact_evm_payload_authorization_valid_after',
  'invalid_exact_evm_payload_authorization_value_mismatch',
  'invalid_exact_evm_authorization_value',
  'invalid_exact_evm_failed_to_parse_signature',
  'invalid_exact_evm_payload_undeployed_smart_wallet',
  'invalid_exact_evm_eip3009_not_supported',
  'invalid_exact_evm_nonce_already_used',
  'invalid_exact_evm_token_name_mismatch',
  'invalid_exact_evm_token_version_mismatch',
  'invalid_exact_evm_insufficient_balance',
  'invalid_exact_evm_transaction_simulation_failed',
  'asset_not_deployed_contract',
  'eip6492_factory_not_allowed',
  'smart_wallet_deployment_failed',
  'unsupported_payload_type',
  'insufficient_funds',
  'invalid_network',
  'invalid_payload',
  'invalid_payment_requirements',
  'invalid_scheme',
  'unsupported_scheme',
  'invalid_x402_version',
  'extension_echo_mismatch',
  // mined and reverted
  'invalid_exact_evm_transaction_failed',
]);

/** The nothing-moved reasons that are the transfer itself reverting, in the facilitator's simulation or mined. */
const REVERTED: Readonly<Record<string, 'simulated' | 'mined'>> = {
  invalid_exact_evm_insufficient_balance: 'simulated',
  invalid_exact_evm_transaction_simulation_failed: 'simulated',
  invalid_exact_evm_transaction_failed: 'mined',
};

interface RemoteSettleResponse {
  success: boolean;
  transaction?: string;
  errorReason?: string;
  payer?: string;
  amount?: string;
}

/**
 * For a facilitator we cannot look into (remote): success with a hash is success; a known
 * nothing-moved reason is failed; `settlement_pending`, a receipt without the expected Transfer,
 * and any reason we do not know are ambiguous (decided later from the chain).
 */
export function classifyRemoteSettle(s: RemoteSettleResponse, fallback: { payer: Hex; amount: string }): SettleOutcome {
  const tx = s.transaction && TxHash.is(s.transaction) ? (s.transaction as Hex) : undefined;
  if (s.success && tx)
    return {
      kind: 'success',
      transaction: tx,
      payer: (s.payer as Hex | undefined) ?? fallback.payer,
      amount: s.amount || fallback.amount,
    };
  const reason = s.errorReason || (s.success ? 'success_without_transaction' : 'unknown');
  if (!s.success && NOTHING_MOVED.has(reason)) {
    const reverted = REVERTED[reason];
    return reverted ? { kind: 'failed', reason, reverted } : { kind: 'failed', reason };
  }
  return { kind: 'ambiguous', reason, ...(tx ? { transaction: tx } : {}) };
}

/** What the in-process relayer saw of its own submission during one settle call. */
export type Submission =
  | { stage: 'not-submitted' }
  | { stage: 'refused-before-broadcast' } // gas estimation reverted: nothing was sent
  | { stage: 'unknown' } // writeContract threw otherwise: it may have reached the node
  | { stage: 'sent'; transaction: Hex };

/**
 * For the in-process facilitator we also know whether a transaction was handed to the node, which
 * the SettleResponse hides (the SDK reports an RPC error after broadcast as a plain failure with no hash).
 */
export function classifySelfSettle(
  s: RemoteSettleResponse,
  sub: Submission,
  fallback: { payer: Hex; amount: string },
): SettleOutcome {
  if (s.success) return classifyRemoteSettle(s, fallback);
  const reason = s.errorReason || 'unknown';
  switch (sub.stage) {
    case 'not-submitted':
      return { kind: 'failed', reason };
    case 'refused-before-broadcast':
      return { kind: 'failed', reason, reverted: 'simulated' };
    case 'unknown':
      return { kind: 'ambiguous', reason: `submission_outcome_unknown:${reason}` };
    case 'sent':
      // Mined and reverted → nothing moved; pending or Transfer mismatch → ambiguous, with the hash.
      return reason === 'invalid_exact_evm_transaction_failed'
        ? { kind: 'failed', reason, reverted: 'mined' }
        : { kind: 'ambiguous', reason, transaction: sub.transaction };
  }
}
