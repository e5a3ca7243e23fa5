// The Python suite's world (packages/python/tests/conftest.py runs `npx tsx test/support/python-world.ts`):
// the test world (./world.ts's startWorld, built here without ava, which ./world.ts imports) on the test,
// demo and signal publishers, and buyers minted for the Python tests, described as ONE JSON line on stdout.
// It runs until its stdin closes or it is sent SIGTERM, then closes the world. Options: PYTHON_WORLD_BUYERS
// (how many funded buyers, default 16), PYTHON_WORLD_ENV (JSON object added to the service environment) and,
// for the Python bulk benchmark (packages/python/bench/bulk_bench.py), PYTHON_WORLD_BENCH as
// `origins,pages,blockMs`: that many more publishers (bench-<n>.example, each declaring every use permitted)
// with that many pages each, and a devnet mining a block every blockMs instead of one per transaction.
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { demoSite } from '../../ops/demo/site.js';
import { rslDocument, type OriginSite } from '../../ops/world/https-origin.js';
import { publisherSite, signalPublisherSite } from './publishers.js';
import { startLocalWorld } from '../../ops/world/local-world.js';
import { seedEmbeddedDataDir } from './embedded-template.js';

const buyers = Number(process.env.PYTHON_WORLD_BUYERS ?? 16);
const env = JSON.parse(process.env.PYTHON_WORLD_ENV ?? '{}') as Record<string, string>;
const [origins = 0, pages = 0, blockMs] = (process.env.PYTHON_WORLD_BENCH ?? '').split(',').filter(Boolean).map(Number);
const bench: OriginSite = Object.fromEntries(
  Array.from({ length: origins }, (_, o) => [
    `bench-${o}.example`,
    {
      '/robots.txt': { type: 'text/plain', body: `User-agent: *\nLicense: https://bench-${o}.example/license.xml\n` },
      '/license.xml': {
        type: 'application/rsl+xml',
        body: rslDocument({ url: '/', permits: ['ai-input', 'ai-index', 'ai-train', 'search'] }),
      },
      ...Object.fromEntries(
        Array.from({ length: pages }, (_, n) => [`/p/${n}`, { body: `<html><body>page ${n}</body></html>` }]),
      ),
    },
  ]),
);
const w = await startLocalWorld(
  { ...publisherSite(), ...demoSite(), ...signalPublisherSite(), ...bench },
  {
    logLevel: 'warn',
    tmpPrefix: 'rights-python-',
    prepareDataDir: seedEmbeddedDataDir,
    env,
    ...(blockMs ? { devnet: { blockMs } } : {}),
  },
);
let closing: Promise<void> | undefined;
const close = () => {
  closing ??= w.close().then(() => process.exit(0));
  return closing;
};
process.on('SIGTERM', close);
process.on('SIGINT', close);
process.stdin.on('end', close);
process.stdin.on('close', close);
process.stdin.resume();

const keys = Array.from({ length: buyers }, () => generatePrivateKey());
for (const k of keys) await w.devnet.mint(privateKeyToAccount(k).address, 100_000_000n);
process.stdout.write(
  `${JSON.stringify({
    url: w.url,
    rpc_url: w.devnet.rpcUrl,
    network: w.devnet.network,
    usdc: w.devnet.usdc,
    pay_to: w.devnet.payTo,
    evidence_key: w.service.evidenceKey,
    ca_file: w.origins.caFile,
    connect_to: w.origins.connectTo,
    origins: w.origins.origins,
    buyers: keys.map((k) => ({ address: privateKeyToAccount(k).address, private_key: k })),
  })}\n`,
);
