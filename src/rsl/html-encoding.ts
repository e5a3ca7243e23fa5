import { getBOMEncoding, labelToName } from '@exodus/bytes/encoding-lite.js';
import sniffEncoding from 'html-encoding-sniffer';
import type { PageEncoding } from './page-encoding.js';

// How an HTML page's bytes become text, as a browser decides it (HTML standard §13.2.3.2, encoding
// sniffing): a byte order mark, else the HTTP `charset`, else a `<meta charset>` / `http-equiv`
// found by the prescan of the first 1024 bytes, else the default for "all other locales"
// (windows-1252). The sniffing is html-encoding-sniffer's (jsdom's); Node's TextDecoder (full ICU)
// decodes. A page whose encoding cannot be decoded (the `replacement` encoding, or one the decoder
// lacks) is undecodable: discovery reports it as unread, never as a page that says nothing. Pure.

export const HTML_DEFAULT_ENCODING = 'windows-1252';

export type DecodedPage =
  | { ok: true; text: string; encoding: PageEncoding }
  | { ok: false; encoding: PageEncoding; message: string };

/** The `charset` parameter of a Content-Type header value, unquoted; undefined when absent. */
export function charsetOf(contentType: string | undefined): string | undefined {
  if (!contentType) return undefined;
  const m = /;\s*charset\s*=\s*(?:"([^"]*)"|([^;\s]*))/i.exec(contentType);
  const value = m ? (m[1] ?? m[2] ?? '') : undefined;
  return value === '' ? undefined : value;
}

export function sniffHtmlEncoding(bytes: Uint8Array, contentType: string | undefined): PageEncoding {
  const bom = getBOMEncoding(bytes);
  if (bom) return { name: labelToName(bom) ?? bom, source: 'bom' };
  const label = charsetOf(contentType);
  const fromHttp = label === undefined ? null : labelToName(label);
  if (fromHttp) return { name: fromHttp, source: 'http-charset' };
  // An empty default tells "the prescan found nothing" apart from a `<meta>` naming windows-1252.
  const sniffed = sniffEncoding(bytes, { defaultEncoding: '' });
  return sniffed ? { name: sniffed, source: 'meta' } : { name: HTML_DEFAULT_ENCODING, source: 'default' };
}

export function decodeHtml(bytes: Uint8Array, contentType: string | undefined): DecodedPage {
  const encoding = sniffHtmlEncoding(bytes, contentType);
  let decoder: TextDecoder;
  try {
    if (encoding.name === 'replacement') throw new RangeError('the replacement encoding decodes to nothing');
    // The decoder removes a BOM of its own encoding, as the standard's decode does.
    decoder = new TextDecoder(encoding.name);
  } catch (err) {
    return {
      ok: false,
      encoding,
      message:
        `the page's encoding ${encoding.name} (from ${encoding.source}) cannot be decoded: ` + (err as Error).message,
    };
  }
  return { ok: true, text: decoder.decode(bytes), encoding };
}
