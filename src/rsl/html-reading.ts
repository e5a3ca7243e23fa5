import { createHash } from 'node:crypto';
import { documentRecord as record } from './discovery-records.js';
import type { DiscoveryRun } from './discovery-run.js';
import { documentBaseUrl, type HtmlAssociations } from './html-associations.js';
import { readInlineDeclaration } from './inline-declaration.js';
import type { PageReading, PageReadings } from './page-readings.js';
import type { Observation } from './reading.js';

// What the readings of a page's HTML add to discovery (page-readings.ts): each reading's RSL links, resolved
// against that reading's own base URL, and its inline blocks. The first reading is a browser's (scripting on,
// the prescan's encoding); the others — without scripting (<noscript> content as elements), and in the
// encoding a later `<meta>` names — add only what the readings before them did not see, and say so with a
// reason code. Declarations either reader sees count: the evaluation then takes the most restrictive.

type Reading = Omit<HtmlAssociations, 'complete' | 'withoutScripting'>;

/** Why the page counts as unread: a reading that could not be decoded or finished. Null when every one was read. */
export function unreadPage(readings: PageReadings): { code: string; message: string } | null {
  for (const r of [readings, ...readings.changed]) {
    if (!r.decoded.ok) return { code: 'PAGE_UNDECODABLE', message: r.decoded.message };
    if (!r.html?.complete)
      return { code: 'PAGE_SCAN_TIME_LIMIT', message: 'the page could not be read within the HTML time budget' };
  }
  return null;
}

/** Every reading of a page read whole (unreadPage null); returns the decoded texts, the first the browser's. */
export function readPageHtml(
  run: DiscoveryRun,
  resource: string,
  pageObs: Observation,
  readings: PageReadings,
): string[] {
  const seen: string[] = [];
  const texts: string[] = [];
  const decodings = [{ r: readings as PageReading, reason: null as string | null }];
  for (const changed of readings.changed) decodings.push({ r: changed, reason: changed.reason });
  for (const [i, { r, reason }] of decodings.entries()) {
    if (!r.decoded.ok || !r.html) continue;
    texts.push(r.decoded.text);
    const added = readHtmlReading(run, resource, pageObs, r.html, seen, i === 0);
    if (reason) {
      pageObs.notes.push(reason);
      run.out.diagnostics.push(`html: ${reason} (${added} more declaration(s) in that reading)`);
    }
    // A reader without scripting (a crawler) parses <noscript> content as elements: what it sees counts too.
    if (r.html.withoutScripting) {
      const more = readHtmlReading(run, resource, pageObs, r.html.withoutScripting, seen, false);
      if (more)
        run.out.diagnostics.push(
          `html: NOSCRIPT_READ_WITHOUT_SCRIPTING: the page read without scripting (<noscript> content as ` +
            `elements, as a crawler reads it) adds ${more} declaration(s); both readings count`,
        );
    }
  }
  return texts;
}

/**
 * One reading: its links and inline blocks. `seen`: the inline blocks the readings before it recorded (each
 * occurrence counts once); those this one records are added to it. Returns how many links and blocks it adds.
 */
function readHtmlReading(
  run: DiscoveryRun,
  resource: string,
  pageObs: Observation,
  html: Reading,
  seen: string[],
  first: boolean,
): number {
  const { out, associations } = run;
  const base = documentBaseUrl(html.baseHref, resource);
  const baseNote = `document base URL ${base} (from <base href>)`;
  if (base !== resource && !pageObs.notes.includes(baseNote)) pageObs.notes.push(baseNote);
  let added = 0;
  for (const href of html.links) {
    if (!first && associations.some((a) => a.channel === 'html-link' && a.value === href && a.base === base)) continue;
    associations.push({ channel: 'html-link', value: href, base });
    added++;
  }
  if (first && html.linksOutsideHead)
    out.diagnostics.push(
      `html: ${html.linksOutsideHead} RSL <link> element(s) outside <head> (client extension, read anyway)`,
    );
  const before = [...seen];
  for (const body of html.scripts) {
    const at = before.indexOf(body);
    if (at >= 0) {
      before.splice(at, 1);
      continue;
    }
    seen.push(body);
    out.declarationFound = true;
    const url = `${resource}#rsl-script-${seen.length}`;
    const sha256 = createHash('sha256').update(body, 'utf8').digest('hex');
    const parse = readInlineDeclaration(body, resource);
    out.inputs.push({ channel: 'html-inline', url, sha256, parse, failure: null });
    out.records.push(record(url, 'html-inline', sha256, parse, null));
    added++;
  }
  return added;
}
