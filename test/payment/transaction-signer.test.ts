import test from 'ava';
import { base } from 'viem/chains';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { keccak256, parseTransaction, recoverTransactionAddress, toHex, type TransactionSerializable } from 'viem';
import { transactionSigner } from '../../src/payment/settlement/transaction-signer.js';

// The WebAssembly signer must sign exactly what viem's local account signs: same bytes (RFC 6979, low-s),
// with Base's own serializer and with viem's default one.

test('the same signed bytes as viem for 40 random keys and transactions, with and without Base', async (t) => {
  for (let i = 0; i < 40; i++) {
    const key = generatePrivateKey();
    const account = privateKeyToAccount(key);
    const tx: TransactionSerializable = {
      chainId: 8453,
      type: 'eip1559',
      to: account.address,
      data: keccak256(toHex(i)),
      gas: 70_000n + BigInt(i),
      nonce: i,
      maxFeePerGas: 1_000_000_000n + BigInt(i * 7),
      maxPriorityFeePerGas: 1_000_000n,
    };
    const sign = transactionSigner(key);
    const serializer = base.serializers!.transaction!;
    const ours = await sign(tx, serializer);
    t.is(ours, await account.signTransaction(tx, { serializer }));
    t.is(await sign(tx), await account.signTransaction(tx));
    t.is(await recoverTransactionAddress({ serializedTransaction: ours as never }), account.address);
    t.is(parseTransaction(ours).nonce, i);
  }
});

test('a key that is not 32 bytes is refused', (t) => {
  t.throws(() => transactionSigner('0x1234'), { instanceOf: RangeError });
});
