import test from 'ava';
import { createPublicClient, createWalletClient, http, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { ConfigError, loadConfig } from '../../src/config/config.js';
import { devnetChain } from '../../src/devnet/devnet.js';
import { chainAt, firstReceiptAt, receiptAt } from '../../src/payment/settlement/chain-reads.js';
import { flakyRpc, type FlakyRpc } from './support/flaky-rpc.js';
import { paymentDevnet, type PaymentDevnet } from './support/payment-devnet.js';

// CONFIRMATION=block|preconfirmed (docs/decisions.md, "Fee cap, filler transaction and confirmation
// levels"). A Flashblocks-aware node answers eth_getTransactionReceipt for a transaction preconfirmed in
// the block being built, before eth_blockNumber (the sealed head) reaches that block. The devnet has no
// Flashblocks, so a proxy that reports the head one block behind plays that node: the newest block's
// receipts are then "preconfirmed". `block` waits for the sealed block; `preconfirmed` takes the
// receipt, and the transfer it reads carries that level into the ledger.

let d: PaymentDevnet;
let behind: FlakyRpc;
test.before(async () => {
  d = await paymentDevnet();
  behind = await flakyRpc(d.rpcUrl, 'headBehind');
});
test.after.always(async () => {
  await behind?.close();
  await d?.stop();
});

test('CONFIRMATION is block by default, preconfirmed when asked; anything else is a gathered problem', (t) => {
  t.is(loadConfig({}).confirmation, 'block');
  t.is(loadConfig({ CONFIRMATION: 'block' }).confirmation, 'block');
  t.is(loadConfig({ CONFIRMATION: 'preconfirmed' }).confirmation, 'preconfirmed');
  const err = t.throws(() => loadConfig({ CONFIRMATION: 'soft', CHAIN_BLOCK_MS: '0' }));
  t.true(err instanceof ConfigError);
  t.deepEqual((err as ConfigError).problems.map((p) => p.variable).sort(), ['CHAIN_BLOCK_MS', 'CONFIRMATION']);
});

test.serial('a receipt ahead of the sealed head: block waits for the block, preconfirmed takes it', async (t) => {
  // The newest block's transaction: sealed on the devnet, preconfirmed as the proxy tells it.
  const account = privateKeyToAccount(d.relayer.privateKey);
  const wallet = createWalletClient({ account, chain: devnetChain(d.rpcUrl), transport: http(d.rpcUrl) });
  const hash = await wallet.sendTransaction({ to: account.address, value: 0n });
  const direct = createPublicClient({ chain: chainAt(d.rpcUrl, 'eip155:8453'), transport: http(d.rpcUrl) });
  await direct.waitForTransactionReceipt({ hash });
  const pub = createPublicClient({ chain: chainAt(behind.url, 'eip155:8453'), transport: http(behind.url) });

  t.is((await receiptAt(direct, hash, 'block'))?.level, 'block', 'a sealed receipt counts at either level');
  t.is(await receiptAt(pub, hash, 'block'), undefined, 'block: a preconfirmed receipt is not mined yet');
  t.is(await receiptAt(pub, hash), undefined, 'block is the default');
  const pre = await receiptAt(pub, hash, 'preconfirmed');
  t.is(pre?.level, 'preconfirmed');
  t.is(pre?.receipt.transactionHash, hash);

  const started = Date.now();
  t.is(await firstReceiptAt(pub, [hash], 300, 'block'), undefined, 'block keeps waiting while it is unsealed');
  t.true(Date.now() - started >= 300);
  t.is((await firstReceiptAt(pub, [hash], 300, 'preconfirmed'))?.level, 'preconfirmed');
});

test.serial('preconfirmed: the settle answers on the preconfirmation and the transfer read says so', async (t) => {
  const self = d.selfSettlement({ rpcUrl: behind.url, timing: { confirmation: 'preconfirmed' } });
  const { req, nonce, payer, payload } = await d.payment(0);
  const outcome = await self.settle(payload as never, req as never);
  t.is(outcome.kind, 'success');
  const transaction = (outcome as { transaction: Hex }).transaction;
  const read = await self.transactionOutcome({ transaction, payer: payer, nonce });
  t.is(read.state, 'mined');
  t.is(read.state === 'mined' ? read.transfer?.confirmation : undefined, 'preconfirmed');

  // The same transfer read from the node directly (its block sealed) carries no preconfirmation.
  const sealed = d.selfSettlement({ timing: { confirmation: 'preconfirmed' } });
  const again = await sealed.transactionOutcome({ transaction, payer: payer, nonce });
  t.is(again.state === 'mined' ? again.transfer?.confirmation : 'not mined', undefined);
});
