import { signRecoverable } from 'tiny-secp256k1';
import {
  bytesToHex,
  hexToBytes,
  keccak256,
  serializeTransaction,
  type Hex,
  type SerializeTransactionFn,
  type TransactionSerializable,
} from 'viem';

// The relayer's transaction signature with libsecp256k1 compiled to WebAssembly (tiny-secp256k1), where
// viem's local account signs with pure-JS @noble/curves. Both are RFC 6979 deterministic and low-s, so
// the signed bytes are the same (test/payment/transaction-signer.test.ts); this one costs less of the event
// loop, inside the one section each relayer account runs one at a time (docs/decisions.md, "A paid
// redemption's CPU").

export type TransactionSigner = (
  transaction: TransactionSerializable,
  serializer?: SerializeTransactionFn<TransactionSerializable>,
) => Promise<Hex>;

export function transactionSigner(privateKey: Hex): TransactionSigner {
  const key = hexToBytes(privateKey);
  if (key.length !== 32) throw new RangeError('a secp256k1 private key is 32 bytes');
  return async (transaction, serializer = serializeTransaction) => {
    const hash = keccak256(await serializer(transaction), 'bytes');
    const { signature, recoveryId } = signRecoverable(hash, key);
    const yParity = recoveryId === 1 ? 1 : 0;
    return serializer(transaction, {
      r: bytesToHex(signature.subarray(0, 32)),
      s: bytesToHex(signature.subarray(32, 64)),
      yParity,
      v: yParity === 1 ? 28n : 27n,
    });
  };
}
