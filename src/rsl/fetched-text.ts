import { getBOMEncoding, legacyHookDecode } from '@exodus/bytes/encoding-lite.js';

// How the bytes of a fetched text that is not HTML become text: robots.txt, /.well-known/tdmrep.json,
// an RSL document, any other body the service reads. The WHATWG Encoding standard's "decode" (§6): a
// byte order mark decides the encoding and is dropped as a signature, else the text is UTF-8 (RFC 9309
// §2.3 and RFC 8259 §8.1 name UTF-8; XML 1.0 Appendix F reads a BOM the same way). @exodus/bytes
// implements the algorithm (legacyHookDecode); nothing here sniffs by hand.
//
// A second mark right after the first is not a signature: WHATWG decode keeps it as U+FEFF, and a
// robots.txt reader sees a first line that starts with it (RFC 9309 §2.2: no such line is a rule).
// A publisher who saved a file twice through a BOM-adding editor meant the line all the same, so the
// run of marks is dropped here and counted: a caller that reads rules decides what the other reading
// (the line ignored) weighs (docs/decisions.md, "Robots.txt read as the standards say"). Pure.

export type TextEncodingName = 'UTF-8' | 'UTF-16LE' | 'UTF-16BE';

export interface FetchedTextDecoded {
  text: string;
  encoding: TextEncodingName;
  /** A byte order mark opened the body and was dropped as the encoding's signature. */
  signature: boolean;
  /** U+FEFF characters that followed it (or opened a body without one), dropped too. */
  extraMarks: number;
}

const NAME: Record<'utf-8' | 'utf-16le' | 'utf-16be', TextEncodingName> = {
  'utf-8': 'UTF-8',
  'utf-16le': 'UTF-16LE',
  'utf-16be': 'UTF-16BE',
};

/** WHATWG decode with UTF-8 as the fallback, every leading U+FEFF dropped (see above). */
export function decodeFetchedText(bytes: Uint8Array): FetchedTextDecoded {
  const bom = getBOMEncoding(bytes);
  const decoded = legacyHookDecode(bytes, 'utf-8');
  let extra = 0;
  while (decoded.charCodeAt(extra) === 0xfeff) extra++;
  return {
    text: extra ? decoded.slice(extra) : decoded,
    encoding: NAME[bom ?? 'utf-8'],
    signature: bom !== null,
    extraMarks: extra,
  };
}
