import { startLocalWorld, type LocalWorld } from '../world/local-world.js';
import { demoSite } from '../../src/devnet/demo-site.js';

// The demo world, shared by `npm run demo` and test/buyer: the four RSL publishers of ./site.ts in a
// local world (ops/world/).

export { DEMO_RESOURCES, demoSite } from '../../src/devnet/demo-site.js';

export type DemoWorld = LocalWorld;

export const startDemoWorld = (opts: { logLevel?: string; blockMs?: number } = {}): Promise<DemoWorld> =>
  startLocalWorld(demoSite(), {
    tmpPrefix: 'rights-demo-',
    ...(opts.logLevel ? { logLevel: opts.logLevel } : {}),
    ...(opts.blockMs !== undefined ? { devnet: { blockMs: opts.blockMs } } : {}),
  });
