import type { DevnetChain } from '../config/config.js';
import type { Logger } from '../runtime/log.js';
import { devChainBlock, publisherLines } from './dev-chain-block.js';
import { startDevnetProcess } from './process.js';

// The development chain `npm start` runs beside the service when no RPC_URL is configured: the devnet
// (src/devnet/main.ts) in a child process of its own, so the service process is the same in
// development and production (it is only ever handed an RPC URL) and its memory can be measured
// alone. main.ts starts it before the service and stops it after; if the service process dies, the
// child sees its stdin close and exits too. Never loaded in production (config.ts refuses DEVNET=auto
// there, and main.ts imports this module only when the devnet is wanted).

export interface DevnetChild {
  chain: DevnetChain;
  stop(): Promise<void>;
}

export async function startDevnetChild(
  log: Logger,
  blockMs?: number,
  /** Where the example publishers keep their development CA (DATA_DIR/dev-publishers): serve them. */
  publishersDir?: string,
): Promise<DevnetChild> {
  // DEVNET_BLOCK_MS: blocks on the clock as on Base, instead of one per transaction.
  const devnet = await startDevnetProcess({
    ...(blockMs !== undefined ? { blockMs } : {}),
    ...(publishersDir !== undefined ? { publishersDir } : {}),
  });
  let stopping = false;
  devnet.child.once('exit', (code, signal) => {
    if (!stopping)
      log.error(
        { pid: devnet.child.pid, code, signal },
        'development devnet exited; payments cannot settle until the service is restarted',
      );
  });
  // Development keys of the local chain only (Hardhat's public test keys), printed for the demo.
  log.info(
    {
      devnet_rpc_url: devnet.rpcUrl,
      devnet_pid: devnet.child.pid,
      devnet_block_ms: devnet.blockMs ?? 'automine',
      usdc: devnet.usdc,
      pay_to: devnet.payTo,
      buyer_keys: devnet.buyers.map((b) => `${b.address}:${b.privateKey}`),
    },
    'development devnet started (test keys, no real funds)',
  );
  // The block a third-party buyer needs (RPC URL, chain id, USDC, funded test accounts), for people.
  process.stderr.write(devChainBlock(devnet, devnet.publishers ? publisherLines(devnet.publishers) : []));
  return {
    chain: {
      rpcUrl: devnet.rpcUrl,
      payTo: devnet.payTo,
      relayerPrivateKey: devnet.relayer.privateKey,
      ...(devnet.blockMs !== undefined ? { blockMs: devnet.blockMs } : {}),
      ...(devnet.publishers ? { publishers: devnet.publishers } : {}),
      buyer: devnet.buyers[0]!,
      chainId: devnet.chainId,
      usdc: devnet.usdc,
    },
    async stop() {
      stopping = true;
      await devnet.stop();
    },
  };
}
