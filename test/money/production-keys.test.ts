import test from 'ava';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig, serviceConfig } from '../../src/config/config.js';
import { quietLogger } from '../support/quiet-logger.js';
import { startService } from '../../src/service/service.js';

// NODE_ENV=production never generates a key or secret: each missing one stops the start with an
// error naming its variable, before anything else is started, and nothing is written to DATA_DIR.

const quiet = quietLogger;
const hex = (b: string) => b.repeat(32);

test(
  'production: a missing EVIDENCE_KEY, CHECKPOINT_KEY or CLAIM_SECRET is a start-up error naming it; ' +
    'no key file is generated',
  async (t) => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'rights-prod-keys-'));
    t.teardown(() => rm(dataDir, { recursive: true, force: true }));
    const base = {
      NODE_ENV: 'production',
      DATA_DIR: dataDir,
      DEVNET: 'off',
      RPC_URL: 'http://127.0.0.1:9',
      PAY_TO: `0x${'11'.repeat(20)}`,
      RELAYER_PRIVATE_KEY: hex('22'),
    };
    const start = (env: Record<string, string>) =>
      startService(serviceConfig(loadConfig({ ...base, ...env })), quiet());

    await t.throwsAsync(() => start({}), { message: /EVIDENCE_KEY/ });
    await t.throwsAsync(() => start({ EVIDENCE_KEY: hex('01') }), { message: /CHECKPOINT_KEY/ });
    await t.throwsAsync(() => start({ EVIDENCE_KEY: hex('01'), CHECKPOINT_KEY: hex('02') }), {
      message: /CLAIM_SECRET/,
    });
    t.deepEqual(await readdir(dataDir), [], 'nothing was generated into the data dir');
    t.false(loadConfig({ DATA_DIR: dataDir }).production);
    t.true(loadConfig({ DATA_DIR: dataDir, NODE_ENV: 'production' }).production);
  },
);
