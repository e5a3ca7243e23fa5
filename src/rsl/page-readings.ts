import { readHtmlAssociations, type HtmlAssociations } from './html-associations.js';
import { decodeHtml, decodeHtmlAs, type DecodedPage, encodingChangedTo } from './html-encoding.js';

// The readings of one HTML page's bytes (docs/decisions.md, "Late charsets and noscript"). The prescan of the
// first 1024 bytes decides the encoding a reader starts with (html-encoding.ts); a `<meta>` the parser meets
// later, while that encoding is only tentative, makes a browser read the page again in the one it names
// (HTML §13.2.3.5 "change the encoding"), while a reader that trusts its prescan does not. Both are
// conforming readings: when they differ, the page is read in both, and what either finds counts. Each
// decoded text is read with and without scripting (html-associations.ts).

export interface PageReading {
  decoded: DecodedPage;
  /** Null when the page could not be decoded in that encoding. */
  html: HtmlAssociations | null;
}

export interface PageReadings extends PageReading {
  /** The page read again in each encoding a later `<meta>` names (with and without scripting) that differs. */
  changed: Array<PageReading & { reason: string }>;
}

export async function readPageReadings(body: Uint8Array, contentType: string | undefined): Promise<PageReadings> {
  const decoded = decodeHtml(body, contentType);
  const html = decoded.ok ? await readHtmlAssociations(decoded.text) : null;
  const changed: PageReadings['changed'] = [];
  if (!decoded.ok || !html?.complete) return { decoded, html, changed };
  const declared = [html.declaredEncoding, html.withoutScripting?.declaredEncoding ?? null];
  const targets = new Set(declared.map((d) => encodingChangedTo(decoded.encoding, d)).filter((n) => n !== null));
  for (const to of targets) {
    const again = decodeHtmlAs(body, to);
    const reason =
      `ENCODING_CHANGED_BY_META: the parser meets a <meta> naming ${to} while ${decoded.encoding.name} ` +
      `(from ${decoded.encoding.source === 'meta' ? 'the prescan of the first 1024 bytes' : 'the default'}) is ` +
      'only tentative (HTML "change the encoding"): the page is read in both, and what either reading finds counts';
    changed.push({ decoded: again, html: again.ok ? await readHtmlAssociations(again.text) : null, reason });
  }
  return { decoded, html, changed };
}
