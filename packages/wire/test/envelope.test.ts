import test from 'ava';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { envelopeSigner } from '../src/evidence/envelope.js';
import { keyIdOf } from '../src/evidence/public-key.js';
import { nobleByteSigner } from '../src/evidence/sign-noble.js';
import { verifyEnvelope, verifySignature } from '../src/evidence/verify.js';

// The evidence envelope (service-evidence-v1): signed over JCS(payload) with Ed25519, verified by what a buyer
// runs. The wire's own signer (noble) signs here; test/evidence/sign-verify.test.ts holds the service's
// node:crypto signer to it, byte for byte.

const seed = hexToBytes('4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb');
const payload = {
  type: 'evidence',
  purchase_id: 'a'.repeat(64),
  legal_clearance: false,
  resources: [
    { resource: 'https://publisher.example/story', classification: 'UNKNOWN', reasons: ['silence', 'Grüße €'] },
  ],
  key_id: keyIdOf(nobleByteSigner(seed).publicKey),
};

test('the signature is over JCS(payload): key order in the payload object does not matter', (t) => {
  const signer = envelopeSigner(nobleByteSigner(seed));
  const reordered = Object.fromEntries(Object.entries(payload).reverse());
  t.is(signer.sign(reordered).signature, signer.sign(payload).signature);
  t.true(verifyEnvelope({ ...signer.sign(payload), payload: reordered }, signer.publicKey));
});

test('tampering with any payload byte, the signature, or the format fails verification', (t) => {
  const signer = envelopeSigner(nobleByteSigner(seed));
  const env = signer.sign(payload);
  t.true(verifyEnvelope(env, signer.publicKey));
  t.false(verifyEnvelope({ ...env, payload: { ...payload, legal_clearance: true } }, signer.publicKey));
  t.false(verifyEnvelope({ ...env, payload: { ...payload, purchase_id: 'b' + 'a'.repeat(63) } }, signer.publicKey));
  t.false(verifyEnvelope({ ...env, payload: { ...payload, extra: null } }, signer.publicKey));
  const flipped = (env.signature[0] === '0' ? '1' : '0') + env.signature.slice(1);
  t.false(verifyEnvelope({ ...env, signature: flipped }, signer.publicKey));
  t.false(verifyEnvelope({ ...env, signature: env.signature.toUpperCase() }, signer.publicKey)); // 128 *lowercase* hex
  t.false(verifyEnvelope({ ...env, format: 'service-evidence-v2' }, signer.publicKey));
  t.false(verifyEnvelope({ ...env, algorithm: 'EdDSA' }, signer.publicKey));
});

test('a wrong key fails; a payload naming another key id fails even with the signing key', (t) => {
  const signer = envelopeSigner(nobleByteSigner(seed));
  const other = envelopeSigner(nobleByteSigner(new Uint8Array(32).fill(7)));
  t.false(verifyEnvelope(signer.sign(payload), other.publicKey));
  const claimsOther = signer.sign({ ...payload, key_id: other.keyId });
  t.false(verifyEnvelope(claimsOther, signer.publicKey));
  const { key_id: _k, ...noKeyId } = payload;
  t.true(verifyEnvelope(signer.sign(noKeyId), signer.publicKey));
});

test('garbage never throws, it just does not verify', (t) => {
  const pub = bytesToHex(nobleByteSigner(seed).publicKey);
  for (const bad of [
    null,
    undefined,
    42,
    'x',
    [],
    {},
    { algorithm: 'Ed25519', format: 'service-evidence-v1', payload: null, signature: '0'.repeat(128) },
  ]) {
    t.false(verifyEnvelope(bad, pub));
  }
  t.false(verifyEnvelope(envelopeSigner(nobleByteSigner(seed)).sign(payload), 'not-hex'));
  t.false(verifySignature(new Uint8Array(1), '0'.repeat(128), pub));
});
