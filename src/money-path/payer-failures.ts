import type { Hex } from '@rights-preflight/wire/contract/primitives.js';

// Payers whose settlements keep reverting (docs/decisions.md, "Authorizations the relayer can settle in
// time"). A payer who moves its USDC away between the checkpoint and the transfer costs the relayer gas when
// the move races the transfer into one block, and every such purchase is held for an operator. After
// `limit` such failures within `windowSeconds` its next payments are refused before anything is stored
// (PAYER_SETTLEMENTS_FAILING), until the oldest of those failures is `windowSeconds` old. Pure: the clock is
// an input; kept in this process's memory, bounded (an instance restarts with a clean slate: the held
// purchases stay on the operator queue either way).

interface PayerFailurePolicy {
  /** Failed settlements within the window after which the payer is refused. */
  limit: number;
  windowSeconds: number;
  /** Payers remembered at most; the least recently failed is forgotten first. */
  maxPayers?: number;
}

/** Three failures in an hour: a buyer with a one-off empty wallet is not refused, one who keeps doing it is. */
export const DEFAULT_PAYER_FAILURE_POLICY: PayerFailurePolicy = { limit: 3, windowSeconds: 3600 };

export interface PayerFailures {
  /** A settlement of this payer's authorization reverted (simulated before the broadcast, or mined). */
  record(payer: Hex, at: Date, stage: 'simulated' | 'mined'): void;
  /** When the payer may pay again; undefined when it may now. */
  refusedUntil(payer: Hex, now: Date): Date | undefined;
  /** Payers refused at `now` (the `rights_payers_refused` gauge). */
  refusedCount(now: Date): number;
}

export function payerFailures(policy: PayerFailurePolicy = DEFAULT_PAYER_FAILURE_POLICY): PayerFailures {
  const windowMs = policy.windowSeconds * 1000;
  const maxPayers = policy.maxPayers ?? 10_000;
  /** Payer (lower case) → failure times (ms), oldest first, within the window; Map order = least recent first. */
  const failures = new Map<string, number[]>();
  const recent = (key: string, nowMs: number): number[] => {
    const times = (failures.get(key) ?? []).filter((at) => at > nowMs - windowMs);
    if (times.length === 0) failures.delete(key);
    else failures.set(key, times);
    return times;
  };
  const until = (times: number[]): number | undefined =>
    times.length >= policy.limit ? times[times.length - policy.limit]! + windowMs : undefined;
  return {
    record(payer, at) {
      const key = payer.toLowerCase();
      const times = [...recent(key, at.getTime()), at.getTime()].slice(-policy.limit);
      failures.delete(key);
      failures.set(key, times);
      if (failures.size > maxPayers) failures.delete(failures.keys().next().value!);
    },
    refusedUntil(payer, now) {
      const ms = until(recent(payer.toLowerCase(), now.getTime()));
      return ms === undefined ? undefined : new Date(ms);
    },
    refusedCount(now) {
      let n = 0;
      for (const key of [...failures.keys()]) if (until(recent(key, now.getTime())) !== undefined) n++;
      return n;
    },
  };
}
