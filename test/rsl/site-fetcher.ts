import test from 'ava';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { type OriginSite, startTestOrigins, type TestOrigins } from '../../src/devnet/https-origin.js';
import { loadConfig } from '../../src/config/config.js';
import { createSafeFetcher, type Fetcher, type FetchPolicy } from '../../src/rsl/safe-fetch.js';

export interface SiteFetcher {
  origins: TestOrigins;
  fetcher: Fetcher & { close(): void };
}

/**
 * The site's publishers over HTTPS on loopback, and the safe fetcher the service's configuration gives for them
 * (`policy` added: shorter timeouts for a test of a stalling publisher), started before the file's tests and
 * closed after them. Read its fields inside tests: they are set by the `before` hook.
 */
export function useSiteFetcher(site: OriginSite, policy: Partial<FetchPolicy> = {}): SiteFetcher {
  const started = {} as SiteFetcher;
  test.before(async () => {
    started.origins = await startTestOrigins(site);
    const config = loadConfig({ ...started.origins.env, DATA_DIR: tmpdir() });
    started.fetcher = createSafeFetcher({
      coveredOrigins: config.coveredOrigins,
      allowLoopback: true,
      extraCaPem: readFileSync(started.origins.caFile, 'utf8'),
      connectTo: config.fetchConnectTo,
      ...policy,
    });
  });
  test.after.always(async () => {
    started.fetcher?.close();
    await started.origins?.close();
  });
  return started;
}
