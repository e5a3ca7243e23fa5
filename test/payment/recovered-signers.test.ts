import test from 'ava';
import { randomBytes } from 'node:crypto';
import { secp256k1 } from '@noble/curves/secp256k1';
import { bytesToHex, keccak256, recoverAddress, toHex, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { recoverAddressOf } from '../../src/payment/recovered-signers.js';

// The WebAssembly recovery must answer exactly what viem's recoverAddress answers: the same address for
// every signature viem recovers (low-s and high-s, v as 0/1 or 27/28), and a refusal wherever viem refuses.

const N = secp256k1.CURVE.n;

/** viem's answer, or 'refused'. */
const viemSays = (digest: Hex, signature: Hex) =>
  recoverAddress({ hash: digest, signature }).catch(() => 'refused' as const);
const oursSays = (digest: Hex, signature: Hex) => {
  try {
    return recoverAddressOf(digest, signature);
  } catch {
    return 'refused' as const;
  }
};

const sigHex = (r: bigint, s: bigint, v: number): Hex =>
  `0x${r.toString(16).padStart(64, '0')}${s.toString(16).padStart(64, '0')}${v.toString(16).padStart(2, '0')}`;

test('60 random signatures, low-s and high-s, v as 27/28 or 0/1: the same address as viem', async (t) => {
  for (let i = 0; i < 60; i++) {
    const key = generatePrivateKey();
    const digest = keccak256(toHex(randomBytes(40)));
    const sig = secp256k1.sign(digest.slice(2), key.slice(2));
    const expected = privateKeyToAccount(key).address;
    const high = N - sig.s; // the same signature's malleable twin recovers with the other parity
    for (const [s, bit] of [
      [sig.s, sig.recovery],
      [high, 1 - sig.recovery],
    ] as const) {
      for (const v of [bit, bit + 27]) {
        const signature = sigHex(sig.r, s, v);
        t.is(oursSays(digest, signature), expected);
        t.is(await viemSays(digest, signature), expected);
      }
    }
  }
});

test('malformed signatures are refused by both: bad v, zero or out-of-range r and s, wrong lengths', async (t) => {
  const digest = keccak256('0x01');
  const sig = secp256k1.sign(digest.slice(2), generatePrivateKey().slice(2));
  const cases: Hex[] = [
    sigHex(sig.r, sig.s, 2),
    sigHex(sig.r, sig.s, 29),
    sigHex(0n, sig.s, 27),
    sigHex(sig.r, 0n, 27),
    sigHex(N, sig.s, 27),
    sigHex(sig.r, N + 1n, 28),
    bytesToHex(randomBytes(64)),
    bytesToHex(randomBytes(66)),
  ];
  for (const signature of cases) {
    t.is(oursSays(digest, signature), 'refused', signature);
    t.is(await viemSays(digest, signature), 'refused', signature);
  }
});

test('a digest that is not 32 bytes is refused', (t) => {
  const sig = secp256k1.sign('11'.repeat(32), generatePrivateKey().slice(2));
  t.is(oursSays('0x1111', sigHex(sig.r, sig.s, 27)), 'refused');
});
