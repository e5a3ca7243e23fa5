// base64url without padding (RFC 4648 §5) on plain Uint8Array: browser-safe (btoa/atob exist in Node ≥ 16
// and every browser), so sealed values written by the service and by the buyer client are the same text.

function binaryString(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return binary;
}

export function toBase64url(bytes: Uint8Array): string {
  return btoa(binaryString(bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function fromBase64url(text: string): Uint8Array {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) throw new TypeError('not base64url');
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4));
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

/** Standard base64 (padded) of the UTF-8 bytes of `text`: the encoding of the x402-style JSON headers. */
export function utf8ToBase64(text: string): string {
  return btoa(binaryString(new TextEncoder().encode(text)));
}
