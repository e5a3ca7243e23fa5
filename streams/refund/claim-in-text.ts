// Whether a buyer's free text carries the claim that authorized it, however it was disguised.
// A claim is a bearer credential (64 hex, or an X-Service-Request key of A-Z a-z 0-9 _ -): split by
// spaces, dashes, dots, zero-width or fullwidth characters, or in another case, it is still the
// claim. Both sides are reduced to their ASCII letters and digits after NFKC (fullwidth → ASCII),
// lowercased; the text carries the claim when the reduced claim occurs in the reduced text.
//
//   carriesClaim('key: ab12 cd34…', 'ab12cd34…') === true
//
// `redactTokenLike` is the output-side guard for operator tools, which never know the claim (only
// its sha256 is stored): 32+ hex digits, even split by separators, and unbroken key-like runs are hidden.

const reduce = (s: string) =>
  s
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');

export function carriesClaim(text: string, claim: string): boolean {
  const c = reduce(claim);
  return c.length > 0 && reduce(text).includes(c);
}

/** Hex digits split by any non-alphanumeric separators (spaces, dashes, zero-width…), 32 digits or more. */
const HEX_RUN = /[0-9a-f](?:[^\p{L}\p{N}]*[0-9a-f]){31,}/giu;
/** An unbroken key-like run (base64url X-Service-Request keys are 32–128 such characters). */
const KEY_RUN = /[A-Za-z0-9_-]{32,}/g;
const REDACTED = '[redacted token-like text]';

export function redactTokenLike(text: string): string {
  return text.normalize('NFKC').replace(HEX_RUN, REDACTED).replace(KEY_RUN, REDACTED);
}
