// npm run bench:rsl — parse + evaluate throughput of the RSL engine (pure, in-process, no I/O) on a
// ~2 KB and a ~64 KB document, and discovery's cost per HTML page (encoding sniffing, decoding and
// the parse5 scan for <link>, <script> and <base>) on a ~60 KB article and a 2 MiB page. Prints
// docs/s and MB/s and writes bench/results/rsl.json.
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { evaluate } from '../src/rsl/evaluate/evaluate.js';
import { parseRsl } from '../src/rsl/parse/parse.js';
import { rslAssociationsFromHtml } from '../src/rsl/html-associations.js';
import { decodeHtml } from '../src/rsl/html-encoding.js';

const MIN_SECONDS = Number(process.env.BENCH_SECONDS ?? 2);
const NS = 'https://rslstandard.org/rsl';

/** A realistic document: site-wide terms plus section scopes with several licenses each. */
function documentOfAbout(targetBytes: number): string {
  const section = (i: number) =>
    `
  <content url="/section-${i}/*" server="https://licensing.example.com" lastmod="2026-10-01T00:00:00Z">
    <license>
      <permits type="usage">search ai-input ai-index</permits>
      <permits type="user">commercial non-commercial education</permits>
      <prohibits type="geo">RU</prohibits>
      <payment type="use"><amount currency="USD">0.0${(i % 9) + 1}</amount>` +
    `<accepts type="application/x402+json"><![CDATA[{"scheme":"exact","network":"eip155:8453"}]]></accepts></payment>
      <reporting type="telemetry" profile="https://profiles.example/telemetry"/>
    </license>
    <license>
      <prohibits type="usage">ai-train</prohibits>
    </license>
    <copyright type="organization" contactUrl="https://example.com/contact">Example Media</copyright>
    <terms>https://example.com/legal/ai-terms</terms>
  </content>`;
  let body =
    '<content url="/"><license><permits type="usage">search</permits><payment type="free"/></license></content>';
  let i = 0;
  while (Buffer.byteLength(body + section(i)) < targetBytes - 90) body += section(i++);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<rsl xmlns="${NS}" max-age="7">${body}\n</rsl>\n`;
}

interface Row {
  label: string;
  bytes: number;
  contents: number;
  docsPerSec: number;
  mbPerSec: number;
  iterations: number;
  classification: string;
}

function measure(label: string, xml: string): Row {
  const bytes = Buffer.byteLength(xml);
  const question = {
    resource: 'https://publisher.test/section-1/story',
    token: 'ai-input' as const,
    userClass: 'commercial' as const,
    geo: 'US',
  };
  const once = () => {
    const parse = parseRsl(xml);
    return evaluate(
      [{ channel: 'robots', url: 'https://publisher.test/license.xml', sha256: null, parse, failure: null }],
      question,
    );
  };
  const first = once();
  for (let i = 0; i < 50; i++) once(); // warm-up
  let iterations = 0;
  const t0 = process.hrtime.bigint();
  let elapsed = 0;
  while (elapsed < MIN_SECONDS) {
    for (let i = 0; i < 20; i++) once();
    iterations += 20;
    elapsed = Number(process.hrtime.bigint() - t0) / 1e9;
  }
  const parsed = parseRsl(xml);
  return {
    label,
    bytes,
    iterations,
    contents: parsed.ok ? parsed.document.contents.length : 0,
    docsPerSec: Math.round(iterations / elapsed),
    mbPerSec: Math.round(((iterations * bytes) / elapsed / 1e6) * 100) / 100,
    classification: first.classification,
  };
}

/** A news article page: head full of meta/link/script/style, then paragraphs, an inline RSL block. */
export function articlePageOfAbout(targetBytes: number): string {
  const head =
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Story &amp; more</title>' +
    Array.from({ length: 20 }, (_, i) => `<meta property="og:x${i}" content="value ${i}">`).join('') +
    Array.from({ length: 8 }, (_, i) => `<link rel="preload" href="/static/${i}.js" as="script">`).join('') +
    '<link rel="license" type="application/rsl+xml" href="/license.xml">' +
    `<style>${'.c{color:red} '.repeat(200)}</style>` +
    `<script>${'window.x = (window.x || 0) + 1; if (a < b) { c(); } '.repeat(100)}</script>` +
    `<script type="application/rsl+xml"><rsl xmlns="${NS}"><content url=""><license>` +
    '<prohibits type="usage">ai-train</prohibits></license></content></rsl></script></head><body>';
  const paragraph = (i: number) =>
    `<p class="para" data-i="${i}">Lorem ipsum dolor sit amet, <a href="/x/${i}">consectetur</a> adipiscing ` +
    'elit, sed do eiusmod tempor incididunt ut <em>labore</em> et dolore magna aliqua. Ut enim ad minim.</p>\n' +
    (i % 10 === 0 ? '<!-- ad slot --><div class="ad"><iframe src="/ad"></iframe></div>' : '');
  let body = '';
  for (let i = 0; Buffer.byteLength(head + body) < targetBytes - 20; i++) body += paragraph(i);
  return `${head}${body}</body></html>`;
}

interface PageRow {
  label: string;
  bytes: number;
  pagesPerSec: number;
  msPerPage: number;
  mbPerSec: number;
  associations: number;
}

function measurePage(label: string, page: string): PageRow {
  const bytes = Buffer.from(page, 'utf8');
  const once = () => {
    const decoded = decodeHtml(bytes, 'text/html');
    if (!decoded.ok) throw new Error(decoded.message);
    return rslAssociationsFromHtml(decoded.text, { timeBudgetMs: 60_000 });
  };
  const first = once();
  for (let i = 0; i < 5; i++) once(); // warm-up
  let iterations = 0;
  const t0 = process.hrtime.bigint();
  let elapsed = 0;
  while (elapsed < MIN_SECONDS) {
    once();
    iterations += 1;
    elapsed = Number(process.hrtime.bigint() - t0) / 1e9;
  }
  return {
    label,
    bytes: bytes.length,
    pagesPerSec: Math.round((iterations / elapsed) * 10) / 10,
    msPerPage: Math.round((elapsed / iterations) * 1000 * 100) / 100,
    mbPerSec: Math.round(((iterations * bytes.length) / elapsed / 1e6) * 100) / 100,
    associations: first.links.length + first.scripts.length,
  };
}

const rows = [measure('~2 KB', documentOfAbout(2 * 1024)), measure('~64 KB', documentOfAbout(64 * 1024))];
const pages = [
  measurePage('article ~60 KB', articlePageOfAbout(60 * 1024)),
  measurePage('page 2 MiB (the cap)', articlePageOfAbout(2 * 1024 * 1024)),
];
console.log('RSL parse + evaluate (sax strict/xmlns, one question per document)');
console.table(
  rows.map((r) => ({
    document: r.label,
    bytes: r.bytes,
    contents: r.contents,
    'docs/s': r.docsPerSec,
    'MB/s': r.mbPerSec,
    iterations: r.iterations,
    classification: r.classification,
  })),
);

console.log('HTML discovery per page (sniff + decode + parse5 scan for <link>, <script>, <base>)');
console.table(
  pages.map((r) => ({
    page: r.label,
    bytes: r.bytes,
    'pages/s': r.pagesPerSec,
    'ms/page': r.msPerPage,
    'MB/s': r.mbPerSec,
    associations: r.associations,
  })),
);

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
await mkdir(path.join(root, 'bench/results'), { recursive: true });
await writeFile(
  path.join(root, 'bench/results/rsl.json'),
  JSON.stringify(
    {
      benchmark: 'rsl.parse+evaluate',
      measured_at: new Date().toISOString(),
      node: process.version,
      cpu: os.cpus()[0]?.model ?? 'unknown',
      min_seconds_per_case: MIN_SECONDS,
      results: rows,
      html_discovery: pages,
    },
    null,
    2,
  ) + '\n',
);
console.log('wrote bench/results/rsl.json');
