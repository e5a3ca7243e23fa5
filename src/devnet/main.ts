import { startDevnet } from './devnet.js';
import { devChainBlock } from './dev-chain-block.js';
import { startFacilitatorServer, type FacilitatorServer } from './facilitator-server.js';
import { startDevelopmentPublishers } from './dev-publishers.js';
import path from 'node:path';

// `npm run devnet`: the local chain alone, in its own process, until SIGINT/SIGTERM.
//   --json      print exactly one JSON line (DevnetInfo plus "devnet":"ready") on stdout; the parent
//               process (startDevnetProcess) reads it. Development keys only: public Hardhat keys.
//   --port N    listen on 127.0.0.1:N (default: a free port; DEVNET_PORT also works)
//   --facilitator  also serve a local x402 facilitator (for SETTLEMENT=facilitator) and print its URL
//   --block-ms N  mine a block every N ms (interval mining, as Base: 2000) instead of one per
//               transaction (default; DEVNET_BLOCK_MS also works)
//   --publishers DIR  also serve the example publishers over HTTPS on loopback under the development CA
//               kept in DIR (src/devnet/dev-publishers.ts) and print where (`npm start` in development)
//   --exit-with-parent  stop when stdin ends: the parent that reads the JSON line holds it open, so a
//               parent that dies (even by SIGKILL) never leaves a chain behind
const args = process.argv.slice(2);
const json = args.includes('--json');
const portArg = args.indexOf('--port');
const port = portArg >= 0 ? Number(args[portArg + 1]) : process.env.DEVNET_PORT ? Number(process.env.DEVNET_PORT) : 0;
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error('devnet: --port must be 0..65535');
  process.exit(2);
}

const blockArg = args.indexOf('--block-ms');
const blockText = blockArg >= 0 ? args[blockArg + 1] : process.env.DEVNET_BLOCK_MS || undefined;
const blockMs = blockText === undefined ? undefined : Number(blockText);
if (blockMs !== undefined && !(Number.isInteger(blockMs) && blockMs > 0)) {
  console.error('devnet: --block-ms (DEVNET_BLOCK_MS) must be a positive integer of milliseconds');
  process.exit(2);
}

const started = Date.now();
const devnet = await startDevnet({ port, ...(blockMs !== undefined ? { blockMs } : {}) });
let facilitator: FacilitatorServer | undefined;
if (args.includes('--facilitator')) {
  facilitator = await startFacilitatorServer({
    rpcUrl: devnet.rpcUrl,
    relayerPrivateKey: devnet.facilitatorRelayer.privateKey,
    network: devnet.network,
    ...(blockMs !== undefined ? { timing: { blockMs } } : {}),
  });
}
const publishersArg = args.indexOf('--publishers');
const publishers =
  publishersArg >= 0 ? await startDevelopmentPublishers(path.resolve(args[publishersArg + 1] ?? '.')) : undefined;
const info = {
  rpcUrl: devnet.rpcUrl,
  chainId: devnet.chainId,
  network: devnet.network,
  usdc: devnet.usdc,
  multicall3: devnet.multicall3,
  admin: devnet.admin,
  relayer: devnet.relayer,
  facilitatorRelayer: devnet.facilitatorRelayer,
  payTo: devnet.payTo,
  buyers: devnet.buyers,
  ...(blockMs !== undefined ? { blockMs } : {}),
  ...(facilitator ? { facilitatorUrl: facilitator.url } : {}),
  ...(publishers
    ? {
        publishers: {
          origins: publishers.origins,
          caFile: publishers.caFile,
          connectTo: publishers.connectTo,
          resources: publishers.resources,
        },
      }
    : {}),
};
if (json) {
  process.stdout.write(`${JSON.stringify({ devnet: 'ready', ...info })}\n`);
} else {
  process.stdout.write(
    devChainBlock(devnet, [
      ['Multicall3', devnet.multicall3],
      ['blocks', blockMs !== undefined ? `every ${blockMs} ms (DEVNET_BLOCK_MS)` : 'one per transaction (automine)'],
      ['RELAYER_KEY', `${devnet.relayer.privateKey}  (${devnet.relayer.address}; RELAYER_PRIVATE_KEY)`],
      ...(facilitator
        ? [
            ['FACILITATOR_URL', `${facilitator.url}  (SETTLEMENT=facilitator; its relayer ${facilitator.relayer})`] as [
              string,
              string,
            ],
          ]
        : []),
    ]),
  );
  console.log(`devnet ready in ${Date.now() - started} ms; buyers hold 100 USDC and 100 ETH each. Ctrl-C to stop.`);
}

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await facilitator?.close();
  await publishers?.close();
  await devnet.stop();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
if (args.includes('--exit-with-parent')) {
  process.stdin.on('end', () => void stop());
  process.stdin.on('error', () => void stop());
  process.stdin.resume();
}
// Keep serving even if the parent closes our stdout (e.g. a test that read the ready line and left).
process.stdout.on('error', () => {});
