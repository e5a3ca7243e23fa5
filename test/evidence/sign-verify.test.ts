import test from 'ava';
import { isRight } from 'fp-ts/lib/Either.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { createSigner, envelopeSigner, SignedEnvelope } from '@rights-preflight/wire/evidence/envelope.js';
import { nodeByteSigner } from '../../src/evidence/sign-node.js';
import { nobleByteSigner } from '@rights-preflight/wire/evidence/sign-noble.js';
import { verifyEnvelope, verifySignature } from '@rights-preflight/wire/evidence/verify.js';
import { keyIdOf } from '@rights-preflight/wire/evidence/public-key.js';

// The service signs evidence with node:crypto (src/evidence/sign-node.ts), the wire and the buyer with noble:
// both give the same key, signature and envelope. The envelope's own rules are packages/wire/test/envelope.test.ts.

const seed = hexToBytes('4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb');
const payload = {
  type: 'evidence',
  purchase_id: 'a'.repeat(64),
  resources: [
    { resource: 'https://publisher.example/story', classification: 'UNKNOWN', reasons: ['silence', 'Grüße €'] },
  ],
  key_id: keyIdOf(nodeByteSigner(seed).publicKey),
};

test('RFC 8032 §7.1 test 1: node:crypto (via the PKCS#8 prefix) and noble derive the key and signature', (t) => {
  const rfcSeed = hexToBytes('9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60');
  const expectedPub = 'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a';
  const expectedSig =
    'e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e06522490155' +
    '5fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b';
  for (const signer of [nodeByteSigner(rfcSeed), nobleByteSigner(rfcSeed)]) {
    t.is(bytesToHex(signer.publicKey), expectedPub);
    t.is(bytesToHex(signer.signBytes(new Uint8Array(0))), expectedSig);
  }
  t.true(verifySignature(new Uint8Array(0), expectedSig, expectedPub));
});

test('both implementations give the same envelope (Ed25519 is deterministic) and it verifies', (t) => {
  const a = envelopeSigner(nodeByteSigner(seed)).sign(payload);
  const b = envelopeSigner(nobleByteSigner(seed)).sign(payload);
  t.deepEqual(a, b);
  t.regex(a.signature, /^[0-9a-f]{128}$/);
  t.is(a.algorithm, 'Ed25519');
  t.is(a.format, 'service-evidence-v1');
  t.true(isRight(SignedEnvelope.decode(a)));
  t.true(verifyEnvelope(a, bytesToHex(nodeByteSigner(seed).publicKey)));
});

test("createSigner (the money path's deps.sign) signs like the EvidenceSigner", (t) => {
  t.deepEqual(createSigner(nodeByteSigner(seed))(payload), envelopeSigner(nobleByteSigner(seed)).sign(payload));
});
