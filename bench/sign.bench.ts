// npm run bench:sign — Ed25519 for evidence envelopes: node:crypto (KeyObject from the seed via the
// PKCS#8 DER prefix) vs @noble/ed25519 (sync API, @noble/hashes SHA-512), signing and verifying a
// typical ~2 KB canonical payload, plus the whole envelope (JCS + sign + hex). The faster signer is
// the service's (src/evidence/keys.ts); verification stays on noble for portability either way.
// Prints ops/s and writes bench/results/sign.json.
import { createPublicKey, verify as nodeVerify } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bytesToHex } from '@noble/hashes/utils.js';
import { canonicalBytes } from '@rights-preflight/wire/evidence/canonical-json.js';
import { envelopeSigner } from '@rights-preflight/wire/evidence/envelope.js';
import { nodeByteSigner } from '../src/evidence/sign-node.js';
import { nobleByteSigner } from '@rights-preflight/wire/evidence/sign-noble.js';
import { verifySignature } from '@rights-preflight/wire/evidence/verify.js';
import { ed } from '@rights-preflight/wire/evidence/noble-sync.js';

const MIN_SECONDS = Number(process.env.BENCH_SECONDS ?? 1.5);

/** A delivery-sized evidence payload: one resource with its observations, about 2 KB as JCS. */
function payloadOfAbout(targetBytes: number): Record<string, unknown> {
  const observations: Record<string, unknown>[] = [];
  const payload = {
    type: 'evidence',
    format_version: 1,
    sku: 'rights.preflight.v1',
    purchase_id: 'c'.repeat(64),
    input_sha256: 'd'.repeat(64),
    legal_clearance: false,
    observed_at: '2026-11-22T12:00:00.000Z',
    resources: [
      {
        resource: 'https://publisher.example/news/2026/11/story',
        purposes: ['ai-input'],
        user_class: 'commercial',
        geo: null,
        classification: 'PERMITTED_BY_OBSERVED_DECLARATION',
        decision: 'ALLOW_DECLARED',
        matched_scope: '/news/*',
        reasons: ['usage-permits', 'payment-free'],
        observations,
      },
    ],
    key_id: '0123456789abcdef',
  };
  let i = 0;
  while (canonicalBytes(payload).length < targetBytes - 170) {
    observations.push({
      channel: ['robots', 'link-header', 'html-link'][i % 3],
      url: `https://publisher.example/license-${i}.xml`,
      status: 200,
      sha256: String(i % 10).repeat(64),
      fetched_at: '2026-11-22T11:59:59.000Z',
    });
    i++;
  }
  return payload;
}

interface Row {
  implementation: string;
  operation: string;
  opsPerSec: number;
  iterations: number;
  microsPerOp: number;
}

function measure(implementation: string, operation: string, once: () => unknown): Row {
  for (let i = 0; i < 200; i++) once(); // warm-up (JIT, noble precomputes)
  let iterations = 0;
  const t0 = process.hrtime.bigint();
  let elapsed = 0;
  while (elapsed < MIN_SECONDS) {
    for (let i = 0; i < 50; i++) once();
    iterations += 50;
    elapsed = Number(process.hrtime.bigint() - t0) / 1e9;
  }
  return {
    implementation,
    operation,
    iterations,
    opsPerSec: Math.round(iterations / elapsed),
    microsPerOp: Math.round((elapsed / iterations) * 1e7) / 10,
  };
}

const seed = new Uint8Array(32).map((_, i) => (i * 37 + 11) & 0xff);
const payload = payloadOfAbout(2048);
const message = canonicalBytes(payload);
const node = nodeByteSigner(seed);
const noble = nobleByteSigner(seed);
const signature = node.signBytes(message);
if (bytesToHex(signature) !== bytesToHex(noble.signBytes(message)))
  throw new Error('implementations disagree: not benchmarking');
const pubHex = bytesToHex(node.publicKey);
const spki = Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), Buffer.from(node.publicKey)]);
const nodePublic = createPublicKey({ key: spki, format: 'der', type: 'spki' });
const nodeEnvelope = envelopeSigner(node);
const nobleEnvelope = envelopeSigner(noble);

const rows: Row[] = [
  measure('node:crypto', 'sign (bytes)', () => node.signBytes(message)),
  measure('@noble/ed25519', 'sign (bytes)', () => noble.signBytes(message)),
  measure('node:crypto', 'envelope (JCS + sign + hex)', () => nodeEnvelope.sign(payload)),
  measure('@noble/ed25519', 'envelope (JCS + sign + hex)', () => nobleEnvelope.sign(payload)),
  measure('node:crypto', 'verify (bytes)', () => {
    if (!nodeVerify(null, message, nodePublic, signature)) throw new Error('verify');
  }),
  measure('@noble/ed25519', 'verify (bytes)', () => {
    if (!ed.verify(signature, message, node.publicKey, { zip215: false })) throw new Error('verify');
  }),
  measure('@noble/ed25519', 'verifySignature (hex in, strict)', () => {
    if (!verifySignature(message, bytesToHex(signature), pubHex)) throw new Error('verify');
  }),
];

const rate = (impl: string, op: string) => rows.find((r) => r.implementation === impl && r.operation === op)!.opsPerSec;
const chosen =
  rate('node:crypto', 'envelope (JCS + sign + hex)') >= rate('@noble/ed25519', 'envelope (JCS + sign + hex)')
    ? 'node:crypto'
    : '@noble/ed25519';

console.log(
  `Ed25519 over a ${message.length}-byte canonical payload (${os.cpus()[0]?.model ?? 'cpu'}, node ${process.version})`,
);
console.table(
  rows.map((r) => ({
    implementation: r.implementation,
    operation: r.operation,
    'ops/s': r.opsPerSec,
    'µs/op': r.microsPerOp,
    iterations: r.iterations,
  })),
);
console.log(`faster service signer: ${chosen}`);

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
await mkdir(path.join(root, 'bench/results'), { recursive: true });
await writeFile(
  path.join(root, 'bench/results/sign.json'),
  JSON.stringify(
    {
      benchmark: 'ed25519.sign+verify',
      measured_at: new Date().toISOString(),
      node: process.version,
      cpu: os.cpus()[0]?.model ?? 'unknown',
      payload_bytes: message.length,
      min_seconds_per_case: MIN_SECONDS,
      chosen_signer: chosen,
      results: rows,
    },
    null,
    2,
  ) + '\n',
);
console.log('wrote bench/results/sign.json');
