import { isLeft } from 'fp-ts/lib/Either.js';
import { getAddress, type LocalAccount } from 'viem';
import { verifyEnvelope } from '../evidence/verify.js';
import { keyIdOf } from '../evidence/public-key.js';
import { QuotePayload } from '../evidence/payloads.js';
import { AvailableQuote, UnavailableQuote } from '../contract/quote.js';
import { SINGLE_REPORT_SKU } from '../contract/common.js';
import { GATE_PATH, GATE_SKU, IngestionGateUnavailable } from '../contract/ingestion-gate.js';
import { gateInput, type GateQuestion } from '../products/ingestion-gate/gate-input.js';
import { SIWX_MAX_AGE_SECONDS } from '../products/ingestion-gate/siwx-challenge.js';
import { sha256Hex } from '../evidence/digest.js';
import { purchaseId } from '../../streams/purchase/purchase-id.js';
import { paymentIntentHeader, signInWithXHeader } from './gate-headers.js';
import { inputSha256 } from '../payment/binding.js';
import { chainIdOf } from '../payment/x402-constants.js';
import { encodePaymentSignature, decodePaymentResponse } from '../payment/x402-headers.js';
import { toBase64url } from '../crypto/base64url.js';
import { revalidateWith } from './revalidate.js';
import { REVALIDATE_PATH } from '../contract/revalidation.js';
import { BuyerRefused } from './errors.js';
import { checkOffer, type CheckedOffer, type Pins } from './offer.js';
import type { BuyerCheckpoint, CheckpointStore } from './checkpoint-store.js';
import { SAVED_REPORT_FORMAT, verifyPaidReport, type SavedReport } from './verify-report.js';

// The service-aware x402 buyer (spec §5.6–§5.7, docs/wire.md). Browser-safe: no node: imports.
// quote → 402 offer → every check (pins, caps, signed receipt, recomputed binding nonce) → sign
// EIP-3009 with exactly the bound nonce → ENCRYPTED checkpoint → send → verify → delivered | held.
// Ambiguous outcomes after sending are resumed with the same checkpoint: never re-quoted, never re-signed.

export type Purpose = 'ai-input' | 'ai-index' | 'ai-train' | 'search';
export type Tier = 'fresh' | 'deep';

export interface BuyerLogEvent {
  step: string;
  [field: string]: string | number | boolean | undefined;
}

export interface BuyerOptions {
  baseUrl: string;
  account: LocalAccount;
  pins: {
    network: string;
    asset: string;
    recipient: string;
    evidenceKey: string | { key_id: string; public_key: string };
  };
  maxPerReportMicro: bigint | number | string;
  maxPerTaskMicro: bigint | number | string;
  checkpointStore: CheckpointStore;
  /**
   * The service's public base URL when `baseUrl` is another route to it (a tunnel, a proxy). The gate's
   * sign-in proof and payment intent name the public gate URL. Defaults to `baseUrl`.
   */
  publicUrl?: string;
  fetch?: typeof globalThis.fetch;
  /** Progress events; they carry ids, amounts and transaction hashes only — never a claim, key,
   *  signature or checkpoint. */
  log?: (e: BuyerLogEvent) => void;
  /** Resume policy for ambiguous outcomes after the payment was sent. */
  resume?: { attempts?: number; delayMs?: number; requestTimeoutMs?: number };
}

export interface ReportRequest {
  resource: string;
  purpose: Purpose;
  tier: Tier;
  user_class?: string;
}

export type BuyResult =
  | { status: 'unavailable'; reason: string; resource: string; charge_micro: '0' }
  | {
      status: 'delivered';
      purchase_id: string;
      response: Record<string, unknown> & {
        report: { resources: { resource: string; classification: string; decision: string }[] };
      };
      classifications: { resource: string; classification: string; decision: string }[];
      transaction: string;
      amount_micro: string;
      payer: string;
      /** What to save for offline `verify` (no secrets). */
      saved: SavedReport;
      resumed: boolean;
    }
  | { status: 'held'; reason: string; purchase_id: string; transaction?: string };

export type Quote = AvailableQuote | UnavailableQuote;

/** An ingestion-gate question (spec §2.3); resources in their canonical spelling, 1–4 of them. */
export type GateRequest = GateQuestion;
export type GateResult =
  | {
      status: 'unavailable';
      reason: 'NO_VERIFIABLE_DECLARATION' | 'FETCH_FAILED';
      resources: string[];
      input_sha256: string;
      charge_micro: '0';
    }
  | Exclude<BuyResult, { status: 'unavailable' }>;

const sameAddr = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const AMBIGUOUS_STATUS = new Set([408, 425, 429, 500, 502, 503, 504]);

const EIP3009_TYPES = {
  TransferWithAuthorization: [
    { name: 'from', type: 'address' },
    { name: 'to', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'validAfter', type: 'uint256' },
    { name: 'validBefore', type: 'uint256' },
    { name: 'nonce', type: 'bytes32' },
  ],
} as const;

export function createBuyer(opts: BuyerOptions) {
  const baseUrl = opts.baseUrl.replace(/\/+$/, '');
  const gateUrl = (opts.publicUrl ?? opts.baseUrl).replace(/\/+$/, '') + GATE_PATH;
  const f = opts.fetch ?? globalThis.fetch.bind(globalThis);
  const log = (e: BuyerLogEvent) => {
    try {
      opts.log?.(e);
    } catch {
      /* a logger never breaks a purchase */
    }
  };
  const pinnedKey =
    typeof opts.pins.evidenceKey === 'string'
      ? opts.pins.evidenceKey.toLowerCase()
      : opts.pins.evidenceKey.public_key.toLowerCase();
  if (!/^[0-9a-f]{64}$/.test(pinnedKey))
    throw new TypeError('pins.evidenceKey must be a 32-byte Ed25519 public key in hex');
  if (typeof opts.pins.evidenceKey !== 'string' && keyIdOf(pinnedKey) !== opts.pins.evidenceKey.key_id)
    throw new TypeError('pins.evidenceKey.key_id is not the id of that public key');
  const pins: Pins = {
    network: opts.pins.network,
    asset: opts.pins.asset,
    recipient: opts.pins.recipient,
    evidenceKey: pinnedKey,
  };
  if (chainIdOf(pins.network) === undefined)
    throw new TypeError(`pins.network ${pins.network} is not an eip155 network`);
  const maxPerReport = BigInt(opts.maxPerReportMicro);
  const maxPerTask = BigInt(opts.maxPerTaskMicro);
  const store = opts.checkpointStore;
  const attempts = opts.resume?.attempts ?? 6;
  const delayMs = opts.resume?.delayMs ?? 250;
  const requestTimeoutMs = opts.resume?.requestTimeoutMs ?? 30_000;
  let spent = 0n;

  /** Refuses, before anything is signed or sent, a known price this buyer may not pay. */
  const assertAffordable = (amount: bigint) => {
    if (amount > maxPerReport)
      throw new BuyerRefused(
        'PRICE_ABOVE_REPORT_BUDGET',
        `the price ${amount} exceeds the per-report cap ${maxPerReport}`,
      );
    if (spent + amount > maxPerTask)
      throw new BuyerRefused(
        'TASK_BUDGET_EXHAUSTED',
        `paying ${amount} would exceed the task budget (${spent} of ${maxPerTask} spent)`,
      );
  };
  const reserve = (amount: bigint) => {
    if (spent + amount > maxPerTask)
      throw new BuyerRefused(
        'TASK_BUDGET_EXHAUSTED',
        `paying ${amount} would exceed the task budget (${spent} of ${maxPerTask} spent)`,
      );
    spent += amount;
  };
  const remainingBudget = () => {
    const rest = maxPerTask - spent;
    return rest < maxPerReport ? rest : maxPerReport;
  };

  async function errorOf(res: Response): Promise<{ code: string; message: string }> {
    try {
      const j = (await res.json()) as { error?: { code?: string; message?: string } };
      return { code: j.error?.code ?? `HTTP_${res.status}`, message: j.error?.message ?? res.statusText };
    } catch {
      return { code: `HTTP_${res.status}`, message: res.statusText };
    }
  }

  async function capabilities() {
    const res = await f(`${baseUrl}/v1/capabilities`);
    if (!res.ok) throw new BuyerRefused('SERVICE_ERROR', `capabilities answered ${res.status}`);
    const caps = (await res.json()) as {
      evidence?: { keys?: { public_key: string; key_id: string }[] };
      payment?: { network: string; asset: string; pay_to: string };
    };
    const published = caps.evidence?.keys?.some((k) => k.public_key.toLowerCase() === pinnedKey) ?? false;
    return { capabilities: caps, pinnedKeyPublished: published };
  }

  async function quote(req: ReportRequest & { max_total_micro?: string }): Promise<Quote> {
    const body = {
      resource: req.resource,
      purpose: req.purpose,
      tier: req.tier,
      ...(req.user_class ? { user_class: req.user_class } : {}),
      max_total_micro: req.max_total_micro ?? remainingBudget().toString(),
    };
    if (BigInt(body.max_total_micro) <= 0n)
      throw new BuyerRefused('TASK_BUDGET_EXHAUSTED', `no budget left (${spent} of ${maxPerTask} spent)`);
    log({
      step: 'quote',
      resource: req.resource,
      purpose: req.purpose,
      tier: req.tier,
      max_total_micro: body.max_total_micro,
    });
    const res = await f(`${baseUrl}/v1/rights/quote`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (res.status !== 200) {
      const e = await errorOf(res);
      if (e.code === 'PRICE_EXCEEDS_BUDGET') {
        // The service refused before fetching anything: the price is above what this buyer may still pay.
        const taskBound = maxPerTask - spent < maxPerReport;
        throw new BuyerRefused(
          taskBound ? 'TASK_BUDGET_EXHAUSTED' : 'PRICE_ABOVE_REPORT_BUDGET',
          `the price exceeds ${taskBound ? 'the remaining task budget' : 'the per-report cap'} ` +
            `(${body.max_total_micro})`,
        );
      }
      throw new BuyerRefused('SERVICE_ERROR', `quote refused: ${e.code} ${e.message}`, {
        status: res.status,
        code: e.code,
      });
    }
    const json = await res.json();
    const un = UnavailableQuote.decode(json);
    if (!isLeft(un)) {
      if (un.right.charge_micro !== '0') throw new BuyerRefused('QUOTE_INVALID', 'an unavailable quote must charge 0');
      log({ step: 'quote.unavailable', resource: un.right.resource, reason: un.right.reason });
      return un.right;
    }
    const av = AvailableQuote.decode(json);
    if (isLeft(av)) throw new BuyerRefused('QUOTE_INVALID', 'quote answer does not match AvailableQuote');
    const q = av.right;
    const p = q.payment;
    if (p.network !== pins.network)
      throw new BuyerRefused('NETWORK_MISMATCH', `quoted network ${p.network} is not the pinned ${pins.network}`);
    if (!sameAddr(p.asset, pins.asset))
      throw new BuyerRefused('ASSET_MISMATCH', 'quoted asset is not the pinned asset');
    if (!sameAddr(p.pay_to, pins.recipient))
      throw new BuyerRefused('RECIPIENT_MISMATCH', `quoted recipient ${p.pay_to} is not the pinned recipient`);
    if (p.amount !== q.charge_micro)
      throw new BuyerRefused('QUOTE_MISMATCH', 'quoted payment amount differs from charge_micro');
    const sq = QuotePayload.decode((q.signed_quote as { payload?: unknown }).payload);
    if (isLeft(sq)) throw new BuyerRefused('QUOTE_INVALID', 'signed quote payload has the wrong shape');
    if (sq.right.key_id !== keyIdOf(pinnedKey))
      throw new BuyerRefused('EVIDENCE_KEY_MISMATCH', `quote is signed by key ${sq.right.key_id}, not the pinned key`);
    if (!verifyEnvelope(q.signed_quote, pinnedKey))
      throw new BuyerRefused('QUOTE_SIGNATURE_INVALID', 'signed quote does not verify with the pinned key');
    const s = sq.right;
    if (
      s.purchase_id !== q.purchase_id ||
      s.resource !== q.resource ||
      s.input_sha256 !== q.input_sha256 ||
      s.amount !== q.charge_micro ||
      !sameAddr(s.pay_to, p.pay_to) ||
      !sameAddr(s.asset, p.asset) ||
      s.network !== p.network ||
      s.purpose !== q.purpose ||
      s.tier !== q.tier
    ) {
      throw new BuyerRefused('QUOTE_MISMATCH', 'signed quote differs from the quote answer');
    }
    log({
      step: 'quote.ok',
      purchase_id: q.purchase_id,
      charge_micro: q.charge_micro,
      classification: q.decision_preview.classification,
    });
    return q;
  }

  async function sign(offer: CheckedOffer): Promise<{ header: string; validBefore: string }> {
    const req = offer.requirements;
    const chainId = chainIdOf(req.network)!;
    const validBefore = String(Math.floor(Date.now() / 1000) + req.maxTimeoutSeconds);
    const authorization = {
      from: getAddress(opts.account.address),
      to: getAddress(req.payTo),
      value: req.amount,
      validAfter: '0',
      validBefore,
      nonce: offer.nonce,
    };
    const signature = await opts.account.signTypedData({
      domain: {
        name: offer.eip712.name,
        version: offer.eip712.version,
        chainId,
        verifyingContract: getAddress(req.asset),
      },
      types: EIP3009_TYPES,
      primaryType: 'TransferWithAuthorization',
      message: {
        ...authorization,
        value: BigInt(authorization.value),
        validAfter: 0n,
        validBefore: BigInt(validBefore),
      },
    });
    const header = encodePaymentSignature({
      x402Version: 2,
      resource: offer.paymentRequired.resource,
      accepted: req,
      payload: { signature, authorization },
      ...(offer.paymentRequired.extensions ? { extensions: offer.paymentRequired.extensions } : {}),
    });
    return { header, validBefore };
  }

  /** Checks the offer, reserves budget, signs, and persists the encrypted checkpoint — in that order. */
  async function prepare(
    flow: BuyerCheckpoint['flow'],
    path: string,
    key: string,
    body: Record<string, unknown> | undefined,
    prHeader: string | null,
    x: { amount: string; purchase_id?: string; resource: string; input_sha256: string },
  ): Promise<BuyerCheckpoint> {
    const offer = checkOffer(prHeader, pins, { ...x, key, maxPerReportMicro: maxPerReport });
    const purchaseId = (offer.receipt.payload as { purchase_id: string }).purchase_id;
    log({
      step: 'offer.ok',
      purchase_id: purchaseId,
      amount_micro: offer.requirements.amount,
      pay_to: offer.requirements.payTo,
      network: offer.requirements.network,
    });
    reserve(BigInt(offer.requirements.amount));
    let signed: { header: string };
    try {
      signed = await sign(offer);
    } catch (err) {
      spent -= BigInt(offer.requirements.amount);
      throw err;
    }
    log({ step: 'signed', purchase_id: purchaseId, nonce_bound: true });
    const cp: BuyerCheckpoint = {
      version: 'buyer-checkpoint-v1',
      flow,
      purchase_id: purchaseId,
      base_url: baseUrl,
      path,
      key,
      ...(body ? { body } : {}),
      payment_signature: signed.header,
      expected: {
        network: offer.requirements.network,
        asset: offer.requirements.asset,
        pay_to: offer.requirements.payTo,
        amount: offer.requirements.amount,
        payer: opts.account.address,
        nonce: offer.nonce,
        resource: x.resource,
        input_sha256: x.input_sha256,
      },
      offer_receipt: offer.receipt,
      created_at: new Date().toISOString(),
    };
    await store.save(cp);
    log({ step: 'checkpoint.saved', purchase_id: purchaseId });
    return cp;
  }

  // Gate sign-in proofs by purchase id. A proof is not a payment: it is re-signed when stale (a resume
  // may come long after the first send), while the payment header is never re-signed.
  const signIns = new Map<string, { header: string; at: number }>();
  async function gateSignIn(
    purchase: string,
    binding: { gateUrl: string; key: string; inputSha256: string; network: string },
  ): Promise<string> {
    const cached = signIns.get(purchase);
    if (cached && Date.now() - cached.at < (SIWX_MAX_AGE_SECONDS - 120) * 1000) return cached.header;
    const header = await signInWithXHeader(opts.account, binding);
    signIns.set(purchase, { header, at: Date.now() });
    log({ step: 'signed-in', purchase_id: purchase });
    return header;
  }
  const gateHeaders = async (
    purchase: string,
    key: string,
    x: { resource: string; input_sha256: string; network: string },
  ) => ({
    'x-service-request': key,
    'x-service-payment-intent': paymentIntentHeader({
      payer: getAddress(opts.account.address),
      resource: x.resource,
      input_sha256: x.input_sha256,
      network: x.network,
    }),
    'sign-in-with-x': await gateSignIn(purchase, {
      gateUrl: x.resource,
      key,
      inputSha256: x.input_sha256,
      network: x.network,
    }),
  });

  async function sendOnce(cp: BuyerCheckpoint): Promise<Response> {
    const signal = AbortSignal.timeout(requestTimeoutMs);
    if (cp.flow === 'quote') {
      return f(`${cp.base_url}${cp.path}`, {
        headers: { 'x-service-claim': cp.key, 'payment-signature': cp.payment_signature },
        signal,
      });
    }
    const privateHeaders =
      cp.flow === 'gate' ? await gateHeaders(cp.purchase_id, cp.key, cp.expected) : { 'x-service-request': cp.key };
    return f(`${cp.base_url}${cp.path}`, {
      method: 'POST',
      signal,
      headers: { 'content-type': 'application/json', ...privateHeaders, 'payment-signature': cp.payment_signature },
      body: JSON.stringify(cp.body ?? {}),
    });
  }

  /** Sends the checkpointed payment until a definitive answer; ambiguous outcomes resend the SAME header. */
  async function deliver(cp: BuyerCheckpoint, resumedAlready: boolean): Promise<BuyResult> {
    let resumed = resumedAlready;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      if (attempt > 1) {
        resumed = true;
        await sleep(Math.min(delayMs * 2 ** (attempt - 2), 4_000));
      }
      log({ step: attempt === 1 && !resumedAlready ? 'send' : 'resume', purchase_id: cp.purchase_id, attempt });
      let res: Response;
      let text: string;
      try {
        res = await sendOnce(cp);
        text = await res.text();
      } catch (err) {
        log({
          step: 'ambiguous',
          purchase_id: cp.purchase_id,
          reason: (err as Error).name === 'TimeoutError' ? 'timeout' : 'network error',
        });
        continue;
      }
      if (res.status === 200) return accept(cp, res, text, resumed);
      if (AMBIGUOUS_STATUS.has(res.status)) {
        log({ step: 'ambiguous', purchase_id: cp.purchase_id, reason: `HTTP ${res.status}` });
        continue;
      }
      let code = `HTTP_${res.status}`;
      try {
        code = (JSON.parse(text) as { error?: { code?: string } }).error?.code ?? code;
      } catch {
        /* keep */
      }
      if (code === 'PURCHASE_IN_PROGRESS') {
        log({ step: 'ambiguous', purchase_id: cp.purchase_id, reason: code });
        continue;
      }
      if (code === 'PURCHASE_HELD') {
        log({ step: 'held', purchase_id: cp.purchase_id, reason: code });
        return {
          status: 'held',
          reason: 'the service holds this purchase for an operator (PURCHASE_HELD)',
          purchase_id: cp.purchase_id,
        };
      }
      // Definitive refusal: nothing was charged (docs/wire.md §6); the reservation is released.
      spent -= BigInt(cp.expected.amount);
      if (spent < 0n) spent = 0n;
      await store.remove(cp.purchase_id);
      log({ step: 'refused', purchase_id: cp.purchase_id, code });
      throw new BuyerRefused('PAYMENT_REFUSED', `the service refused the payment (${code})`, {
        status: res.status,
        code,
      });
    }
    throw new BuyerRefused(
      'RESUME_EXHAUSTED',
      `no definitive answer after ${attempts} attempts; the checkpoint is kept: resume(purchase_id) later`,
      { purchase_id: cp.purchase_id },
    );
  }

  async function accept(cp: BuyerCheckpoint, res: Response, text: string, resumed: boolean): Promise<BuyResult> {
    const settleHeader = res.headers.get('payment-response');
    const settle = settleHeader ? decodePaymentResponse(settleHeader) : undefined;
    const transaction = settle?.ok ? settle.value.transaction : undefined;
    const held = (reason: string): BuyResult => {
      log({ step: 'held', purchase_id: cp.purchase_id, reason, transaction });
      return { status: 'held', reason, purchase_id: cp.purchase_id, ...(transaction ? { transaction } : {}) };
    };
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return held('paid response is not JSON');
    }
    const binding = {
      resource: cp.expected.resource,
      input_sha256: cp.expected.input_sha256,
      nonce: cp.expected.nonce,
    };
    const v = verifyPaidReport(
      {
        response: body,
        offerReceipt: cp.offer_receipt,
        binding,
        expected: { ...cp.expected, purchase_id: cp.purchase_id },
        bindingKey: cp.key,
      },
      pinnedKey,
    );
    if (!v.ok) return held(v.reason);
    if (
      settle?.ok &&
      (settle.value.transaction.toLowerCase() !== v.transaction.toLowerCase() ||
        (settle.value.payer && !sameAddr(settle.value.payer, v.payer)))
    ) {
      return held('PAYMENT-RESPONSE differs from the signed delivery proof');
    }
    await store.remove(cp.purchase_id);
    log({ step: 'delivered', purchase_id: cp.purchase_id, transaction: v.transaction, amount_micro: v.amount });
    const saved: SavedReport = {
      format: SAVED_REPORT_FORMAT,
      service: cp.base_url,
      evidence_key: { key_id: keyIdOf(pinnedKey), public_key: pinnedKey },
      binding: { ...binding, key_source: cp.flow === 'quote' ? 'x-service-claim' : 'x-service-request' },
      offer_receipt: cp.offer_receipt,
      response: body,
    };
    return {
      status: 'delivered',
      purchase_id: cp.purchase_id,
      response: body as Extract<BuyResult, { status: 'delivered' }>['response'],
      classifications: v.classifications,
      transaction: v.transaction,
      amount_micro: v.amount,
      payer: v.payer,
      saved,
      resumed,
    };
  }

  async function buyReport(req: ReportRequest): Promise<BuyResult> {
    const q = await quote(req);
    if (!q.available) return { status: 'unavailable', reason: q.reason, resource: q.resource, charge_micro: '0' };
    assertAffordable(BigInt(q.charge_micro));
    log({ step: 'offer', purchase_id: q.purchase_id });
    const res = await f(`${baseUrl}${q.report_url}`, { headers: { 'x-service-claim': q.claim_token } });
    if (res.status !== 402) {
      const e = await errorOf(res);
      throw new BuyerRefused('SERVICE_ERROR', `expected a 402 offer, got ${res.status} ${e.code}`, {
        status: res.status,
        code: e.code,
      });
    }
    await res.arrayBuffer();
    const cp = await prepare('quote', q.report_url, q.claim_token, undefined, res.headers.get('payment-required'), {
      amount: q.charge_micro,
      purchase_id: q.purchase_id,
      resource: q.resource,
      input_sha256: q.input_sha256,
    });
    return deliver(cp, false);
  }

  async function preflight(req: ReportRequest): Promise<BuyResult> {
    const key = toBase64url(globalThis.crypto.getRandomValues(new Uint8Array(32)));
    const budget = remainingBudget();
    if (budget <= 0n)
      throw new BuyerRefused('TASK_BUDGET_EXHAUSTED', `no budget left (${spent} of ${maxPerTask} spent)`);
    const userClass = req.user_class ?? 'commercial';
    const body = {
      resource: req.resource,
      purpose: req.purpose,
      tier: req.tier,
      user_class: userClass,
      max_total_micro: budget.toString(),
    };
    log({ step: 'preflight', resource: req.resource, purpose: req.purpose, tier: req.tier });
    const res = await f(`${baseUrl}/v1/rights/preflight`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-service-request': key },
      body: JSON.stringify(body),
    });
    if (res.status === 200) {
      const un = UnavailableQuote.decode(await res.json());
      if (isLeft(un) || un.right.charge_micro !== '0')
        throw new BuyerRefused(
          'QUOTE_INVALID',
          'a 200 preflight without payment must be an unavailable answer charging 0',
        );
      return { status: 'unavailable', reason: un.right.reason, resource: un.right.resource, charge_micro: '0' };
    }
    if (res.status !== 402) {
      const e = await errorOf(res);
      throw new BuyerRefused('SERVICE_ERROR', `preflight answered ${res.status} ${e.code}`, {
        status: res.status,
        code: e.code,
      });
    }
    const details = ((await res.json()) as { error?: { details?: { charge_micro?: string } } }).error?.details;
    const prHeader = res.headers.get('payment-required');
    // The canonical resource and the input digest: the service canonicalizes the URL; the buyer accepts
    // it only if it is the same URL, and computes input_sha256 itself from its own request.
    const offered = (() => {
      try {
        return String(
          (JSON.parse(atob(prHeader ?? '')) as { extensions?: Record<string, { info?: { resource?: string } }> })
            .extensions?.['service-request-binding']?.info?.resource ?? '',
        );
      } catch {
        return '';
      }
    })();
    if (!offered || !sameUrl(offered, req.resource))
      throw new BuyerRefused('BINDING_MISMATCH', 'the offer binds another resource than the one requested');
    const input = inputSha256({
      sku: SINGLE_REPORT_SKU,
      resource: offered,
      purpose: req.purpose,
      tier: req.tier,
      user_class: userClass,
    });
    const amount = details?.charge_micro ?? '';
    if (!/^(0|[1-9][0-9]*)$/.test(amount)) throw new BuyerRefused('OFFER_INVALID', '402 body lacks charge_micro');
    const cp = await prepare('preflight', '/v1/rights/preflight', key, body, prHeader, {
      amount,
      resource: offered,
      input_sha256: input,
    });
    return deliver(cp, false);
  }

  /**
   * POST /v1/rights/ingestion-gate for 1–4 resources (spec §2.3–§2.5, §5.5). The buyer computes the
   * normalized input and its digest itself, signs in as the payer over exactly this request, states the
   * payment intent, and pays only an offer for the published price of that input (base + per unique
   * URL); then the same checkpoint, resume and verification as every paid report.
   */
  async function ingestionGate(req: GateRequest): Promise<GateResult> {
    const q = gateInput(req);
    const price = q.price_micro;
    assertAffordable(price);
    const key = toBase64url(globalThis.crypto.getRandomValues(new Uint8Array(32)));
    const id = purchaseId({ sku: GATE_SKU, key_sha256: sha256Hex(key), input_sha256: q.input_sha256 });
    const body = { ...q.body, max_total_micro: price.toString() };
    log({
      step: 'gate',
      purchase_id: id,
      resources: q.body.resources.length,
      purpose: q.body.purpose,
      tier: q.body.tier,
      price_micro: price.toString(),
    });
    const expected = { resource: gateUrl, input_sha256: q.input_sha256, network: pins.network };
    try {
      const res = await f(`${baseUrl}${GATE_PATH}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(await gateHeaders(id, key, expected)) },
        body: JSON.stringify(body),
      });
      if (res.status === 200) {
        const un = IngestionGateUnavailable.decode(await res.json());
        if (isLeft(un) || un.right.input_sha256 !== q.input_sha256)
          throw new BuyerRefused(
            'QUOTE_INVALID',
            'a 200 gate answer without payment must be an unavailable answer for this input, charging 0',
          );
        log({ step: 'gate.unavailable', purchase_id: id, reason: un.right.reason });
        return {
          status: 'unavailable',
          reason: un.right.reason,
          resources: un.right.resources.map((r) => r.resource),
          input_sha256: q.input_sha256,
          charge_micro: '0',
        };
      }
      if (res.status !== 402) {
        const e = await errorOf(res);
        throw new BuyerRefused('SERVICE_ERROR', `ingestion gate answered ${res.status} ${e.code}: ${e.message}`, {
          status: res.status,
          code: e.code,
        });
      }
      await res.arrayBuffer();
      const cp = await prepare('gate', GATE_PATH, key, body, res.headers.get('payment-required'), {
        amount: price.toString(),
        purchase_id: id,
        resource: gateUrl,
        input_sha256: q.input_sha256,
      });
      return (await deliver(cp, false)) as GateResult;
    } finally {
      // Whatever the outcome, this call's proof is done with; a later resume() signs in afresh.
      signIns.delete(id);
    }
  }

  /** Resumes a checkpointed purchase (after a crash or RESUME_EXHAUSTED): the same authorization, never a new one. */
  async function resume(purchaseId: string): Promise<BuyResult> {
    const cp = await store.load(purchaseId);
    if (!cp) throw new BuyerRefused('CHECKPOINT_MISSING', 'no checkpoint for this purchase');
    if (cp.base_url !== baseUrl)
      throw new BuyerRefused('CHECKPOINT_MISSING', 'the checkpoint belongs to another service');
    return deliver(cp, true);
  }

  /** POST /v1/rights/revalidate for 1–4 checkpoints (./revalidate.ts); `checkpointsIn` reads them from a report. */
  const revalidate = (checkpoints: readonly unknown[], o: { tier?: Tier } = {}) =>
    revalidateWith(
      {
        baseUrl,
        revalidateUrl: (opts.publicUrl ?? opts.baseUrl).replace(/\/+$/, '') + REVALIDATE_PATH,
        fetch: f,
        pinnedKey,
        log,
        assertAffordable,
        newKey: () => toBase64url(globalThis.crypto.getRandomValues(new Uint8Array(32))),
        errorOf,
        prepare,
        deliver,
      },
      checkpoints,
      o,
    );

  return {
    capabilities,
    quote,
    buyReport,
    preflight,
    ingestionGate,
    revalidate,
    resume,
    get spentMicro() {
      return spent;
    },
    get address() {
      return opts.account.address;
    },
  };
}

export type Buyer = ReturnType<typeof createBuyer>;

function sameUrl(a: string, b: string): boolean {
  try {
    const x = new URL(a);
    const y = new URL(b);
    x.hash = '';
    y.hash = '';
    return x.href === y.href;
  } catch {
    return false;
  }
}
