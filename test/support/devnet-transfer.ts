import { createPublicClient, createWalletClient, http, parseAbi, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { BASE_USDC, devnetChain } from '../../src/devnet/devnet.js';

// Transactions an operator could send by hand on the devnet (refund tests): a USDC transfer, and a
// plain ETH transfer (a transaction that moves no token). Each waits for its receipt.

const transferAbi = parseAbi(['function transfer(address to, uint256 value) returns (bool)']);

export function devnetWallet(rpcUrl: string, privateKey: Hex) {
  const chain = devnetChain(rpcUrl);
  const pub = createPublicClient({ chain, transport: http(rpcUrl) });
  const account = privateKeyToAccount(privateKey);
  const wallet = createWalletClient({ account, chain, transport: http(rpcUrl) });
  const mined = async (hash: Hex) => {
    const receipt = await pub.waitForTransactionReceipt({ hash });
    if (receipt.status !== 'success') throw new Error(`devnet: ${hash} failed`);
    return hash;
  };
  return {
    address: account.address,
    usdc: async (to: Hex, micro: bigint) =>
      mined(
        await wallet.writeContract({
          address: BASE_USDC,
          abi: transferAbi,
          functionName: 'transfer',
          args: [to, micro],
        }),
      ),
    eth: async (to: Hex, wei: bigint) => mined(await wallet.sendTransaction({ to, value: wei })),
  };
}
