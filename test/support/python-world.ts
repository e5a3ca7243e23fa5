// The Python suite's world (packages/python/tests/conftest.py runs `npx tsx test/support/python-world.ts`):
// the test world (./world.ts's startWorld, built here without ava, which ./world.ts imports) on the test,
// demo and signal publishers, and buyers minted for the Python tests, described as ONE JSON line on stdout.
// It runs until its stdin closes or it is sent SIGTERM, then closes the world. Options: PYTHON_WORLD_BUYERS
// (how many funded buyers, default 16) and PYTHON_WORLD_ENV (JSON object added to the service environment).
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { demoSite } from '../../src/devnet/demo-site.js';
import { publisherSite, signalPublisherSite } from './publishers.js';
import { startLocalWorld } from '../../ops/world/local-world.js';
import { seedEmbeddedDataDir } from './embedded-template.js';

const buyers = Number(process.env.PYTHON_WORLD_BUYERS ?? 16);
const env = JSON.parse(process.env.PYTHON_WORLD_ENV ?? '{}') as Record<string, string>;
const w = await startLocalWorld(
  { ...publisherSite(), ...demoSite(), ...signalPublisherSite() },
  { logLevel: 'warn', tmpPrefix: 'rights-python-', prepareDataDir: seedEmbeddedDataDir, env },
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
