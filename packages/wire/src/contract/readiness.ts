import * as t from 'io-ts';

// GET /readyz's body: whether this instance takes traffic and, when not, every check that says why.
//
//   {"status":"not_ready","phase":"ready","failing":[{"check":"chain_rpc","reason":"timeout"}]}
//
// phase is the instance's lifecycle (starting → ready → draining); a starting or draining instance is
// not ready whatever its checks say (its failing list names `lifecycle`). Reasons never carry an error
// message: the body is public, and an RPC error may quote a URL with its API key.

export const ReadinessCheckName = t.keyof(
  { lifecycle: null, store: null, chain_rpc: null, relayer_funds: null },
  'ReadinessCheckName',
);
export type ReadinessCheckName = t.TypeOf<typeof ReadinessCheckName>;

export const ReadinessFailure = t.type(
  {
    check: ReadinessCheckName,
    /** timeout: no answer within 2 s; error: the probe failed; insufficient_funds: below the gas of
     *  RELAYER_MIN_SETTLEMENTS settlements;
     *  starting / draining: the lifecycle phase. */
    reason: t.keyof({ timeout: null, error: null, insufficient_funds: null, starting: null, draining: null }),
  },
  'ReadinessFailure',
);
export type ReadinessFailure = t.TypeOf<typeof ReadinessFailure>;

export const ReadinessBody = t.type(
  {
    status: t.keyof({ ready: null, not_ready: null }),
    phase: t.keyof({ starting: null, ready: null, draining: null }),
    failing: t.array(ReadinessFailure),
  },
  'ReadinessBody',
);
export type ReadinessBody = t.TypeOf<typeof ReadinessBody>;
