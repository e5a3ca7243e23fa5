import { lockHolder } from '../store/embedded/lockfile.js';
import { embeddedDirOf } from '../store/open/open.js';
import type { ConfigProblem } from '../config/config-error.js';

// A second start on a data directory another service holds is refused before anything starts, naming
// the setting the operator set (docs/decisions.md, "Start-up checks before anything starts"): the
// embedded store's lock is read, never taken, so the refused start creates nothing.

/**
 * The problem of an embedded store (`file:`, `sqlite:` or `pglite:` EVENT_STORE_URL) whose lock a live process
 * holds. The
 * setting named is EVENT_STORE_URL when the environment set it, DATA_DIR otherwise (the store's
 * directory is DATA_DIR/events then).
 */
export async function dataDirInUse(
  eventStoreUrl: string,
  dataDir: string,
  env: NodeJS.ProcessEnv,
): Promise<ConfigProblem | undefined> {
  const dir = embeddedDirOf(eventStoreUrl);
  if (dir === undefined) return undefined;
  const holder = await lockHolder(dir);
  if (holder === undefined) return undefined;
  const who = holder === process.pid ? 'this process' : `process ${holder}`;
  return env.EVENT_STORE_URL
    ? {
        variable: 'EVENT_STORE_URL',
        problem:
          `names ${dir}, which ${who} has open (another service): ` +
          'stop it, or set EVENT_STORE_URL to another directory',
      }
    : {
        variable: 'DATA_DIR',
        problem: `${dataDir} is in use by ${who} (another service): stop it, or set DATA_DIR to another directory`,
      };
}
