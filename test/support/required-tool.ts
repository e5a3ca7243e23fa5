import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import type { ExecutionContext } from 'ava';

// A test that needs a program from the machine (promtool, chromium): found on PATH, or the test says
// why it cannot run; under CI=true that is a failure, because CI installs the tool (.ci/run).
export function requiredTool(t: ExecutionContext, name: string, install: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
    const candidate = path.join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      /* next */
    }
  }
  const why = `${name} is not on PATH (${install})`;
  if (process.env.CI === 'true') t.fail(`${why}; CI must have it`);
  else {
    t.log(`skipped: ${why}`);
    t.pass();
  }
  return undefined;
}
