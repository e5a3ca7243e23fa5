import test from 'ava';
import { createPublicClient, createWalletClient, http, parseAbi, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { devnetChain } from '../../src/devnet/devnet.js';
import type { Broadcast } from '../../src/payment/settlement/settlement.js';
import { usePaymentDevnet } from './support/payment-devnet.js';
import { flakyRpc } from './support/flaky-rpc.js';

// Right before a broadcast the relayer simulates the transfer against the pending block (docs/decisions.md,
// "Authorizations the relayer can settle in time"). On a devnet that mines every 2 s, a buyer who has
// signed and been checkpointed moves its whole USDC balance away; the move waits in the node's pool for the
// next block when the relayer settles. Simulated against the last sealed block the transfer would succeed,
// be broadcast and revert in the same block as the move (the relayer pays the gas); against the pending
// block it reverts, so nothing is signed or sent. The relayer reaches the devnet through a proxy that runs a
// simulation without a block at `latest`, as go-ethereum does (Hardhat alone would use `pending`).

const d = usePaymentDevnet({ blockMs: 2000 });
const erc20 = parseAbi(['function transfer(address to, uint256 value) returns (bool)']);

test.serial('a payer whose USDC is leaving in the pending block costs no broadcast and no gas', async (t) => {
  const node = await flakyRpc(d().rpcUrl, 'latestByDefault');
  t.teardown(() => node.close());
  const self = d().selfSettlement({ rpcUrl: node.url });
  const { req, payer, payload } = await d().payment(1);
  const buyer = d().buyers[1]!;
  const chain = devnetChain(d().rpcUrl);
  const pub = createPublicClient({ chain, transport: http(d().rpcUrl) });
  const wallet = createWalletClient({
    account: privateKeyToAccount(buyer.privateKey),
    chain,
    transport: http(d().rpcUrl),
  });
  const elsewhere = privateKeyToAccount(`0x${'77'.repeat(32)}` as Hex).address;

  // Right after a block, so the move is still in the pool when the relayer simulates.
  const head = await pub.getBlockNumber();
  await new Promise<void>((resolve) => {
    const stop = pub.watchBlockNumber({
      pollingInterval: 50,
      onBlockNumber: (n) => {
        if (n > head) {
          stop();
          resolve();
        }
      },
    });
  });
  const balance = await d().balanceOf(payer);
  const move = await wallet.writeContract({
    address: d().usdc,
    abi: erc20,
    functionName: 'transfer',
    args: [elsewhere, balance],
  });
  const pending = await pub.getTransactionReceipt({ hash: move }).catch(() => undefined);
  t.is(pending, undefined, 'the move is not mined yet when the relayer settles');

  const before = await d().relayerNonce();
  const written: Broadcast[] = [];
  const outcome = await self.settle(payload as never, req as never, {
    async beforeBroadcast(b) {
      written.push(b);
    },
  });
  t.is(outcome.kind, 'failed', JSON.stringify(outcome));
  t.deepEqual(written, [], 'nothing was signed to be sent');
  t.is(await d().relayerNonce(), before, 'the relayer sent no transaction');
  const mined = await pub.waitForTransactionReceipt({ hash: move });
  t.is(mined.status, 'success');
  t.deepEqual(await d().transfers(payer, d().payTo), [], 'no transfer to the seller');
  t.is(await d().relayerNonce(), before, 'and none after the block either');
});
