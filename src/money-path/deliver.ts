import type { SettleResponse } from '@x402/core/types';
import { GATEWAY_VERSION } from '@rights-preflight/wire/contract/common.js';
import { digestOf } from '@rights-preflight/wire/evidence/digest.js';
import type {
  PurchaseCommandBody,
  PurchaseEventData,
  PurchaseState,
  SettledState,
} from '../../streams/purchase/index.js';
import type { MoneyPathDeps } from './deps.js';
import { draftReport } from './product.js';
import type { DraftedReport } from './report-drafter.js';
import { runPurchaseCommand } from './purchase-stream.js';

// Signs and records the delivery of a settled purchase. The report is the SKU's own draft (deps.products,
// from what was observed at quote time); the evidence signature, the settlement binding and the delivery
// proof are built here, the same for every SKU. decide lets exactly one `Delivered` in; a loser of that
// race finds the purchase delivered on its retry and decides nothing.

type Delivery = PurchaseEventData<'Delivered'>;

export function buildDelivery(deps: MoneyPathDeps, state: SettledState): Delivery {
  const { quoted: q, settled: s, offered: o, checkpoint: c } = state;
  const drafted = draftReport(deps.products, q.sku, q, deps.evidenceKeyId);
  const evidence = deps.sign(drafted.evidence);
  const report = withCheckpoints(deps, drafted);
  const settlement = {
    network: s.network,
    transaction: s.transaction,
    payer: s.payer,
    amount: s.amount,
    asset: o.requirements.asset,
    pay_to: o.requirements.payTo,
    nonce: c.nonce,
  };
  const deliveryProof = deps.sign({
    type: 'delivery-proof',
    purchase_id: q.purchase_id,
    input_sha256: q.input_sha256,
    report_sha256: digestOf(report),
    evidence_sha256: digestOf(evidence),
    settlement,
    delivered_at: deps.now().toISOString(),
    key_id: deps.evidenceKeyId,
  });
  // Every product's paid body has this shape; its own codec checks it on the way out (docs/wire.md).
  const response: Delivery['response'] & Record<string, unknown> = {
    version: GATEWAY_VERSION,
    input_sha256: q.input_sha256,
    legal_clearance: false,
    report: report as Record<string, unknown>,
    evidence,
    delivery_proof: deliveryProof,
    payment_settlement: {
      success: true,
      network: s.network as Delivery['response']['payment_settlement']['network'],
      transaction: s.transaction,
    },
  };
  const paymentResponse: SettleResponse = {
    success: true,
    transaction: s.transaction,
    network: s.network as SettleResponse['network'],
    payer: s.payer,
  };
  return { response, payment_response: paymentResponse, delivery_proof_sha256: digestOf(deliveryProof) };
}

/**
 * Each report resource's checkpoint (docs/decisions.md, "Revalidation"): the product's draft,
 * tied to this delivery by the digest of the evidence payload (which does not contain the checkpoints,
 * so nothing is circular) and signed with the evidence key. Deterministic (Ed25519, no time), so a
 * resumed or raced delivery carries the same checkpoints.
 */
function withCheckpoints(deps: MoneyPathDeps, drafted: DraftedReport): ReturnType<DraftedReport['report']> {
  const evidenceSha256 = digestOf(drafted.evidence);
  return drafted.report(
    drafted.checkpoints.map((c) => deps.sign({ ...c, evidence_sha256: evidenceSha256, key_id: deps.evidenceKeyId })),
  );
}

/** The Deliver command for a settled state; nothing for any other (a settlement that ended held). */
export const deliverCommand =
  (deps: MoneyPathDeps) =>
  (state: PurchaseState): PurchaseCommandBody | undefined =>
    state.status === 'settled' ? { type: 'Deliver', data: buildDelivery(deps, state) } : undefined;

/** The Deliver command on the settled state the caller holds; a stream moved since fails the append. */
export async function deliver(deps: MoneyPathDeps, id: string, state: SettledState): Promise<PurchaseState> {
  const run = await runPurchaseCommand(deps, id, deliverCommand(deps), { known: state });
  return run.state;
}
