import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { StoreFactory, StoreUnderTest } from '../store/fixtures/store-under-test.js';
import { EVIDENCE_SEED_HEX } from './seed.js';

// A store and a data dir as the operator CLI sees them beside a service (EVENT_STORE_URL, DATA_DIR,
// EVIDENCE_KEY), for the CLI tests that run it as a child process on the embedded store or PostgreSQL.
export async function operatorStore(
  factory: StoreFactory,
): Promise<{ sut: StoreUnderTest; env: Record<string, string>; dir: string; dispose: () => Promise<void> }> {
  const sut = await factory();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'rights-ops-data-'));
  return {
    sut,
    dir: dataDir,
    env: { EVENT_STORE_URL: sut.url, DATA_DIR: dataDir, EVIDENCE_KEY: EVIDENCE_SEED_HEX, LOG_LEVEL: 'silent' },
    dispose: async () => {
      await sut.dispose();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
