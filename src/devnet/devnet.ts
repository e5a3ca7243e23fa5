import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import {
  createPublicClient,
  createWalletClient,
  custom,
  getAddress,
  http,
  numberToHex,
  parseAbi,
  parseEther,
  type Chain,
  type Hex,
  type PublicClient,
  type Transport,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { chainAt, pollingFor } from '../payment/settlement/chain-reads.js';
import { ROLE_KEYS, DEV_KEYS } from './accounts.js';
import { BASE_USDC, MULTICALL3, deployMulticall3, deployUsdcAtBaseAddress } from './deploy-usdc.js';
import { serveJsonRpc, type Eip1193 } from './rpc-server.js';

// The local development chain: Hardhat 2 / EDR with chain id 8453, Circle's real
// FiatTokenV2_2 at the Base USDC address (so the EIP-712 domain is byte-for-byte Base's), Multicall3,
// funded test buyers. Served as JSON-RPC over HTTP on loopback so a service in another process (and a
// test that kills that service) sees the same chain. Every startDevnet() is a fresh, independent
// chain (its own EDR provider), so two in one process do not share state.

export { BASE_USDC, MULTICALL3, DEV_KEYS };
const require = createRequire(import.meta.url);
const HERE = path.dirname(fileURLToPath(import.meta.url));

export interface DevAccount {
  address: Hex;
  privateKey: Hex;
}

/** What a devnet is, wherever it runs (this process or another). */
export interface DevnetInfo {
  rpcUrl: string;
  chainId: 8453;
  network: 'eip155:8453';
  usdc: typeof BASE_USDC;
  multicall3: typeof MULTICALL3;
  /** Token owner and minter (a test may mint with it; the service never sees it). */
  admin: DevAccount;
  /** Pays gas for settlement (RELAYER_PRIVATE_KEY). */
  relayer: DevAccount;
  /** Pays gas for the local remote-facilitator server (SETTLEMENT=facilitator tests and demo). */
  facilitatorRelayer: DevAccount;
  /** The seller's recipient (PAY_TO). */
  payTo: Hex;
  /** Funded with USDC (buyerFundsMicro each) and ETH. */
  buyers: DevAccount[];
  /** DEVNET_BLOCK_MS: a block every this many ms (interval mining); absent: one block per transaction. */
  blockMs?: number;
}

export interface Devnet extends DevnetInfo {
  mint(to: Hex, amountMicro: bigint): Promise<void>;
  balanceOf(address: Hex): Promise<bigint>;
  /** Transfer logs of the token between two addresses (exactly-once checks). */
  transfers(from: Hex, to: Hex): Promise<{ transaction: Hex; value: bigint; blockNumber: bigint }[]>;
  stop(): Promise<void>;
}

export interface DevnetOptions {
  /** HTTP port on 127.0.0.1; 0 (default) picks a free one. */
  port?: number;
  /** USDC minted to each buyer, in micro-USDC (default 100 USDC). */
  buyerFundsMicro?: bigint;
  /** Mine a block every this many ms, like Base (2000) or Flashblocks (200), instead of one block per
   *  transaction. Tests keep automine (the default) unless block timing is what they are about. */
  blockMs?: number;
}

/** The devnet is chain id 8453, so it is Base to viem (2 s blocks) unless it mines at another pace. */
export const devnetChain = (rpcUrl: string, blockMs?: number): Chain => chainAt(rpcUrl, 'eip155:8453', { blockMs });

const account = (privateKey: Hex): DevAccount => ({ address: privateKeyToAccount(privateKey).address, privateKey });

export function devnetAccounts(): Omit<DevnetInfo, 'rpcUrl'> {
  return {
    chainId: 8453,
    network: 'eip155:8453',
    usdc: BASE_USDC,
    multicall3: MULTICALL3,
    admin: account(ROLE_KEYS.admin),
    relayer: account(ROLE_KEYS.relayer),
    facilitatorRelayer: account(ROLE_KEYS.facilitatorRelayer),
    payTo: getAddress(privateKeyToAccount(ROLE_KEYS.payTo).address),
    buyers: ROLE_KEYS.buyers.map(account),
  };
}

interface HardhatConfig {
  networks: { hardhat: Record<string, unknown> } & Record<string, unknown>;
}

const GENESIS_ACCOUNTS = DEV_KEYS.map((privateKey) => ({ privateKey, balance: parseEther('10000').toString() }));

/** A fresh EDR provider with the config in this folder (nothing at the repo root, nothing compiled). */
async function createEdrProvider(): Promise<Eip1193> {
  process.env.HARDHAT_CONFIG ??= path.join(HERE, 'hardhat.config.cjs');
  process.env.HARDHAT_DISABLE_TELEMETRY_PROMPT = 'true';
  const hre = require('hardhat') as { config: HardhatConfig; artifacts: unknown };
  // Hardhat's own provider construction (the one behind hre.network.provider), called per devnet so
  // each gets its own chain instead of the process-wide singleton.
  const { createProvider } = require('hardhat/internal/core/providers/construction') as {
    createProvider(config: unknown, network: string, artifacts?: unknown): Promise<Eip1193>;
  };
  // The genesis accounts given as keys: Hardhat's default derives 20 from its mnemonic in JavaScript on
  // every provider (~0.3–1.9 s of CPU each), and only these eight are ever used. Same keys, same balance.
  const hardhat = { ...hre.config.networks.hardhat, accounts: GENESIS_ACCOUNTS };
  return createProvider({ ...hre.config, networks: { ...hre.config.networks, hardhat } }, 'hardhat', hre.artifacts);
}

export async function startDevnet(opts: DevnetOptions = {}): Promise<Devnet> {
  const provider = await createEdrProvider();
  const rpc = await serveJsonRpc(provider, { port: opts.port ?? 0 });
  try {
    const info: DevnetInfo = {
      rpcUrl: rpc.url,
      ...devnetAccounts(),
      ...(opts.blockMs !== undefined ? { blockMs: opts.blockMs } : {}),
    };
    const transport = custom(provider);
    const chain = devnetChain(rpc.url);
    const pub = createPublicClient({ chain, transport }) as PublicClient;
    const admin = createWalletClient({ account: privateKeyToAccount(info.admin.privateKey), chain, transport });
    const setCode = async (address: Hex, code: Hex) => {
      await provider.request({ method: 'hardhat_setCode', params: [address, code] });
    };
    await deployUsdcAtBaseAddress(admin, pub, setCode);
    await deployMulticall3(admin, pub, setCode);

    const ops = devnetOperations(info, transport, chain);
    const funds = opts.buyerFundsMicro ?? 100_000_000n;
    for (const b of info.buyers) {
      await provider.request({ method: 'hardhat_setBalance', params: [b.address, numberToHex(parseEther('100'))] });
      await ops.mint(b.address, funds);
    }
    // Set-up is mined at once; from here on, blocks come on the clock as on a real chain.
    if (opts.blockMs !== undefined) {
      await provider.request({ method: 'evm_setAutomine', params: [false] });
      await provider.request({ method: 'evm_setIntervalMining', params: [opts.blockMs] });
    }
    return {
      ...info,
      ...ops,
      async stop() {
        await rpc.close();
      },
    };
  } catch (err) {
    await rpc.close();
    throw err;
  }
}

const tokenAbi = parseAbi([
  'function balanceOf(address) view returns (uint256)',
  'function mint(address to, uint256 amount) returns (bool)',
  'event Transfer(address indexed from, address indexed to, uint256 value)',
]);

/** mint / balanceOf / transfers against a devnet, in this process or (by URL) in another one. */
export function devnetOperations(
  info: Pick<DevnetInfo, 'rpcUrl' | 'admin' | 'usdc' | 'blockMs'>,
  transport: Transport = http(info.rpcUrl),
  chain = devnetChain(info.rpcUrl, info.blockMs),
) {
  const pub = createPublicClient({ chain, transport, ...pollingFor(chain) });
  const admin = createWalletClient({ account: privateKeyToAccount(info.admin.privateKey), chain, transport });
  // The admin key mints one transaction at a time so its own account nonces never collide.
  let queue: Promise<unknown> = Promise.resolve();
  return {
    mint(to: Hex, amountMicro: bigint): Promise<void> {
      const run = queue.then(async () => {
        const hash = await admin.writeContract({
          address: info.usdc,
          abi: tokenAbi,
          functionName: 'mint',
          args: [to, amountMicro],
        });
        const receipt = await pub.waitForTransactionReceipt({ hash });
        if (receipt.status !== 'success') throw new Error('devnet: mint failed');
      });
      queue = run.catch(() => {});
      return run;
    },
    balanceOf: (address: Hex) =>
      pub.readContract({ address: info.usdc, abi: tokenAbi, functionName: 'balanceOf', args: [address] }),
    async transfers(from: Hex, to: Hex) {
      const logs = await pub.getLogs({
        address: info.usdc,
        event: tokenAbi[2],
        args: { from, to },
        fromBlock: 0n,
        toBlock: 'latest',
      });
      return logs.map((l) => ({ transaction: l.transactionHash, value: l.args.value!, blockNumber: l.blockNumber }));
    },
  };
}
