import * as t from 'io-ts';

// Events of the purchase stream (DESIGN.md §3). Minimal version written by the money-path owner
// because the money path needed it before the stream owner's landed; extend freely.
// Never a secret in clear: the claim is stored as sha256, the payment authorization sealed (AES-256-GCM).

const Hex = t.string;
const Envelope = t.type({ algorithm: t.literal('Ed25519'), format: t.literal('service-evidence-v1'), payload: t.UnknownRecord, signature: t.string });

export const QuotedData = t.intersection([t.type({
  purchase_id: t.string,
  sku: t.string,
  input: t.type({ sku: t.string, resource: t.string, purpose: t.string, tier: t.string, user_class: t.string }),
  input_sha256: t.string,
  max_total_micro: t.string,
  price_micro: t.string,
  decision_preview: t.type({ purpose: t.string, classification: t.string, decision: t.string }),
  signed_quote: Envelope,
  expires_at: t.string,
  claim_sha256: t.string, // sha256 of the claim token, or of the X-Service-Request key for key-bound flows
  reading: t.UnknownRecord, // the RSL ResourceReading observed at quote time (gate: {version, readings[]})
}), t.partial({
  payer: Hex, // key-bound flows with a sign-in proof (ingestion gate): the one address allowed to pay
})]);
export const OfferedData = t.type({
  requirements: t.UnknownRecord, // x402 PaymentRequirements
  payment_required: t.UnknownRecord, // the whole x402 PaymentRequired, repeated verbatim on every 402
  nonce: Hex,
  offer_receipt: Envelope,
  expires_at: t.string,
});
export const AuthorizationCheckpointedData = t.type({
  sealed_payment: t.string,
  payment_sha256: t.string,
  payer: Hex,
  nonce: Hex,
  amount: t.string,
  valid_before: t.string,
  at: t.string,
});
export const SettlementSubmittedData = t.type({ transaction: t.union([Hex, t.null]), reason: t.string, at: t.string });
export const SettledData = t.type({ network: t.string, transaction: Hex, payer: Hex, amount: t.string, block: t.union([t.string, t.null]) });
export const DeliveredData = t.type({ response: t.UnknownRecord, payment_response: t.UnknownRecord });
export const HeldData = t.type({ reason: t.string, details: t.UnknownRecord, at: t.string });
export const LockStuckData = t.type({ reason: t.string, details: t.UnknownRecord, last_step: t.string, tried: t.number, at: t.string });
/** Only an operator moves a held or stuck purchase on (e.g. back to recovery after a fix). */
export const OperatorMovedData = t.type({ to: t.keyof({ checkpointed: null, settled: null }), note: t.string, operator: t.string, at: t.string });

export const PurchaseEvent = t.union([
  t.type({ type: t.literal('Quoted'), data: QuotedData }),
  t.type({ type: t.literal('Offered'), data: OfferedData }),
  t.type({ type: t.literal('AuthorizationCheckpointed'), data: AuthorizationCheckpointedData }),
  t.type({ type: t.literal('SettlementSubmitted'), data: SettlementSubmittedData }),
  t.type({ type: t.literal('Settled'), data: SettledData }),
  t.type({ type: t.literal('Delivered'), data: DeliveredData }),
  t.type({ type: t.literal('Held'), data: HeldData }),
  t.type({ type: t.literal('LockStuck'), data: LockStuckData }),
  t.type({ type: t.literal('OperatorMoved'), data: OperatorMovedData }),
]);
export type PurchaseEvent = t.TypeOf<typeof PurchaseEvent>;
