// `npx tsx test/vectors/generate.ts` rewrites the test vectors (packages/wire/vectors/README.md says what each file
// holds). Every output is made by the service's own code: its evidence signer and money-path builders
// (buildOffer, buildDelivery), its AES-GCM sealer, the shared wire leaf it signs and verifies with, and
// viem for secp256k1 signatures. Keys, clocks and IVs are fixed, so the files are a pure function of this
// module: test/vectors/vectors.test.ts regenerates them and compares byte for byte.
import { writeFile } from 'node:fs/promises';
import { VECTORS_DIR } from './checks.js';
import { fileURLToPath } from 'node:url';
import { getAddress } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { authorizationTypes } from '@x402/evm';
import { formatSIWEMessage } from '@x402/extensions/sign-in-with-x';
import { buyerCheckpointAad, checkOffer, type ExpectedSettlement, verifyPaidReport } from '@rights-preflight/buyer';
import { hexToBytes } from '@noble/hashes/utils.js';
import { buildOffer } from '../../src/money-path/offer.js';
import { buildDelivery } from '../../src/money-path/deliver.js';
import type { MoneyPathDeps } from '../../src/money-path/deps.js';
import type { PurchaseState, SettledState } from '../../streams/purchase/index.js';
import { singleReportProduct } from '../../src/products/single-report/product.js';
import { ingestionGateProduct } from '../../src/products/ingestion-gate/product.js';
import { evidenceKeyFromSeed } from '../../src/evidence/keys.js';
import { sealNode } from '../../src/crypto/aes-gcm-node.js';
import { createSigner } from '@rights-preflight/wire/evidence/envelope.js';
import { canonicalJson } from '@rights-preflight/wire/evidence/canonical-json.js';
import { sha256Hex } from '@rights-preflight/wire/evidence/digest.js';
import { authorizationDigest } from '@rights-preflight/wire/payment/authorization-digest.js';
import { inputSha256 } from '@rights-preflight/wire/payment/binding.js';
import { purchaseId } from '@rights-preflight/wire/contract/purchase-id.js';
import { gateInput } from '@rights-preflight/wire/ingestion-gate/gate-input.js';
import { siwxChallenge } from '@rights-preflight/wire/ingestion-gate/siwx-challenge.js';
import { checkpointAad, type SealedBox } from '@rights-preflight/wire/crypto/aes-gcm.js';
import { toBase64url, utf8ToBase64 } from '@rights-preflight/wire/crypto/base64url.js';
import { GATE_SKU } from '@rights-preflight/wire/contract/ingestion-gate.js';
import { SINGLE_REPORT_SKU } from '@rights-preflight/wire/contract/common.js';
import { CHECK_MANIFEST_FORMAT, type ManifestLine } from '@rights-preflight/wire/contract/check-manifest.js';
import { encodePaymentRequired } from '@rights-preflight/wire/payment/x402-headers.js';

// ---------------------------------------------------------------------------------------------
// The fixed world every vector lives in.

export const NOW = '2026-11-22T12:00:00.000Z';
const now = new Date(NOW);
/** The evidence key's 32-byte Ed25519 seed (0x11 × 32). */
const EVIDENCE_SEED = new Uint8Array(32).fill(0x11);
const evidenceKey = evidenceKeyFromSeed(EVIDENCE_SEED);
/** Hardhat's second well-known account: a buyer key anyone may reproduce. */
const BUYER_KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d' as const;
const buyer = privateKeyToAccount(BUYER_KEY);
const BASE_URL = 'https://rights.example';
const GATE_URL = `${BASE_URL}/v1/rights/ingestion-gate`;
const TERMS = {
  network: 'eip155:84532',
  asset: '0x036CbD53842c5426634e7929541eC2318f3dCF7e',
  payTo: getAddress('0x5a1f3e2c9b8d7e6f4a0b1c2d3e4f5a6b7c8d9e0f'),
  eip712: { name: 'USDC', version: '2' },
  maxTimeoutSeconds: 300,
} as const;
const CHAIN_ID = 84532;

const deps = {
  sign: createSigner(evidenceKey),
  evidenceKeyId: evidenceKey.keyId,
  baseUrl: BASE_URL,
  now: () => now,
  terms: TERMS,
  products: { [SINGLE_REPORT_SKU]: singleReportProduct, [GATE_SKU]: ingestionGateProduct },
} as unknown as MoneyPathDeps;

const common = {
  now: NOW,
  evidence_public_key: evidenceKey.publicKeyHex,
  evidence_key_id: evidenceKey.keyId,
};

const json = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;

// ---------------------------------------------------------------------------------------------
// canonical-json.json: RFC 8785 texts, including the corners another language gets wrong.

const canonicalCases: { name: string; value: unknown }[] = [
  { name: 'keys sorted, no whitespace', value: { b: 1, a: [true, false, null], c: { z: 'z', y: 'y' } } },
  {
    name: 'numbers in ECMAScript form',
    value: { big: 1e21, small: 1e-7, frac: 0.5, neg: -12.25, int: 333333333, tiny: 5e-324, round: 100 },
  },
  {
    name: 'escapes: only the JSON ones, solidus and U+2028 left alone',
    value: ['"\\/\b\f\n\r\t', '\u0000\u001f', '\u2028'],
  },
  { name: 'non-ASCII as UTF-8, not escaped', value: { text: 'ünïcödé €', emoji: '😀', cjk: '权利' } },
  {
    name: 'keys sorted by UTF-16 code units (the astral key sorts before U+FB01)',
    value: { '\ufb01': 1, '😀': 2, é: 3, Z: 4, a: 5, '1': 6, '': 7 },
  },
  {
    name: 'a gate descriptor',
    value: gateInput({ resources: ['https://pub.example/a', 'https://pub.example/b'], purpose: 'rag-ingestion' })
      .descriptor,
  },
];

function canonicalVectors() {
  return {
    description:
      'RFC 8785 JSON canonicalization (JCS), the form every digest and signature of the service covers. ' +
      'output.jcs is the canonical text of input.value; output.sha256 is sha256 hex of its UTF-8 bytes.',
    vectors: canonicalCases.map((c) => {
      const jcs = canonicalJson(c.value);
      return { name: c.name, input: { value: c.value }, output: { jcs, sha256: sha256Hex(jcs) } };
    }),
  };
}

// ---------------------------------------------------------------------------------------------
// eip3009.json: the EIP-712 digest of a TransferWithAuthorization and the buyer's signature over it.

async function eip3009Vectors() {
  const cases = [
    {
      name: 'a gate payment on Base Sepolia USDC',
      message: {
        from: buyer.address,
        to: TERMS.payTo,
        value: '80000',
        validAfter: '0',
        validBefore: String(Math.floor(now.getTime() / 1000) + 300),
        nonce: '0x616371707562763197539cd3f45650577c0819e49a48125c1b336a2a6ec4430e',
      },
      domain: { name: 'USDC', version: '2', chainId: CHAIN_ID, verifyingContract: TERMS.asset },
    },
    {
      name: 'Base mainnet USD Coin domain, a large value',
      message: {
        from: buyer.address,
        to: '0x000000000000000000000000000000000000bEEF',
        value: '1000000000000',
        validAfter: '1763812800',
        validBefore: '1763813100',
        nonce: '0x61637170756276313117468ab1425bd7509faccda10142fbc8c20734d85b7b3b',
      },
      domain: {
        name: 'USD Coin',
        version: '2',
        chainId: 8453,
        verifyingContract: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
      },
    },
  ] as const;
  const vectors = [];
  for (const c of cases) {
    const digest = authorizationDigest(c.message, { ...c.domain, asset: c.domain.verifyingContract });
    const signature = await buyer.signTypedData({
      domain: c.domain,
      types: authorizationTypes,
      primaryType: 'TransferWithAuthorization',
      message: {
        ...c.message,
        value: BigInt(c.message.value),
        validAfter: BigInt(c.message.validAfter),
        validBefore: BigInt(c.message.validBefore),
      },
    });
    vectors.push({
      name: c.name,
      input: { domain: c.domain, message: c.message, private_key: BUYER_KEY },
      output: { digest, signature, signer: buyer.address },
    });
  }
  return {
    description:
      'EIP-3009 TransferWithAuthorization under EIP-712 (domain: name, version, chainId, verifyingContract). ' +
      'output.digest = keccak256(0x1901 ‖ domainSeparator ‖ hashStruct(message)); output.signature = r ‖ s ‖ v ' +
      '(v = 27 + recovery id), RFC 6979 deterministic, by input.private_key; output.signer is its address.',
    vectors,
  };
}

// ---------------------------------------------------------------------------------------------
// siwx.json: the gate's sign-in (profile service-siwx-payment-v1), its message and signature.

async function siwxVectors() {
  const question = gateInput({
    resources: ['https://pub.example/articles/one', 'https://pub.example/articles/two'],
    purpose: 'rag-ingestion',
  });
  const cases = [
    { name: 'a two-URL gate request', key: 'bulk-check-key-0001', input_sha256: question.input_sha256 },
    {
      name: 'another key, same input: another nonce',
      key: 'X-Service-Request: ä/€ key',
      input_sha256: question.input_sha256,
    },
  ];
  const vectors = [];
  for (const c of cases) {
    const binding = { gateUrl: GATE_URL, key: c.key, inputSha256: c.input_sha256, network: TERMS.network };
    const challenge = siwxChallenge(binding, NOW);
    // The EIP-4361 text as the service's verifier renders it (the x402 extension's formatter); the buyer's own
    // rendering is held to it (packages/buyer/test/siwe-message.test.ts) and to these vectors (./checks.ts).
    const message = formatSIWEMessage(challenge, buyer.address);
    const signature = await buyer.signMessage({ message });
    const proof = {
      domain: challenge.domain,
      address: buyer.address,
      statement: challenge.statement,
      uri: challenge.uri,
      version: '1',
      chainId: challenge.chainId,
      type: 'eip191',
      nonce: challenge.nonce,
      issuedAt: challenge.issuedAt,
      resources: challenge.resources,
      signatureScheme: 'eip191',
      signature,
    };
    vectors.push({
      name: c.name,
      input: {
        gate_url: GATE_URL,
        key: c.key,
        input_sha256: c.input_sha256,
        network: TERMS.network,
        issued_at: NOW,
        private_key: BUYER_KEY,
      },
      output: { challenge, message, signature, proof, header: utf8ToBase64(JSON.stringify(proof)) },
    });
  }
  return {
    description:
      'SIGN-IN-WITH-X of profile service-siwx-payment-v1 (docs/wire.md §8): every field but the address and ' +
      'issuedAt follows from the request. output.message is the EIP-4361 text, signed with EIP-191 ' +
      '(personal_sign) by input.private_key; output.header is the SIGN-IN-WITH-X header (base64 of JSON(proof)).',
    vectors,
  };
}

// ---------------------------------------------------------------------------------------------
// Two purchases, made by the money path's own builders: a single report (preflight) and a gate call.

const reading = (resource: string, classification: string, decision: string) => ({
  version: 'rsl-reading-v1',
  resource,
  geo: null,
  observed_at: '2026-11-22T11:59:00.000Z',
  declaration_found: true,
  observations: [
    {
      channel: 'robots',
      url: `${new URL(resource).origin}/license.xml`,
      status: 200,
      sha256: sha256Hex(`license of ${new URL(resource).origin}`),
      fetched_at: '2026-11-22T11:59:00.000Z',
    },
  ],
  purposes: ['ai-input', 'ai-index', 'ai-train', 'search', 'rag-ingestion'].map((purpose) => ({
    purpose,
    classification,
    decision,
    tokens: [{ token: purpose === 'rag-ingestion' ? 'ai-input' : purpose, reasons: ['usage-permits'] }],
  })),
});

interface Purchase {
  name: string;
  key: string;
  quoted: Record<string, unknown> & { purchase_id: string; input_sha256: string; price_micro: string };
  /** The binding resource: the report's resource, or the gate URL. */
  resource: string;
}

function singlePurchase(): Purchase {
  const resource = 'https://pub.example/articles/one';
  const input = { sku: SINGLE_REPORT_SKU, resource, purpose: 'ai-input', tier: 'fresh', user_class: 'commercial' };
  const input_sha256 = inputSha256(input);
  const key = 'preflight-request-key-0001';
  const id = purchaseId({ sku: SINGLE_REPORT_SKU, key_sha256: sha256Hex(key), input_sha256 });
  return {
    name: 'single report (preflight)',
    key,
    resource,
    quoted: {
      purchase_id: id,
      sku: SINGLE_REPORT_SKU,
      input,
      input_sha256,
      max_total_micro: '50000',
      price_micro: '20000',
      decision_preview: {
        purpose: 'ai-input',
        classification: 'PERMITTED_BY_OBSERVED_DECLARATION',
        decision: 'ALLOW_DECLARED',
      },
      expires_at: '2026-11-22T12:15:00.000Z',
      claim_sha256: sha256Hex('no claim: a preflight purchase'),
      reading: reading(resource, 'PERMITTED_BY_OBSERVED_DECLARATION', 'ALLOW_DECLARED'),
    },
  };
}

function gatePurchase(): Purchase {
  const resources = ['https://pub.example/articles/one', 'https://pub.example/articles/two'];
  const q = gateInput({ resources, purpose: 'rag-ingestion' });
  const key = 'bulk-check-key-0001';
  const id = purchaseId({ sku: GATE_SKU, key_sha256: sha256Hex(key), input_sha256: q.input_sha256 });
  return {
    name: 'ingestion gate, two resources',
    key,
    resource: GATE_URL,
    quoted: {
      purchase_id: id,
      sku: GATE_SKU,
      input: { sku: GATE_SKU, resource: GATE_URL, ...q.body },
      input_sha256: q.input_sha256,
      max_total_micro: q.price_micro.toString(),
      price_micro: q.price_micro.toString(),
      decision_preview: {
        purpose: 'rag-ingestion',
        classification: 'PROHIBITED_BY_OBSERVED_DECLARATION',
        decision: 'DENY_DECLARED',
      },
      expires_at: '2026-11-22T12:15:00.000Z',
      claim_sha256: sha256Hex('no claim: a gate purchase'),
      reading: {
        version: 'rsl-gate-readings-v1',
        readings: [
          reading(resources[0]!, 'PERMITTED_BY_OBSERVED_DECLARATION', 'ALLOW_DECLARED'),
          reading(resources[1]!, 'PROHIBITED_BY_OBSERVED_DECLARATION', 'DENY_DECLARED'),
        ],
      },
    },
  };
}

const offerOf = (p: Purchase) =>
  buildOffer(deps, p.quoted as unknown as NonNullable<PurchaseState['quoted']>, {
    key: p.key,
    source: 'x-service-request',
  });

function deliveryOf(p: Purchase) {
  const offered = offerOf(p);
  const settled = {
    quoted: p.quoted,
    offered,
    checkpoint: { payer: buyer.address, nonce: offered.nonce, amount: p.quoted.price_micro },
    settled: {
      network: TERMS.network,
      transaction: `0x${sha256Hex(`transaction of ${p.quoted.purchase_id}`)}`,
      payer: buyer.address,
      amount: p.quoted.price_micro,
      block: '7',
    },
  } as unknown as SettledState;
  return { offered, delivered: buildDelivery(deps, settled) };
}

// ---------------------------------------------------------------------------------------------
// offer-receipt.json: the 402 offer a buyer checks before it signs.

/** The buyer's expectation of an offer (offer.ts OfferExpectation), as the vectors spell it. */
const expectationOf = (p: Purchase) => ({
  amount: p.quoted.price_micro,
  max_per_report_micro: '100000',
  purchase_id: p.quoted.purchase_id,
  resource: p.resource,
  input_sha256: p.quoted.input_sha256,
  key: p.key,
});
const pins = { network: TERMS.network, asset: TERMS.asset, recipient: TERMS.payTo };

/** Runs the buyer's check; the code of its refusal, or 'ok'. */
export function offerCheckOutcome(input: OfferInput): string {
  try {
    checkOffer(
      encodePaymentRequired(input.payment_required as never),
      { ...input.pins, evidenceKey: input.evidence_public_key },
      { ...input.expectation, maxPerReportMicro: BigInt(input.expectation.max_per_report_micro) },
      new Date(input.now),
    );
    return 'ok';
  } catch (e) {
    return (e as { code?: string }).code ?? 'THREW';
  }
}

export interface OfferInput {
  payment_required: Record<string, unknown>;
  pins: typeof pins;
  expectation: ReturnType<typeof expectationOf>;
  evidence_public_key: string;
  now: string;
}

const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

function offerVectors() {
  const vectors = [];
  const tampered = [];
  for (const p of [singlePurchase(), gatePurchase()]) {
    const offered = offerOf(p);
    const input: OfferInput = {
      payment_required: clone(offered.payment_required) as Record<string, unknown>,
      pins,
      expectation: expectationOf(p),
      evidence_public_key: evidenceKey.publicKeyHex,
      now: NOW,
    };
    vectors.push({
      name: p.name,
      input,
      output: {
        outcome: offerCheckOutcome(input),
        nonce: offered.nonce,
        purchase_id: p.quoted.purchase_id,
        expires_at: offered.expires_at,
      },
    });
    const edits: [string, (pr: PaymentRequiredShape, i: OfferInput) => void][] = [
      ['amount raised in the payment option', (pr) => void (pr.accepts[0]!.amount = '20001')],
      [
        'recipient changed',
        (pr) => void (pr.accepts[0]!.payTo = getAddress('0x5a1f3e2c9b8d7e6f4a0b1c2d3e4f5a6b7c8d9e0e')),
      ],
      ['receipt payload changed after signing', (pr) => void (receiptOf(pr).payload.amount = '1')],
      ['receipt signature changed', (pr) => void (receiptOf(pr).signature = flipHex(receiptOf(pr).signature))],
      [
        'binding extension names another nonce',
        (pr) => void (bindingOf(pr).nonce = `0x6163717075627631${'0'.repeat(48)}`),
      ],
      ['another binding key', (_pr, i) => void (i.expectation.key = `${i.expectation.key}x`)],
      ['checked after the offer expired', (_pr, i) => void (i.now = '2026-11-22T12:15:00.000Z')],
    ];
    for (const [what, edit] of edits) {
      const t = clone(input);
      edit(t.payment_required as unknown as PaymentRequiredShape, t);
      tampered.push({ name: `${p.name}: ${what}`, input: t, output: { outcome: offerCheckOutcome(t) } });
    }
  }
  return {
    description:
      'The 402 offer (PAYMENT-REQUIRED, decoded) and the checks a buyer makes before signing (docs/wire.md §3). ' +
      'output.outcome is "ok" or the refusal code of the TypeScript buyer (packages/buyer/src/offer.ts).',
    ...common,
    vectors,
    tampered,
  };
}

interface PaymentRequiredShape {
  accepts: { amount: string; payTo: string }[];
  extensions: Record<string, { info: Record<string, unknown> }>;
}
const receiptOf = (pr: PaymentRequiredShape) =>
  pr.extensions['service-offer-receipt']!.info.receipt as { payload: Record<string, unknown>; signature: string };
const bindingOf = (pr: PaymentRequiredShape) =>
  pr.extensions['service-request-binding']!.info as Record<string, unknown>;
/** The first hex digit changed: one byte of the text, still hex. */
const flipHex = (s: string, at = 0) => s.slice(0, at) + (s[at] === '0' ? '1' : '0') + s.slice(at + 1);

// ---------------------------------------------------------------------------------------------
// delivery.json: paid responses, their offer receipts and what a buyer expects; good and tampered.

export interface DeliveryInput {
  response: Record<string, unknown>;
  offer_receipt: unknown;
  binding: { resource: string; input_sha256: string; nonce: string };
  expected: Required<ExpectedSettlement>;
  binding_key: string;
  evidence_public_key: string;
}

export function deliveryOutcome(i: DeliveryInput) {
  return verifyPaidReport(
    {
      response: i.response,
      offerReceipt: i.offer_receipt,
      binding: i.binding,
      expected: i.expected,
      bindingKey: i.binding_key,
    },
    i.evidence_public_key,
  );
}

function deliveryVectors() {
  const vectors = [];
  const tampered = [];
  for (const p of [singlePurchase(), gatePurchase()]) {
    const { offered, delivered } = deliveryOf(p);
    const input: DeliveryInput = {
      response: clone(delivered.response) as unknown as Record<string, unknown>,
      offer_receipt: clone(offered.offer_receipt),
      binding: { resource: p.resource, input_sha256: p.quoted.input_sha256, nonce: offered.nonce },
      expected: {
        network: TERMS.network,
        asset: TERMS.asset,
        pay_to: TERMS.payTo,
        amount: p.quoted.price_micro,
        payer: buyer.address,
        nonce: offered.nonce,
        resource: p.resource,
        input_sha256: p.quoted.input_sha256,
        purchase_id: p.quoted.purchase_id,
      },
      binding_key: p.key,
      evidence_public_key: evidenceKey.publicKeyHex,
    };
    const outcome = deliveryOutcome(input);
    vectors.push({
      name: p.name,
      input,
      output: {
        ...outcome,
        report_sha256: sha256Hex(canonicalJson((input.response as { report: unknown }).report)),
        evidence_sha256: sha256Hex(canonicalJson(input.response.evidence)),
      },
    });
    type R = {
      report: { resources: { classification: string; checkpoint: { signature: string } | null }[] };
      evidence: { payload: { resources: { classification: string }[] }; signature: string };
      delivery_proof: { payload: { settlement: { amount: string; transaction: string } }; signature: string };
      payment_settlement: { transaction: string };
    };
    const edits: [string, (r: R, i: DeliveryInput) => void][] = [
      ['report classification changed', (r) => void (r.report.resources[0]!.classification = 'LICENSE_REQUIRED')],
      [
        'evidence classification changed (signature no longer verifies)',
        (r) => void (r.evidence.payload.resources[0]!.classification = 'LICENSE_REQUIRED'),
      ],
      ['evidence signature changed', (r) => void (r.evidence.signature = flipHex(r.evidence.signature))],
      [
        'delivery proof signature changed',
        (r) => void (r.delivery_proof.signature = flipHex(r.delivery_proof.signature)),
      ],
      [
        'delivery proof amount changed (signature no longer verifies)',
        (r) => void (r.delivery_proof.payload.settlement.amount = '1'),
      ],
      [
        'payment_settlement names another transaction',
        (r) => void (r.payment_settlement.transaction = flipHex(r.payment_settlement.transaction, 2)),
      ],
      [
        'a checkpoint signature changed',
        (r) => {
          const c = r.report.resources[0]!.checkpoint;
          if (c) c.signature = flipHex(c.signature);
        },
      ],
      ['verified with another evidence key', (_r, i) => void (i.evidence_public_key = flipHex(i.evidence_public_key))],
      ['paid by another payer', (_r, i) => void (i.expected.payer = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266')],
      ['another binding key', (_r, i) => void (i.binding_key = `${i.binding_key}x`)],
    ];
    for (const [what, edit] of edits) {
      const t = clone(input);
      edit(t.response as unknown as R, t);
      tampered.push({ name: `${p.name}: ${what}`, input: t, output: deliveryOutcome(t) });
    }
  }
  return {
    description:
      'Paid responses (report, evidence, delivery proof, payment_settlement) with the offer receipt they paid, ' +
      'and the checks a buyer makes before a report counts (packages/buyer/src/verify-report.ts). ' +
      'output.ok true: the report verifies; tampered vectors have ok false and the TypeScript reason.',
    ...common,
    vectors,
    tampered,
  };
}

// ---------------------------------------------------------------------------------------------
// checkpoint-seal.json: AES-256-GCM sealing of checkpointed payments (service) and buyer checkpoints.

export interface SealInput {
  key: string;
  aad: string;
  plaintext: string;
  iv: string;
}

export const sealWithIv = (i: SealInput): SealedBox =>
  sealNode(hexToBytes(i.key), new TextEncoder().encode(i.plaintext), new TextEncoder().encode(i.aad), hexToBytes(i.iv));

function sealVectors() {
  const single = singlePurchase();
  const gate = gatePurchase();
  const cases: { name: string; input: SealInput }[] = [
    {
      name: "the service's checkpointed payment authorization (AAD service-payment-checkpoint-v1:<purchase id>)",
      input: {
        key: '5c'.repeat(32),
        aad: checkpointAad(single.quoted.purchase_id),
        plaintext: JSON.stringify({ x402Version: 2, payload: { signature: `0x${'ab'.repeat(65)}` } }),
        iv: '000102030405060708090a0b',
      },
    },
    {
      name: "the buyer's checkpoint (AAD buyer-checkpoint-v1:<purchase id>)",
      input: {
        key: '42'.repeat(32),
        aad: buyerCheckpointAad(gate.quoted.purchase_id),
        plaintext: JSON.stringify({
          version: 'buyer-checkpoint-v1',
          flow: 'gate',
          purchase_id: gate.quoted.purchase_id,
          key: gate.key,
        }),
        iv: 'f0e0d0c0b0a0908070605040',
      },
    },
    {
      name: 'empty plaintext, non-ASCII AAD',
      input: { key: '00'.repeat(32), aad: 'käse €', plaintext: '', iv: 'ffffffffffffffffffffffff' },
    },
  ];
  const vectors = cases.map((c) => ({ name: c.name, input: c.input, output: { sealed: sealWithIv(c.input) } }));
  const tampered = vectors.flatMap((v) => {
    const { iv, ciphertext } = v.output.sealed;
    const ct = Buffer.from(ciphertext, 'base64url');
    const flip = (at: number) => {
      const b = Buffer.from(ct);
      b[at] = b[at]! ^ 0x01;
      return toBase64url(b);
    };
    const variants: [string, SealInput, SealedBox][] = [
      ['last tag byte changed', v.input, { ...v.output.sealed, ciphertext: flip(ct.length - 1) }],
      ['another AAD', { ...v.input, aad: `${v.input.aad}x` }, v.output.sealed],
      ['another key', { ...v.input, key: flipHex(v.input.key) }, v.output.sealed],
      ['another IV', v.input, { ...v.output.sealed, iv: iv.startsWith('A') ? `B${iv.slice(1)}` : `A${iv.slice(1)}` }],
    ];
    if (ct.length > 16)
      variants.push(['first ciphertext byte changed', v.input, { ...v.output.sealed, ciphertext: flip(0) }]);
    return variants.map(([what, input, sealed]) => ({
      name: `${v.name}: ${what}`,
      input: { key: input.key, aad: input.aad, sealed },
      output: { opens: false },
    }));
  });
  return {
    description:
      'AES-256-GCM sealed boxes {alg:"A256GCM", iv, ciphertext}: iv is the 12-byte IV and ciphertext the encrypted ' +
      'bytes followed by the 16-byte tag, both base64url without padding; key and input.iv are hex, aad and ' +
      'plaintext UTF-8 text. A real seal draws a fresh random IV; the vectors fix it. Tampered boxes never open.',
    vectors,
    tampered,
  };
}

// ---------------------------------------------------------------------------------------------
// manifest.json: lines of a bulk check's manifest (packages/wire/src/contract/check-manifest.ts).

function manifestVectors() {
  const gate = gatePurchase();
  const { delivered } = deliveryOf(gate);
  const transaction = delivered.response.payment_settlement.transaction as `0x${string}`;
  const base = {
    format: CHECK_MANIFEST_FORMAT,
    classification: null,
    decision: null,
    signals_summary: null,
    report_file: null,
    purchase_id: null,
    transaction: null,
    charge_micro: '0',
    reason: null,
  };
  const valid: { name: string; line: ManifestLine }[] = [
    {
      name: 'bought: a verified report of a gate call',
      line: {
        ...base,
        url: 'https://pub.example/articles/one',
        resource: 'https://pub.example/articles/one',
        status: 'bought',
        classification: 'PERMITTED_BY_OBSERVED_DECLARATION',
        decision: 'ALLOW_DECLARED',
        signals_summary: 'NONE_OBSERVED',
        report_file: `reports/${gate.quoted.purchase_id}.json`,
        purchase_id: gate.quoted.purchase_id,
        transaction,
        charge_micro: gate.quoted.price_micro,
      },
    },
    {
      name: 'not bought: the origin is not covered (answered from capabilities, free)',
      line: {
        ...base,
        url: 'https://elsewhere.example/page',
        resource: 'https://elsewhere.example/page',
        status: 'not_bought',
        reason: { code: 'ORIGIN_NOT_COVERED', message: 'https://elsewhere.example is not a covered origin' },
      },
    },
    {
      name: 'pending: a gate call about to be paid',
      line: {
        ...base,
        url: 'https://pub.example/articles/two',
        resource: 'https://pub.example/articles/two',
        status: 'pending',
        purchase_id: gate.quoted.purchase_id,
        charge_micro: gate.quoted.price_micro,
      },
    },
    {
      name: 'held: paid, the report did not verify',
      line: {
        ...base,
        url: 'https://pub.example/articles/two',
        resource: 'https://pub.example/articles/two',
        status: 'held',
        purchase_id: gate.quoted.purchase_id,
        transaction,
        charge_micro: gate.quoted.price_micro,
        reason: { code: 'HELD', message: 'evidence signature does not verify with the pinned key' },
      },
    },
    {
      name: 'not bought: not a URL the service accepts',
      line: {
        ...base,
        url: 'not a url',
        resource: null,
        status: 'not_bought',
        reason: { code: 'INVALID_URL', message: 'not an absolute https URL' },
      },
    },
  ];
  const text = (l: unknown) => JSON.stringify(l);
  const oneByte = (line: ManifestLine, from: string, to: string) => {
    const s = text(line);
    if (!s.includes(from) || from.length !== to.length) throw new Error(`cannot edit ${from}`);
    return s.replace(from, to);
  };
  const invalid = [
    { name: 'status not one of the four', text: oneByte(valid[0]!.line, '"bought"', '"bougHt"') },
    { name: 'classification not in the vocabulary', text: oneByte(valid[0]!.line, 'PERMITTED_BY', 'PERMITTED_BZ') },
    { name: 'purchase id not 64 lowercase hex', text: oneByte(valid[0]!.line, '"purchase_id":"4', '"purchase_id":"G') },
    { name: 'charge not a micro amount', text: oneByte(valid[1]!.line, '"charge_micro":"0"', '"charge_micro":"-"') },
    { name: 'another format', text: oneByte(valid[1]!.line, 'check-v1', 'check-v2') },
  ];
  return {
    description:
      'Lines of a bulk check manifest (JSON Lines, one JSON object per line, format rights-preflight-check-v1). ' +
      'valid[].text is the line as written (JSON.stringify, keys in codec order; readers must not depend on ' +
      'the order); invalid[].text differs from a valid line by one byte and must be refused.',
    valid: valid.map((v) => ({ name: v.name, text: text(v.line) })),
    invalid,
  };
}

// ---------------------------------------------------------------------------------------------

/** Every vector file, by name, as its bytes. binding.json has its own, independent generator. */
export async function vectorFiles(): Promise<Record<string, string>> {
  return {
    'canonical-json.json': json(canonicalVectors()),
    'eip3009.json': json(await eip3009Vectors()),
    'siwx.json': json(await siwxVectors()),
    'offer-receipt.json': json(offerVectors()),
    'delivery.json': json(deliveryVectors()),
    'checkpoint-seal.json': json(sealVectors()),
    'manifest.json': json(manifestVectors()),
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const [name, text] of Object.entries(await vectorFiles())) await writeFile(new URL(name, VECTORS_DIR), text);
}
