import { getBOMEncoding, labelToName } from '@exodus/bytes/encoding-lite.js';
import sniffEncoding from 'html-encoding-sniffer';
import type { PageEncoding } from './page-encoding.js';

// How an HTML page's bytes become text, as a browser decides it (HTML standard §13.2.3.2, encoding
// sniffing): a byte order mark, else the HTTP `charset`, else a `<meta charset>` / `http-equiv`
// found by the prescan of the first 1024 bytes, else the default for "all other locales"
// (windows-1252). A `<meta>` the parser meets later may still change it ("change the encoding",
// encodingChangedTo): discovery then reads the page both ways (page-readings.ts). The sniffing is
// html-encoding-sniffer's (jsdom's); Node's TextDecoder (full ICU) decodes. A page whose encoding
// cannot be decoded (the `replacement` encoding, or one the decoder lacks) is undecodable: discovery
// reports it as unread, never as a page that says nothing. Pure.

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

/**
 * The encoding a `<meta>` element the tree builder inserts declares, as HTML §13.2.6.4.4 ("in head", a `meta`
 * start tag) reads it: its `charset` if getting an encoding from it gives one, else, with `http-equiv`
 * Content-Type, its `content` by "the algorithm for extracting a character encoding from a meta element".
 * Both algorithms are the sniffer's own (the prescan runs them on a tag holding just that attribute): no
 * sniffing is written here. Null when the element declares none.
 */
export function encodingDeclaredByMeta(attrs: ReadonlyArray<{ name: string; value: string }>): string | null {
  const value = (name: string) => attrs.find((a) => a.name === name)?.value;
  const charset = value('charset');
  const fromCharset = charset === undefined ? null : labelToName(charset);
  if (fromCharset) return fromCharset;
  const content = value('content');
  if (content === undefined || value('http-equiv')?.trim().toLowerCase() !== 'content-type') return null;
  // The prescan reads a quoted value to its closing quote: one holding both quotes is quoted with ", the "
  // inside read as ' (it may then find an encoding the parser would not: one more reading, never one fewer).
  const quoted = content.includes('"') && !content.includes("'") ? `'${content}'` : `"${content.replaceAll('"', "'")}"`;
  const tag = new TextEncoder().encode(`<meta http-equiv="content-type" content=${quoted}>`);
  return sniffEncoding(tag, { defaultEncoding: '' }) || null;
}

/**
 * HTML §13.2.3.5 "change the encoding", when the parser meets `declared` while its confidence is tentative
 * (the encoding came from the prescan or the default, not a BOM or the HTTP charset): the encoding the page
 * is read again in, or null when the parser keeps the one it has.
 */
export function encodingChangedTo(current: PageEncoding, declared: string | null): string | null {
  if (declared === null || current.source === 'bom' || current.source === 'http-charset') return null;
  if (current.name === 'UTF-16LE' || current.name === 'UTF-16BE') return null;
  const to =
    declared === 'UTF-16LE' || declared === 'UTF-16BE'
      ? 'UTF-8'
      : declared === 'x-user-defined'
        ? 'windows-1252'
        : declared;
  return to === current.name ? null : to;
}

/** The page decoded in the encoding the parser changed to (`source: meta`: a `<meta>` decided it). */
export function decodeHtmlAs(bytes: Uint8Array, name: string): DecodedPage {
  const encoding: PageEncoding = { name, source: 'meta' };
  try {
    if (name === 'replacement') throw new RangeError('the replacement encoding decodes to nothing');
    return { ok: true, text: new TextDecoder(name).decode(bytes), encoding };
  } catch (err) {
    const message =
      `the page's encoding ${name} (from a <meta> the parser met) cannot be decoded: ` + (err as Error).message;
    return { ok: false, encoding, message };
  }
}
