// npm run bench:rsl — parse + evaluate throughput of the RSL engine (pure, in-process, no I/O) on a
// ~2 KB and a ~64 KB document. Prints docs/s and MB/s and writes bench/results/rsl.json.
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { evaluate } from '../../src/rsl/evaluate.js';
import { parseRsl } from '../../src/rsl/parse.js';

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

const rows = [measure('~2 KB', documentOfAbout(2 * 1024)), measure('~64 KB', documentOfAbout(64 * 1024))];
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

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
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
    },
    null,
    2,
  ) + '\n',
);
console.log('wrote bench/results/rsl.json');
