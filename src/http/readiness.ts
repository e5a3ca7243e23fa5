// Readiness (GET /readyz): ready only between the end of start-up and the first SIGTERM, and only
// while every dependency probe (the store, the chain RPC) answers within its timeout. A load
// balancer stops sending traffic as soon as this turns false, before the listener closes.
export type ReadinessState = 'starting' | 'ready' | 'draining';

export interface Readiness {
  state(): ReadinessState;
  markReady(): void;
  markDraining(): void;
  ready(): Promise<boolean>;
}

export type Probe = () => Promise<unknown>;

export function createReadiness(probes: readonly Probe[], timeoutMs = 2_000): Readiness {
  let state: ReadinessState = 'starting';
  const answers = (probe: Probe) =>
    new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      probe()
        .then(
          () => resolve(true),
          () => resolve(false),
        )
        .finally(() => clearTimeout(timer));
    });
  return {
    state: () => state,
    markReady: () => {
      if (state === 'starting') state = 'ready';
    },
    markDraining: () => {
      state = 'draining';
    },
    async ready() {
      if (state !== 'ready') return false;
      return (await Promise.all(probes.map(answers))).every(Boolean);
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
