import { formatEther } from 'viem';
import type { RelayerFunds } from '../payment/settlement/relayer-funds.js';
import type { ReadinessBody, ReadinessCheckName, ReadinessFailure } from '@rights-preflight/wire/contract/readiness.js';
import type { Logger } from '../runtime/log.js';

// Readiness (GET /readyz): ready only between the end of start-up and the first SIGTERM, and only
// while every dependency check (the store, the chain RPC, the relayer's gas money) passes within its
// timeout. A load balancer stops sending traffic as soon as this turns false, before the listener
// closes. The body names every failing check (packages/wire/src/contract/readiness.ts), and each change of the answer
// is logged once, so an operator sees why without polling (docs/decisions.md, "Readiness says why").
export type ReadinessState = ReadinessBody['phase'];

export interface Readiness {
  state(): ReadinessState;
  markReady(): void;
  markDraining(): void;
  ready(): Promise<ReadinessBody>;
}

export type Probe = () => Promise<unknown>;
export interface ReadinessCheck {
  name: Exclude<ReadinessCheckName, 'lifecycle'>;
  probe: Probe;
}

/** Thrown by a probe to give a more precise reason than `error`. */
export class ProbeFailed extends Error {
  constructor(
    readonly reason: ReadinessFailure['reason'],
    /** For the operator's log only, never the public body. */
    readonly detail?: string,
  ) {
    super(reason);
  }
}

export function createReadiness(
  checks: readonly ReadinessCheck[],
  opts: { timeoutMs?: number; log?: Logger } = {},
): Readiness {
  const timeoutMs = opts.timeoutMs ?? 2_000;
  let state: ReadinessState = 'starting';
  let last: string | undefined;
  /** The failure of one check (undefined: it passed), and a detail for the log. */
  const failure = (check: ReadinessCheck) =>
    new Promise<{ failed?: ReadinessFailure; detail?: string }>((resolve) => {
      const timer = setTimeout(() => resolve({ failed: { check: check.name, reason: 'timeout' } }), timeoutMs);
      check
        .probe()
        .then(
          () => resolve({}),
          (err) =>
            resolve({
              failed: { check: check.name, reason: err instanceof ProbeFailed ? err.reason : 'error' },
              detail: err instanceof ProbeFailed ? err.detail : (err as Error)?.name,
            }),
        )
        .finally(() => clearTimeout(timer));
    });
  const record = (body: ReadinessBody, details: string[] = []): ReadinessBody => {
    const key = JSON.stringify([body.status, body.failing]);
    if (key !== last) {
      // The first answer is logged too: it is a change from "unknown".
      last = key;
      if (body.status === 'ready') opts.log?.info({ readiness: body }, 'readiness changed: ready');
      else opts.log?.warn({ readiness: body, details }, 'readiness changed: not ready');
    }
    return body;
  };
  const notReady = (phase: ReadinessState, failing: ReadinessFailure[]): ReadinessBody => ({
    status: 'not_ready',
    phase,
    failing,
  });
  return {
    state: () => state,
    markReady: () => {
      if (state === 'starting') state = 'ready';
    },
    markDraining: () => {
      state = 'draining';
      record(notReady(state, [{ check: 'lifecycle', reason: 'draining' }]));
    },
    async ready() {
      if (state !== 'ready') return record(notReady(state, [{ check: 'lifecycle', reason: state }]));
      const results = await Promise.all(checks.map(failure));
      const failing = results.flatMap((r) => (r.failed ? [r.failed] : []));
      const details = results.flatMap((r) => (r.failed && r.detail ? [`${r.failed.check}: ${r.detail}`] : []));
      // Draining may have begun while the checks ran.
      const phase = state as ReadinessState;
      if (phase !== 'ready') return record(notReady(phase, [{ check: 'lifecycle', reason: phase }]));
      return record(failing.length === 0 ? { status: 'ready', phase, failing } : notReady(phase, failing), details);
    },
  };
}

/** Probe: the JSON-RPC endpoint answers eth_chainId. */
export function chainAnswers(rpcUrl: string, timeoutMs = 2_000): Probe {
  return async () => {
    const res = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const body = (await res.json()) as { result?: unknown };
    if (!res.ok || typeof body.result !== 'string') throw new Error(`RPC answered ${res.status}`);
  };
}

/**
 * Probe: the relayer (SETTLEMENT=self) holds at least the ETH the next RELAYER_MIN_SETTLEMENTS
 * settlements' gas costs at the current fee. Below it new offers are refused (RELAYER_UNDERFUNDED).
 */
export function relayerFunded(funds: RelayerFunds): Probe {
  return async () => {
    const { balance, need, settlements } = await funds.read();
    if (balance < need)
      throw new ProbeFailed(
        'insufficient_funds',
        `relayer ${funds.address} holds ${formatEther(balance)} ETH; ` +
          `${settlements} settlements need ${formatEther(need)}`,
      );
  };
}
