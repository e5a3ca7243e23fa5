import { Refusal } from '@rights-preflight/wire/refusal.js';
import type { IngestionGateRequest, IngestionGateUnavailable } from '@rights-preflight/wire/contract/ingestion-gate.js';
import { SIWX_STATEMENT } from '@rights-preflight/wire/ingestion-gate/siwx-challenge.js';
import { sell, type KeyBound, type SaleDeps, type SaleOutcome } from '../../money-path/sale.js';
import { checkPaymentIntent } from './intent.js';
import { gateUrlOf, ingestionGateProduct, type GateObserver } from './product.js';
import { verifySiwxHeader } from './siwx.js';

// POST /v1/rights/ingestion-gate: the sale end to end (../../money-path/sale.ts) to a signed-in payer.
// Everything that can be refused without the network is refused before anything is fetched or stored,
// in this order:
//   body rules → URL rule per resource → budget → X-Service-Request → payment intent → paid admission
//   → sign-in proof → signer = intent payer.
// The purchase is pinned to that payer at quote time; that the asker and the payment's `from` are the
// pinned payer is decide's rule (PURCHASE_BOUND_TO_OTHER_PAYER, PAYMENT_FROM_NOT_SIGNER).

/** A gate call comes to a redemption, or to "no verifiable declaration anywhere" (no fee, nothing stored). */
type GateOutcome = SaleOutcome<IngestionGateUnavailable>;

type GateDeps = SaleDeps<GateObserver>;

/** A gate call besides its body: key-bound, with the payment intent and the sign-in proof. */
interface GateCall extends KeyBound {
  paymentIntent: string | undefined;
  siwx: string | undefined;
}

export function ingestionGate(deps: GateDeps, body: IngestionGateRequest, call: GateCall): Promise<GateOutcome> {
  const gateUrl = gateUrlOf(deps);
  const { paymentIntent, siwx, ...bound } = call;
  return sell(deps, ingestionGateProduct, {
    ...bound,
    request: body,
    async vouch(asked, key, admit) {
      const network = deps.terms.network;
      const { payer } = checkPaymentIntent(paymentIntent, { gateUrl, inputSha256: asked.input_sha256, network });
      await admit();
      const proof = await verifySiwxHeader(
        siwx,
        { gateUrl, key, inputSha256: asked.input_sha256, network },
        deps.now(),
      );
      // The statement a buyer must sign travels with every sign-in refusal: a client can be written from the
      // answers alone.
      if (!proof.ok) throw new Refusal(proof.code, proof.message, { reason: proof.reason, statement: SIWX_STATEMENT });
      if (proof.signer !== payer) {
        throw new Refusal(
          'SIWX_SIGNER_NOT_PAYER',
          "the sign-in proof is signed by another address than the payment intent's payer; " +
            'nothing was stored or charged',
        );
      }
      return payer;
    },
  });
}
