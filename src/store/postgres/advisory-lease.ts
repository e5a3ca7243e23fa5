import pg from 'pg';
import type { Logger } from '../../runtime/log.js';
import type { Lease } from '../sql-driver.js';

/**
 * Leadership on PostgreSQL: a session-level advisory lock held on a connection of its own. The
 * server releases it the moment that session ends, whether this process released it, died (kill -9
 * closes the socket) or lost the network, so a follower's next try succeeds. A heartbeat query finds
 * a silently dead connection; then the lease is reported lost and this process stops leading before
 * anyone else can take over (the server has already ended the session and its lock).
 */
export async function tryAdvisoryLease(
  config: pg.PoolConfig,
  key: string,
  log?: Logger,
  heartbeatMs = 2_000,
): Promise<Lease | undefined> {
  const client = new pg.Client({ ...config, keepAlive: true });
  let lostResolve!: () => void;
  const lost = new Promise<void>((resolve) => {
    lostResolve = resolve;
  });
  let released = false;
  let heartbeat: NodeJS.Timeout | undefined;
  const end = (why: string, err?: unknown) => {
    if (heartbeat) clearInterval(heartbeat);
    if (!released)
      log?.warn({ err: err ? { message: (err as Error).message } : undefined, lease: key }, `leadership lost: ${why}`);
    released = true;
    lostResolve();
    client.end().catch(() => {});
  };
  client.on('error', (err) => end('connection error', err));
  try {
    await client.connect();
    const [row] = (
      await client.query<{ ok: boolean }>(
        `SELECT pg_try_advisory_lock(hashtext('rights-preflight.lease'), hashtext($1 || '/' ||
          coalesce(current_schema(), ''))) AS ok`,
        [key],
      )
    ).rows;
    if (!row?.ok) {
      released = true;
      await client.end().catch(() => {});
      return undefined;
    }
  } catch (err) {
    released = true;
    await client.end().catch(() => {});
    throw err;
  }
  heartbeat = setInterval(() => {
    client.query('SELECT 1').catch((err) => end('heartbeat failed', err));
  }, heartbeatMs);
  heartbeat.unref();
  return {
    lost,
    async release() {
      if (released) return;
      released = true;
      if (heartbeat) clearInterval(heartbeat);
      await client.end().catch(() => {}); // ending the session releases its advisory locks
    },
  };
}
