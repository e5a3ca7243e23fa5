/**
 * The rate limits of a local world, and of the tests' fast world, which takes them from here without
 * loading the devnet: every client is 127.0.0.1, so the per-address limits would throttle the tests
 * against each other. Their own behaviour is tested in test/surfaces/rate-limit.test.ts and
 * rate-limit-routes.test.ts.
 */
export const LOCAL_RATE_LIMITS: Readonly<Record<string, string>> = Object.fromEntries(
  ['QUOTE', 'INSPECT', 'PREFLIGHT', 'GATE', 'MCP'].flatMap((r) => [
    [`RATE_LIMIT_${r}_PER_MINUTE`, '100000'],
    [`RATE_LIMIT_${r}_BURST`, '10000'],
  ]),
);
