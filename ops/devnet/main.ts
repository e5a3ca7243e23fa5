import { startDevnet } from './devnet.js';

// `npm run devnet`: the local chain alone, in its own process. Prints one JSON line with the RPC URL,
// token, relayer, recipient and funded buyer keys (development keys only), then serves until stopped.
const devnet = await startDevnet({ port: process.env.DEVNET_PORT ? Number(process.env.DEVNET_PORT) : 0 });
console.log(JSON.stringify({
  devnet: 'ready',
  rpcUrl: devnet.rpcUrl,
  chainId: devnet.chainId,
  usdc: devnet.usdc,
  relayer: devnet.relayer,
  payTo: devnet.payTo,
  buyers: devnet.buyers,
}));
const stop = async () => { await devnet.stop(); process.exit(0); };
process.once('SIGINT', () => void stop());
process.once('SIGTERM', () => void stop());
