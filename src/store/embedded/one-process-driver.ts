import type { SqlDriver } from '../sql-driver.js';

/**
 * What an embedded driver answers for the parts that concern other processes: none share its directory
 * (the directory lock), so no append is announced, no other writer is watched, errors are the engine's own,
 * and it always leads.
 */
export const ONE_PROCESS_DRIVER: Pick<
  SqlDriver,
  'announceAppendSql' | 'watchOtherWriters' | 'translateError' | 'tryLease'
> = {
  announceAppendSql: undefined,
  watchOtherWriters: async () => async () => {},
  translateError: (err) => err,
  tryLease: async () => ({ lost: new Promise<void>(() => {}), release: async () => {} }),
};
