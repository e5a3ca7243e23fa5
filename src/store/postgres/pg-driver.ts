import pg from 'pg';
import type { Logger } from '../../runtime/log.js';
import type { SqlDriver, SqlQueryable } from '../sql-driver.js';
import { tryAdvisoryLease } from './advisory-lease.js';
import { translatePgError } from './unavailable.js';

/**
 * `pg` pool for one store. Other processes' appends are announced with NOTIFY from inside the
 * append transaction (so it is delivered only on commit) and heard on a dedicated LISTEN
 * connection; polling in the subscription covers notifications lost while that connection is down.
 */
export function pgDriver(config: pg.PoolConfig, channel: string, log?: Logger): SqlDriver {
  const pool = new pg.Pool(config);
  // An idle client losing its connection must not crash the process; the next query reports it.
  pool.on('error', (err) => log?.warn({ err }, 'idle PostgreSQL connection failed'));

  const queryOn = (client: pg.Pool | pg.PoolClient): SqlQueryable => ({
    dialect: 'postgres',
    query: async <Row>(text: string, params?: unknown[]) => (await client.query(text, params)).rows as Row[],
  });
  const base = queryOn(pool);

  return {
    kind: 'postgres',
    dialect: 'postgres',
    query: base.query,
    async transaction(work, edges) {
      const client = await pool.connect();
      let broken = false;
      // A checked-out client has no pool listener: a connection lost between two statements of the
      // transaction is emitted on the client, where unheard it would crash the process. The next
      // statement reports it; the client is discarded on release.
      const lost = (err: Error) => {
        broken = true;
        log?.warn({ err }, 'PostgreSQL connection lost inside a transaction');
      };
      client.on('error', lost);
      try {
        // Without parameters node-pg uses the simple query protocol, which takes several statements at once.
        await client.query(['BEGIN ISOLATION LEVEL READ COMMITTED', edges?.first].filter(Boolean).join('; '));
        const result = await work(queryOn(client));
        await client.query([edges?.last, 'COMMIT'].filter(Boolean).join('; '));
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {
          broken = true;
        });
        throw err;
      } finally {
        client.off('error', lost);
        client.release(broken);
      }
    },
    announceAppendSql: `SELECT pg_notify(${quoteLiteral(channel)}, '')`,
    async watchOtherWriters(wake) {
      return listen(config, channel, wake, log);
    },
    translateError: translatePgError,
    tryLease: (name) => tryAdvisoryLease(config, name, log),
    async close() {
      await pool.end();
    },
  };
}

/** One LISTEN connection, reconnected with backoff until stopped. */
async function listen(
  config: pg.PoolConfig,
  channel: string,
  wake: () => void,
  log?: Logger,
): Promise<() => Promise<void>> {
  let stopped = false;
  let client: pg.Client | undefined;
  let retryTimer: NodeJS.Timeout | undefined;
  let failures = 0;

  const connect = async (): Promise<void> => {
    const c = new pg.Client(config);
    c.on('notification', () => wake());
    c.on('error', (err) => {
      log?.warn({ err }, 'LISTEN connection lost; subscriptions poll until it is back');
      retry(c);
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${quoteChannel(channel)}`);
    } catch (err) {
      log?.warn({ err }, 'cannot LISTEN for appends; subscriptions poll until it works');
      retry(c);
      return;
    }
    if (stopped) {
      await c.end().catch(() => {});
      return;
    }
    client = c;
    failures = 0;
    wake(); // events may have been committed while nobody was listening
  };

  const retry = (failed: pg.Client) => {
    if (client === failed) client = undefined;
    failed.end().catch(() => {});
    if (stopped || retryTimer) return;
    failures++;
    retryTimer = setTimeout(
      () => {
        retryTimer = undefined;
        void connect();
      },
      Math.min(10_000, 200 * 2 ** failures),
    );
    retryTimer.unref();
  };

  await connect();
  return async () => {
    stopped = true;
    if (retryTimer) clearTimeout(retryTimer);
    await client?.end().catch(() => {});
    client = undefined;
  };
}

function quoteChannel(channel: string): string {
  return `"${channel.replace(/"/g, '""')}"`;
}

/** A SQL string literal (standard_conforming_strings, on since PostgreSQL 9.1: only quotes are doubled). */
function quoteLiteral(value: string): string {
  if (value.includes('\0')) throw new Error('a SQL literal cannot hold NUL');
  return `'${value.replaceAll("'", "''")}'`;
}
