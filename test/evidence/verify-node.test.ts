import test from 'ava';
import fc from 'fast-check';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { nodeByteSigner } from '../../src/evidence/sign-node.js';
import { nodeSignatureCheck } from '../../src/evidence/verify-node.js';
import { verifySignature } from '@rights-preflight/wire/evidence/verify.js';

// The service checks its own envelopes natively (src/evidence/verify-node.ts) where the buyer checks them
// portably (@noble, strict RFC 8032): both must accept and refuse exactly the same signatures.

const signer = nodeByteSigner(hexToBytes('4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb'));
const publicKeyHex = bytesToHex(signer.publicKey);
const L = 2n ** 252n + 27742317777372353535851937790883648493n;

test('RFC 8032 §7.1 test 1 verifies with both checks; any flipped byte of the signature fails both', (t) => {
  const pub = 'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a';
  const sig =
    'e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e06522490155' +
    '5fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b';
  const empty = new Uint8Array(0);
  t.true(nodeSignatureCheck(empty, sig, pub));
  t.true(verifySignature(empty, sig, pub));
  for (let i = 0; i < 64; i++) {
    const bad =
      sig.slice(0, 2 * i) +
      ((Number.parseInt(sig.slice(2 * i, 2 * i + 2), 16) ^ 1) & 0xff).toString(16).padStart(2, '0') +
      sig.slice(2 * i + 2);
    t.false(nodeSignatureCheck(empty, bad, pub), `byte ${i}`);
    t.false(verifySignature(empty, bad, pub), `byte ${i}`);
  }
});

test('the native and the portable check agree on generated messages, tampered messages, keys and signatures', (t) => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 200 }), fc.integer({ min: 0, max: 4 }), (message, tamper) => {
      let sig = bytesToHex(signer.signBytes(message));
      let msg = message;
      let key = publicKeyHex;
      if (tamper === 1 && msg.length > 0) msg = Uint8Array.from(msg, (b, i) => (i === 0 ? b ^ 0x80 : b));
      if (tamper === 2) key = bytesToHex(nodeByteSigner(new Uint8Array(32).fill(7)).publicKey);
      if (tamper === 3) sig = sig.toUpperCase(); // not the lower-case hex the envelope format requires
      if (tamper === 4) {
        // S + L: the same point equation, a non-canonical encoding strict RFC 8032 refuses.
        const s = BigInt(`0x${bytesToHex(hexToBytes(sig.slice(64)).reverse())}`) + L;
        const le = hexToBytes(s.toString(16).padStart(64, '0')).reverse();
        sig = sig.slice(0, 64) + bytesToHex(le);
      }
      const native = nodeSignatureCheck(msg, sig, key);
      const portable = verifySignature(msg, sig, key);
      if (tamper === 0) t.true(native);
      if (tamper >= 2) t.false(native);
      return native === portable;
    }),
    { numRuns: 200 },
  );
});

test('malformed input is false, never a throw', (t) => {
  for (const [sig, key] of [
    ['zz', publicKeyHex],
    ['a'.repeat(128), 'nothex'],
    ['a'.repeat(128), 'a'.repeat(62)],
    ['0'.repeat(128), '0'.repeat(64)],
  ] as const)
    t.false(nodeSignatureCheck(new Uint8Array(1), sig, key));
});
