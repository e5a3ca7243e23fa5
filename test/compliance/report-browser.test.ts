import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import test, { type ExecutionContext } from 'ava';
import type { ComplianceDaily } from '../../projections/compliance/compliance-row.js';
import { renderComplianceReport } from '../../projections/compliance/report-html.js';
import { browserTests } from '../support/browser-tests.js';
import { dumpDom, screenshot } from '../support/chromium.js';

// The compliance report as an auditor sees it: rendered from a realistic month sample, opened from a
// file in a real headless Chromium (no network), screenshotted, and its parsed DOM read back.
// Chromium missing: a failure under CI=true (.ci/run installs it), a skip that says why elsewhere
// (browser-tests.ts).

const ORIGINS = ['https://news.example', 'https://blog.example', 'https://archive.example'];
const PURPOSES = ['ai-input', 'ai-train', 'search', 'ai-summarize'];
const CLASSIFICATIONS = ['permitted', 'license-required', 'prohibited', 'not-granted', 'silent'];

/** Fourteen days of aggregates from a fixed seed: the same sample on every run. */
function sample(): ComplianceDaily[] {
  let seed = 20261101;
  const next = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  const rows: ComplianceDaily[] = [];
  for (let day = 1; day <= 14; day++) {
    if (day === 6) continue; // a quiet day
    for (const origin of ORIGINS) {
      for (const purpose of PURPOSES) {
        if (next(3) === 0) continue;
        const classification = CLASSIFICATIONS[next(CLASSIFICATIONS.length)]!;
        const reports = 1 + next(9);
        // Revalidations on one purpose, half of them changed: derived, so the seeded sequence is unchanged.
        const revalidation = purpose === 'ai-summarize';
        rows.push({
          day: `2026-11-${String(day).padStart(2, '0')}`,
          origin,
          purpose,
          classification,
          sku: revalidation ? 'rights.revalidate.v1' : 'rights.preflight.v1',
          changed: revalidation ? Math.floor(reports / 2) : 0,
          // Another signal restricts a third of the training RSL permits: derived, the seeded sequence unchanged.
          restricted_by_other_signal:
            purpose === 'ai-train' && classification === 'permitted' ? Math.ceil(reports / 3) : 0,
          reports,
          amount_micro: String(reports * 150_000 - next(7) * 12_345),
          held: next(5) === 0 ? 1 : 0,
          refunded: next(6) === 0 ? Math.min(reports, 1 + next(2)) : 0,
        });
      }
    }
  }
  return rows;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

async function workDir(t: ExecutionContext): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'compliance-report-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

browserTests('report-browser.test.ts', 'the compliance report renders in headless Chromium', () => {
  test('the compliance report renders in headless Chromium: screenshot, totals and charts in the DOM', async (t) => {
    const daily = sample();
    t.true(daily.length > 50 && new Set(daily.map((d) => d.origin)).size === 3, 'the sample is the realistic one');
    const dir = await workDir(t);
    const html = path.join(dir, 'report.html');
    const png = path.join(dir, 'report.png');
    await writeFile(
      html,
      renderComplianceReport({
        generatedAt: '2026-11-15T09:30:00.000Z',
        range: { from: '2026-11-01', to: '2026-11-14' },
        daily,
      }),
    );

    await screenshot(html, png, { windowSize: '1280,2000' });
    const image = await readFile(png);
    t.deepEqual(image.subarray(0, 8), PNG_SIGNATURE, 'a PNG file');
    t.is(image.toString('latin1', 12, 16), 'IHDR');
    t.is(image.readUInt32BE(16), 1280, 'width of the window');
    t.is(image.readUInt32BE(20), 2000, 'height of the window');
    // Text alone already compresses to tens of kilobytes, so the measure is relative: the same page
    // with no deliveries (header and totals only) must be far smaller than this one's charts and tables.
    const empty = path.join(dir, 'empty.html');
    const emptyPng = path.join(dir, 'empty.png');
    await writeFile(
      empty,
      renderComplianceReport({
        generatedAt: '2026-11-15T09:30:00.000Z',
        range: { from: '2026-12-01', to: '2026-12-14' },
        daily: [],
      }),
    );
    await screenshot(empty, emptyPng, { windowSize: '1280,2000' });
    const emptySize = (await stat(emptyPng)).size;
    t.log(`screenshot ${image.length} bytes, empty page ${emptySize} bytes`);
    t.true(emptySize > 5_000, `even the empty page renders text (${emptySize} bytes)`);
    t.true(
      image.length > 2 * emptySize,
      `charts and tables drawn: ${image.length} bytes vs ${emptySize} for the empty page`,
    );

    const dom = await dumpDom(html);
    const shown = Object.fromEntries([...dom.matchAll(/data-total="([a-z_]+)">([^<]*)</g)].map((m) => [m[1]!, m[2]!]));
    const { amount_usdc: usdc = '', ...counts } = shown;
    t.deepEqual(counts, {
      reports: String(daily.reduce((s, d) => s + d.reports, 0)),
      held: String(daily.reduce((s, d) => s + d.held, 0)),
      refunded: String(daily.reduce((s, d) => s + d.refunded, 0)),
      origins: '3',
      revalidations: String(daily.reduce((s, d) => s + (d.sku === 'rights.revalidate.v1' ? d.reports : 0), 0)),
      changed: String(daily.reduce((s, d) => s + d.changed, 0)),
      restricted_by_other_signal: String(daily.reduce((s, d) => s + d.restricted_by_other_signal, 0)),
    });
    t.true(Number(counts.restricted_by_other_signal) > 0);
    t.true(Number(counts.changed) > 0 && Number(counts.changed) < Number(counts.revalidations));
    t.regex(usdc, /^\d+\.\d{2,6}$/, 'USDC with 2 to 6 decimals');
    const [whole = '', fraction = ''] = usdc.split('.');
    t.is(
      BigInt(whole + fraction.padEnd(6, '0')),
      daily.reduce((s, d) => s + BigInt(d.amount_micro), 0n),
      'the exact sum in micro-USDC',
    );
    t.is((dom.match(/<svg/g) ?? []).length, 3, 'the three charts are in the parsed DOM');
    t.is((dom.match(/<article class="origin">/g) ?? []).length, 3, 'one table per origin');
    t.regex(dom, /<h1>Compliance report<\/h1>/);
  });

  test('in the browser, a hostile origin stays text: the parsed DOM has no script element', async (t) => {
    const dir = await workDir(t);
    const html = path.join(dir, 'hostile.html');
    const origin = 'https://x.example/<script>alert(1)</script><img src=x onerror=alert(2)>';
    await writeFile(
      html,
      renderComplianceReport({
        generatedAt: '2026-11-15T09:30:00.000Z',
        range: { from: '2026-11-01', to: '2026-11-01' },
        daily: [
          {
            day: '2026-11-01',
            origin,
            purpose: 'ai-input',
            classification: 'permitted',
            sku: 'rights.preflight.v1',
            reports: 2,
            amount_micro: '300000',
            held: 0,
            refunded: 0,
            changed: 0,
            restricted_by_other_signal: 0,
          },
        ],
      }),
    );
    const dom = await dumpDom(html);
    t.false(/<script/i.test(dom));
    t.false(/<img/i.test(dom));
    t.true(
      dom.includes('https://x.example/&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;'),
      'shown as text',
    );
    t.regex(dom, /data-total="reports">2</);
  });
});
