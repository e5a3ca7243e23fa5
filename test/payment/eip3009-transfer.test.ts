import test from 'ava';
import { randomBytes } from 'node:crypto';
import { eip3009ABI } from '@x402/evm';
import { bytesToHex, encodeFunctionData, getAddress, parseSignature, serializeErc6492Signature, type Hex } from 'viem';
import { transferWithAuthorizationCall } from '../../src/payment/settlement/eip3009-transfer.js';

// The calldata built from the selectors resolved once must be encodeFunctionData's, for both overloads.

const address = (): Hex => bytesToHex(randomBytes(20));
const authorization = () => ({
  from: address(),
  to: address(),
  value: BigInt(bytesToHex(randomBytes(8))).toString(),
  validAfter: '0',
  validBefore: BigInt(bytesToHex(randomBytes(5))).toString(),
  nonce: bytesToHex(randomBytes(32)),
});
const args = (a: ReturnType<typeof authorization>) =>
  [
    getAddress(a.from),
    getAddress(a.to),
    BigInt(a.value),
    BigInt(a.validAfter),
    BigInt(a.validBefore),
    a.nonce,
  ] as const;

test('a 65-byte signature: the (v, r, s) overload, byte for byte what encodeFunctionData writes', (t) => {
  for (let i = 0; i < 100; i++) {
    const a = authorization();
    const signature = `${bytesToHex(randomBytes(64))}${i % 2 ? '1b' : '1c'}` as Hex;
    const { r, s, v } = parseSignature(signature);
    const expected = encodeFunctionData({
      abi: eip3009ABI,
      functionName: 'transferWithAuthorization',
      args: [...args(a), Number(v), r, s],
    });
    t.is(transferWithAuthorizationCall(a, signature), expected);
  }
});

test("a smart wallet's signature (any other length, or ERC-6492 wrapped): the bytes overload", (t) => {
  for (const length of [64, 66, 130, 200]) {
    const a = authorization();
    const signature = bytesToHex(randomBytes(length));
    const expected = encodeFunctionData({
      abi: eip3009ABI,
      functionName: 'transferWithAuthorization',
      args: [...args(a), signature],
    });
    t.is(transferWithAuthorizationCall(a, signature), expected);
    const wrapped = serializeErc6492Signature({ address: address(), data: '0x1234', signature });
    t.is(transferWithAuthorizationCall(a, wrapped), expected, 'the wrapped signature is unwrapped');
  }
});
