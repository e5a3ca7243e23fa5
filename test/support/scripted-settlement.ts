import type {
  Broadcast,
  SettleOutcome,
  SettlementPort,
  TransactionOutcome,
  TransferFound,
} from '../../src/payment/settlement/port.js';

// A settlement backend that answers from a script instead of a chain: what authorizationState says
// (one answer per call, the last one repeating), what settle returns, and which transfer the logs
// hold; the transaction settle writes ahead before "broadcasting", and what the chain says of each
// recorded hash (unlisted: unknown). For the fast tests of resume and redeem per settlement outcome;
// the real backends are tested against the devnet (test/payment/).
export interface SettlementScript {
  used: boolean[];
  settle?: SettleOutcome;
  transfer?: TransferFound;
  /** Handed to settle's write-ahead hook before settle answers (as the relayer does before it sends). */
  broadcast?: Broadcast;
  /** transactionOutcome's answer per transaction hash (lowercase); one not listed is `unknown`. */
  outcomes?: Record<string, TransactionOutcome>;
}

export function scriptedSettlement(script: SettlementScript): SettlementPort & { calls: string[] } {
  const calls: string[] = [];
  let reads = 0;
  return {
    calls,
    async verify() {
      calls.push('verify');
      return { isValid: true };
    },
    async settle(_payload, _requirements, options) {
      calls.push('settle');
      if (!script.settle) throw new Error('the script has no settle outcome');
      if (script.broadcast && options?.beforeBroadcast) {
        try {
          await options.beforeBroadcast(script.broadcast);
        } catch {
          return { kind: 'failed', reason: 'write_ahead_failed' };
        }
      }
      return script.settle;
    },
    async authorizationState() {
      calls.push('authorizationState');
      const answer = script.used[Math.min(reads, script.used.length - 1)] ?? false;
      reads++;
      return answer;
    },
    async findTransfer() {
      calls.push('findTransfer');
      return script.transfer;
    },
    async transactionOutcome(q) {
      calls.push(`transactionOutcome:${q.transaction}`);
      return script.outcomes?.[q.transaction.toLowerCase()] ?? { state: 'unknown' };
    },
    async blockNumber() {
      return 100n;
    },
  };
}
