import { createWalletClient, createPublicClient, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { startDevnet, devnetChain } from './ops/devnet/devnet.ts';
import { devnetRpc } from './test/support/devnet-rpc.ts';
async function main() {
const d = await startDevnet({ blockMs: 2000 });
const pub = createPublicClient({ transport: http(d.rpcUrl) });
const account = privateKeyToAccount(d.relayer.privateKey);
const wallet = createWalletClient({ account, chain: devnetChain(d.rpcUrl, 2000), transport: http(d.rpcUrl) });
for (const mode of ['interval', 'paused']) {
  if (mode === 'paused') { await devnetRpc(d.rpcUrl, 'evm_setIntervalMining', [0]); }
  console.log(mode, await devnetRpc(d.rpcUrl, 'hardhat_setNextBlockBaseFeePerGas', ['0x' + (20n * 10n ** 9n).toString(16)]));
  const fees = await pub.estimateFeesPerGas();
  console.log(fees);
  try {
    const h = await wallet.sendTransaction({ to: account.address, value: 0n, gas: 21000n, ...fees });
    console.log('sent', h, await pub.getTransactionCount({ address: account.address, blockTag: 'pending' }));
  } catch (e) { console.log('ERR', (e as Error).message.slice(0, 400)); }
}
await d.stop();
}
main();
