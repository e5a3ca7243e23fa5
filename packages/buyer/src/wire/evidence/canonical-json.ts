import canonicalizeImpl from 'canonicalize';

// RFC 8785 (JCS). Every signature and digest in the service is over this form, so it lives in one place.
const canonicalize = canonicalizeImpl as unknown as (value: unknown) => string | undefined;

export function canonicalJson(value: unknown): string {
  const out = canonicalize(value);
  if (out === undefined) throw new TypeError('value has no JSON form');
  return out;
}

export const canonicalBytes = (value: unknown): Uint8Array => new TextEncoder().encode(canonicalJson(value));
