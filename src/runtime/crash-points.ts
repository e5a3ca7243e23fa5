// Test-only crash points for the kill-and-restart tests: the one way a test makes the service die at a chosen moment of
// a purchase (docs/decisions.md, "Reviewable modules and dead code"). The money path and the settlement call
// `crashAt(point)` where a crash is worth testing; the process entry (main.ts) turns TEST_CRASH_AT into a SIGKILL
// there; an in-process test passes its own `crashAt` (one that throws, say) through startService's options.
//
//   after-checkpoint  the payment's checkpoint is stored, nothing is settled yet
//   after-submit      the relayer handed transferWithAuthorization to the node, no receipt yet: money may
//                     have moved but nothing about it is recorded (SETTLEMENT=self only)
//   after-settle      the transfer is mined, before settle() returns its outcome
//
// It cannot be switched on by accident in production: it needs BOTH NODE_ENV=test AND TEST_CRASH_AT
// naming one of these points in the environment of the process. Any other value of either leaves it off.

const CRASH_POINTS = ['after-checkpoint', 'after-submit', 'after-settle'] as const;
type CrashPoint = (typeof CRASH_POINTS)[number];
export type CrashAt = (point: CrashPoint) => void;

/** SIGKILL this process at the point TEST_CRASH_AT names, when NODE_ENV=test; undefined otherwise. */
export function crashAtFromEnv(env: NodeJS.ProcessEnv = process.env): CrashAt | undefined {
  const named = env.TEST_CRASH_AT;
  if (env.NODE_ENV !== 'test' || !CRASH_POINTS.some((p) => p === named)) return undefined;
  return (point) => {
    if (point === named) process.kill(process.pid, 'SIGKILL');
  };
}
