import type { MoneyPathDeps, SignedEnvelope } from './deps.js';

// The signed quote (spec §2.9, §8) of every SKU: what the product adds (resource or resources, purpose,
// context, preview) plus the fields that fix the money — amount, asset, recipient, network — and the
// validity window, signed by the evidence key. One place, so a report and a gate quote can never differ
// in what they commit the service to.

interface QuoteSubject extends Record<string, unknown> {
  purchase_id: string;
  sku: string;
  resource: string;
  input_sha256: string;
}

export function signQuote(
  deps: Pick<MoneyPathDeps, 'sign' | 'now' | 'quoteTtlSeconds' | 'terms' | 'evidenceKeyId'>,
  price: bigint,
  subject: QuoteSubject,
): { signedQuote: SignedEnvelope; expiresAt: string } {
  const now = deps.now();
  const expiresAt = new Date(now.getTime() + deps.quoteTtlSeconds * 1000).toISOString();
  const signedQuote = deps.sign({
    type: 'quote',
    ...subject,
    amount: price.toString(),
    asset: deps.terms.asset,
    pay_to: deps.terms.payTo,
    network: deps.terms.network,
    issued_at: now.toISOString(),
    expires_at: expiresAt,
    key_id: deps.evidenceKeyId,
  });
  return { signedQuote, expiresAt };
}
