import { openText, sealText } from '@rights-preflight/wire/crypto/aes-gcm.js';
import type { AvailableQuote } from '@rights-preflight/wire/contract/quote.js';
import { fileBoxStore } from './file-checkpoint-store.js';

// The quotes `rights-preflight quote --checkpoint-dir DIR` made, kept in DIR/quotes so that `buy` of the
// same request buys that quote instead of asking for another. A quote holds its claim token, a bearer
// secret: each is sealed like a checkpoint (AES-256-GCM under BUYER_CHECKPOINT_KEY, bound to its purchase).

export interface QuoteRequest {
  resource: string;
  purpose: string;
  tier: string;
}

interface KeptQuote {
  base_url: string;
  request: QuoteRequest;
  quote: AvailableQuote;
}

const aad = (purchaseId: string) => `buyer-kept-quote-v1:${purchaseId}`;

/** A kept quote is bought only with this long still to run: the offer, the signature and the send take time. */
export const KEPT_QUOTE_MARGIN_MS = 30_000;

export function fileQuoteStore(dir: string, key32: Uint8Array) {
  const boxes = fileBoxStore(dir);
  return {
    async keep(baseUrl: string, request: QuoteRequest, quote: AvailableQuote): Promise<void> {
      const kept: KeptQuote = { base_url: baseUrl, request, quote };
      await boxes.put(quote.purchase_id, await sealText(key32, JSON.stringify(kept), aad(quote.purchase_id)));
    },
    /** The fresh kept quote of exactly this request to this service, the longest-lived; expired ones are removed. */
    async find(baseUrl: string, request: QuoteRequest, now = Date.now()): Promise<AvailableQuote | undefined> {
      let found: AvailableQuote | undefined;
      for (const id of await boxes.list()) {
        const box = await boxes.get(id);
        if (!box) continue;
        let kept: KeptQuote;
        try {
          kept = JSON.parse(await openText(key32, box, aad(id))) as KeptQuote;
        } catch {
          continue; // sealed under another key: not this buyer's
        }
        if (!(Date.parse(kept.quote.expires_at) > now)) {
          await boxes.delete(id);
          continue;
        }
        const same =
          kept.base_url === baseUrl &&
          kept.request.resource === request.resource &&
          kept.request.purpose === request.purpose &&
          kept.request.tier === request.tier;
        if (!same || Date.parse(kept.quote.expires_at) - now < KEPT_QUOTE_MARGIN_MS) continue;
        if (!found || kept.quote.expires_at > found.expires_at) found = kept.quote;
      }
      return found;
    },
    remove: (purchaseId: string) => boxes.delete(purchaseId),
  };
}
