// Test-only crash point for the kill-and-restart tests: SIGKILL this process right after the relayer
// handed the transferWithAuthorization transaction to the node and before settle() returns, i.e. the
// moment where money may have moved but nothing about it is recorded yet.
//
// It cannot be switched on by accident in production: it needs BOTH NODE_ENV=test AND
// TEST_CRASH_AFTER_SUBMIT=1 in the environment of the process that settles. Any other value of
// either leaves it off. (A production deployment that set NODE_ENV=test would still need the second,
// explicitly test-named variable.) It reads the environment once, when a settlement is created.

export type AfterSubmitHook = (transaction: `0x${string}`) => void;

export function crashAfterSubmitFromEnv(env: NodeJS.ProcessEnv = process.env): AfterSubmitHook | undefined {
  if (env.NODE_ENV !== 'test' || env.TEST_CRASH_AFTER_SUBMIT !== '1') return undefined;
  return () => {
    process.kill(process.pid, 'SIGKILL');
  };
}
