import { getBOMEncoding } from '@exodus/bytes/encoding-lite.js';
import type { ParseResult } from './model.js';
import type { ParseLimits } from './limits.js';

// Stage 1 of the parse: bytes to text. Only a document of XML 1.0 characters within the size limit goes
// on to the XML reader; anything else fails here, before sax sees it. The encoding is UTF-8, or UTF-16
// when a byte order mark says so (XML 1.0 §4.3.3: processors MUST read both, and "Entities encoded in
// UTF-16 MUST ... begin with the Byte Order Mark"); the mark is a signature, never text (WHATWG Encoding,
// decode; the same reading as src/rsl/fetched-text.ts, but fatal on a malformed byte sequence).

/** XML 1.0 §2.2 `Char`; anything else (C0 controls but TAB/LF/CR, U+FFFE/F, lone surrogates) is not XML. */
const NOT_XML_CHAR = /[^\t\n\r\x20-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/u;

type Failure = Extract<ParseResult, { ok: false }>;

/** The document's text (BOM dropped), or why there is none. */
export function decodeDocument(input: string | Uint8Array, limits: ParseLimits): { text: string } | Failure {
  const problems: Failure['problems'] = [];
  const bytes = typeof input === 'string' ? Buffer.byteLength(input, 'utf8') : input.byteLength;
  if (bytes > limits.maxBytes)
    return {
      ok: false,
      code: 'DOCUMENT_TOO_LARGE',
      message: `document is ${bytes} bytes; the limit is ${limits.maxBytes}`,
      problems,
    };
  let text: string;
  const bom = typeof input === 'string' ? null : getBOMEncoding(input);
  const utf16 = bom === 'utf-16le' || bom === 'utf-16be';
  if (typeof input === 'string') {
    text = input;
  } else {
    try {
      // The decoder drops a BOM of its own encoding.
      text = new TextDecoder(bom ?? 'utf-8', { fatal: true }).decode(input);
    } catch {
      return { ok: false, code: 'UNSUPPORTED_ENCODING', message: `document is not valid ${bom ?? 'utf-8'}`, problems };
    }
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const forbidden = NOT_XML_CHAR.exec(text);
  if (forbidden) {
    const code = forbidden[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
    return {
      ok: false,
      code: 'XML_MALFORMED',
      message: `character U+${code} at offset ${forbidden.index} is not allowed in XML 1.0`,
      problems,
    };
  }
  const decl = /^<\?xml[^>]*encoding\s*=\s*["']([^"']+)["']/.exec(text);
  // The declaration must name what the bytes are (XML 1.0 Appendix F): UTF-8, or UTF-16 after its BOM.
  if (decl && !(utf16 ? /^utf-?16(le|be)?$/i : /^utf-?8$/i).test(decl[1]!))
    return {
      ok: false,
      code: 'UNSUPPORTED_ENCODING',
      message:
        `encoding ${decl[1]} is not supported here ` +
        `(${utf16 ? 'the byte order mark says UTF-16' : 'UTF-8, or UTF-16 with its byte order mark'})`,
      problems,
    };
  return { text };
}
