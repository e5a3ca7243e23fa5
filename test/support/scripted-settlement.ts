import type { SettleOutcome, SettlementPort, TransferFound } from '../../src/purchase/settlement-port.js';

// A settlement backend that answers from a script instead of a chain: what authorizationState says
// (one answer per call, the last one repeating), what settle returns, and which transfer the logs
// hold. For the fast tests of resume and redeem per settlement outcome; the real backends are tested
// against the devnet (test/payment/).
export interface SettlementScript {
  used: boolean[];
  settle?: SettleOutcome;
  transfer?: TransferFound;
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
    async settle() {
      calls.push('settle');
      if (!script.settle) throw new Error('the script has no settle outcome');
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
    async blockNumber() {
      return 100n;
    },
  };
}
