import test from 'ava';
import pg from 'pg';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { tryAdvisoryLease } from '../../src/store/postgres/advisory-lease.js';
import {
  leaseRelayerKey,
  relayerLeaseName,
  RelayerPoolExhausted,
  type TryLease,
} from '../../src/payment/settlement/relayer-key-lease.js';
import { requiredServerUrl } from '../support/required-server.js';

// The relayer key pool's leases on a real PostgreSQL (advisory locks, as the service takes them):
// two leasers get two different keys, a third finds the pool exhausted, a released key is taken by the
// next, and a lease whose session the server ended stops signing until it is taken again.
const PG = requiredServerUrl(test, 'PG_TEST_URL', 'relayer key lease on PostgreSQL', { requiredInCi: true });

if (PG) {
  const config = { connectionString: PG };
  const tryLease: TryLease = (name) => tryAdvisoryLease(config, name, undefined, 200);

  test('a pool of two: two leasers, two keys; a third waits and gives up; a released key is taken over', async (t) => {
    const pool = [generatePrivateKey(), generatePrivateKey()];
    const a = await leaseRelayerKey(pool, tryLease, { waitMs: 0 });
    const b = await leaseRelayerKey(pool, tryLease, { waitMs: 0 });
    t.teardown(async () => {
      await a.release();
      await b.release();
    });
    t.is(a.privateKey, pool[0]!);
    t.is(b.privateKey, pool[1]!);
    t.is(a.address, privateKeyToAccount(pool[0]!).address);
    t.true(a.holds() && b.holds());
    const started = Date.now();
    const err = await t.throwsAsync(leaseRelayerKey(pool, tryLease, { waitMs: 300, retryMs: 100 }));
    t.true(err instanceof RelayerPoolExhausted, String(err));
    t.true(Date.now() - started >= 300, 'it tried again until the wait was over');
    // A rolling restart: the third waits, the first exits, the third takes its key.
    const third = leaseRelayerKey(pool, tryLease, { waitMs: 60_000, retryMs: 100 });
    await new Promise((resolve) => setTimeout(resolve, 250));
    await a.release();
    t.false(a.holds());
    const c = await third;
    t.teardown(() => c.release());
    t.is(c.privateKey, pool[0]!);
  });

  test('a lease whose session the server ended: not held, then taken again', async (t) => {
    const pool = [generatePrivateKey()];
    const held = await leaseRelayerKey(pool, tryLease, { retryMs: 100 });
    t.teardown(() => held.release());
    t.true(held.holds());
    // End exactly this lease's session, as a lost connection would (other tests share this database).
    const admin = new pg.Client(config);
    await admin.connect();
    t.teardown(() => admin.end());
    const ended = await admin.query(
      `SELECT pg_terminate_backend(pid) FROM pg_locks
        WHERE locktype = 'advisory' AND objsubid = 2
          AND classid::bigint = (hashtext('rights-preflight.lease')::bigint & 4294967295)
          AND objid::bigint = (hashtext($1 || '/' || coalesce(current_schema(), ''))::bigint & 4294967295)`,
      [relayerLeaseName(held.address)],
    );
    t.is(ended.rowCount, 1);
    const until = async (want: boolean) => {
      const deadline = Date.now() + 60_000;
      while (held.holds() !== want && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      return held.holds();
    };
    t.false(await until(false), 'the heartbeat found the session gone');
    t.true(await until(true), 'taken again once free');
  });
}
