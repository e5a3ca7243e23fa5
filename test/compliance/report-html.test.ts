import test from 'ava';
import type { ComplianceDaily } from '../../projections/compliance/compliance-row.js';
import { dayAxis, formatUsdc, parseMicro, renderComplianceReport } from '../../projections/compliance/report-html.js';
import { svgBarChart } from '../../projections/compliance/svg-chart.js';

// The compliance report page, read as markup: totals, per-origin tables, charts, escaping of
// publishers' text, and that nothing in it would make a browser fetch anything.

const HOSTILE_ORIGIN = 'https://x.example/<script>alert(1)</script>';

const d = (
  day: string,
  origin: string,
  purpose: string,
  classification: string,
  reports: number,
  amount_micro: string,
  held = 0,
  refunded = 0,
  sku = 'rights.preflight.v1',
  changed = 0,
  restricted_by_other_signal = 0,
): ComplianceDaily => ({
  ...{ day, origin, purpose, classification, sku, reports, amount_micro, held, refunded, changed },
  restricted_by_other_signal,
});

const DAILY: ComplianceDaily[] = [
  d('2026-11-01', 'https://news.example', 'ai-input', 'permitted', 4, '600000', 1, 0),
  d('2026-11-01', 'https://news.example', 'ai-train', 'prohibited', 2, '300000'),
  d('2026-11-02', 'https://news.example', 'ai-input', 'permitted', 1, '150000', 0, 1),
  d('2026-11-02', HOSTILE_ORIGIN, 'search', 'license-required', 3, '450000', 0, 2),
  d('2026-11-04', 'https://blog.example', 'ai-input', 'license-required', 5, '734500', 2, 0),
  d('2026-11-04', '', 'ai-input', 'silent', 1, '0'),
];

const render = (daily: readonly ComplianceDaily[], range = { from: '2026-11-01', to: '2026-11-05' }) =>
  renderComplianceReport({ generatedAt: '2026-11-06T08:00:00.000Z', range, daily });

function totals(html: string): Record<string, string> {
  const section = /<section id="totals">([\s\S]*?)<\/section>/.exec(html);
  if (!section) throw new Error('no #totals section');
  return Object.fromEntries([...section[1]!.matchAll(/data-total="([a-z_]+)">([^<]*)</g)].map((m) => [m[1]!, m[2]!]));
}

/** Every start tag of the page. Escaped text never holds a raw `<`, so each match is real markup. */
const startTags = (html: string) =>
  [...html.matchAll(/<([a-zA-Z][a-zA-Z0-9-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/g)].map((m) => ({
    name: m[1]!.toLowerCase(),
    attrs: m[2]!,
  }));

const VOID = new Set([
  'meta',
  'br',
  'hr',
  'img',
  'input',
  'link',
  'area',
  'base',
  'col',
  'embed',
  'source',
  'track',
  'wbr',
]);

/** Tags are closed in the order they were opened (void elements and `/>` excepted). */
function assertBalanced(html: string): void {
  const stack: string[] = [];
  for (const m of html.matchAll(/<(\/?)([a-zA-Z][a-zA-Z0-9-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/g)) {
    const [, close, rawName, rest] = m;
    const name = rawName!.toLowerCase();
    if (close) {
      const open = stack.pop();
      if (open !== name) throw new Error(`</${name}> closes <${open}>`);
    } else if (!VOID.has(name) && !rest!.trimEnd().endsWith('/')) stack.push(name);
  }
  if (stack.length) throw new Error(`unclosed: ${stack.join(' ')}`);
}

test('totals are the sums of the daily aggregates; origins count distinct named origins', (t) => {
  const html = render(DAILY);
  t.deepEqual(totals(html), {
    reports: '16', // 4 + 2 + 1 + 3 + 5 + 1
    amount_usdc: '2.2345', // 2 234 500 micro-USDC
    held: '3',
    refunded: '3',
    origins: '3', // news, hostile, blog; '' is "no origin", not a fourth
    revalidations: '0',
    changed: '0',
    restricted_by_other_signal: '0',
  });
  t.is(Number(totals(html).amount_usdc), DAILY.reduce((s, r) => s + Number(r.amount_micro), 0) / 1e6);
});

test('revalidated resources are counted among the reports, and those whose report says they changed', (t) => {
  const news = 'https://news.example';
  const html = render([
    d('2026-11-01', news, 'ai-input', 'permitted', 3, '60000'),
    d('2026-11-02', news, 'ai-input', 'permitted', 2, '20000', 0, 0, 'rights.revalidate.v1', 0),
    d('2026-11-02', news, 'ai-input', 'prohibited', 4, '40000', 0, 0, 'rights.revalidate.v1', 3),
  ]);
  t.like(totals(html), { reports: '9', revalidations: '6', changed: '3', origins: '1' });
  t.regex(html, /9 reports · 0\.12 USDC · 0 held · 0 refunded · 6 revalidations, 3 changed<\/p>/);
  // Two SKUs on one day, origin, purpose and classification are one cell of the origin's table.
  t.regex(html, /<th scope="row">ai-input<\/th><td>5<\/td><td>4<\/td><td>9<\/td>/);
});

test('resources another signal restricted are counted in total and per origin, none where no report says so', (t) => {
  const [news, blog] = ['https://news.example', 'https://blog.example'];
  const html = render([
    d('2026-11-01', news, 'ai-train', 'permitted', 3, '60000', 0, 0, undefined, 0, 2),
    d('2026-11-02', news, 'ai-train', 'license-required', 1, '20000', 0, 0, undefined, 0, 1),
    d('2026-11-02', blog, 'ai-train', 'permitted', 4, '40000'),
  ]);
  t.like(totals(html), { reports: '8', restricted_by_other_signal: '3' });
  t.regex(html, /<h3>https:\/\/news\.example<\/h3>\n<p>4 reports [^<]* · 3 restricted by another signal<\/p>/);
  t.regex(html, /<h3>https:\/\/blog\.example<\/h3>\n<p>4 reports · 0\.04 USDC · 0 held · 0 refunded<\/p>/);
});

test('amounts are exact past 2^53 micro-USDC and shown with 2 to 6 decimals', (t) => {
  t.is(formatUsdc(0n), '0.00');
  t.is(formatUsdc(150_000n), '0.15');
  t.is(formatUsdc(1_000_000n), '1.00');
  t.is(formatUsdc(1_234_567n), '1.234567');
  t.is(formatUsdc(10n), '0.00001');
  t.is(formatUsdc(9_007_199_254_740_993n), '9007199254.740993');
  t.is(parseMicro('9007199254740993'), 9_007_199_254_740_993n);
  t.is(parseMicro('150000.000'), 150_000n, 'a numeric with a zero fraction');
  t.throws(() => parseMicro('1.5'), { instanceOf: RangeError });
  t.throws(() => parseMicro(''), { instanceOf: RangeError });
  const html = render([
    d('2026-11-01', 'https://a.example', 'ai-input', 'permitted', 1, '9007199254740993'),
    d('2026-11-01', 'https://a.example', 'search', 'permitted', 1, '1'),
  ]);
  t.is(totals(html).amount_usdc, '9007199254.740994');
});

test('one table per origin: purpose × classification counts, row and column totals', (t) => {
  const html = render(DAILY);
  const articles = [...html.matchAll(/<article class="origin">([\s\S]*?)<\/article>/g)].map((m) => m[1]!);
  t.is(articles.length, 4, 'three origins and the deliveries with none');
  const headings = articles.map((a) => /<h3>(.*?)<\/h3>/.exec(a)![1]);
  t.deepEqual(headings, [
    'https://blog.example',
    'https://news.example',
    'https://x.example/&lt;script&gt;alert(1)&lt;/script&gt;',
    '<em>(no origin)</em>',
  ]);

  const news = articles[1]!;
  t.regex(
    news,
    new RegExp(
      /<thead><tr><th scope="col">Purpose<\/th><th scope="col">permitted<\/th>/.source +
        /<th scope="col">prohibited<\/th><th scope="col">Total<\/th><\/tr><\/thead>/.source,
    ),
  );
  t.regex(
    news,
    /<tr><th scope="row">ai-input<\/th><td>5<\/td><td>0<\/td><td>5<\/td><\/tr>/,
    'two days of ai-input/permitted add up',
  );
  t.regex(news, /<tr><th scope="row">ai-train<\/th><td>0<\/td><td>2<\/td><td>2<\/td><\/tr>/);
  t.regex(news, /<tfoot><tr><th scope="row">Total<\/th><td>5<\/td><td>2<\/td><td>7<\/td><\/tr><\/tfoot>/);
  t.regex(news, /7 reports · 1\.05 USDC · 1 held · 1 refunded/);
});

test('three inline SVG charts; bars carry the day and count, quiet days in the range are on the axis', (t) => {
  const html = render(DAILY);
  const svgs = [...html.matchAll(/<svg[\s\S]*?<\/svg>/g)].map((m) => m[0]);
  t.is(svgs.length, 3);
  const [perDay, perPurpose, heldRefunded] = svgs as [string, string, string];
  t.regex(perDay, /aria-label="Reports delivered per day"/);
  t.deepEqual(
    [...perDay.matchAll(/<title>(\d{4}-\d{2}-\d{2}) · reports: (\d+)<\/title>/g)].map((m) => `${m[1]}=${m[2]}`),
    ['2026-11-01=6', '2026-11-02=4', '2026-11-04=6'],
  );
  t.deepEqual(dayAxis({ from: '2026-11-01', to: '2026-11-05' }, DAILY), [
    '2026-11-01',
    '2026-11-02',
    '2026-11-03',
    '2026-11-04',
    '2026-11-05',
  ]);
  t.regex(perDay, />2026-11-03<\/text>/, 'a day with no delivery still has its label');
  for (const c of ['license-required', 'permitted', 'prohibited', 'silent'])
    t.regex(perPurpose, new RegExp(`<text[^>]*>${c}</text>`), `legend names ${c}`);
  t.regex(perPurpose, /<title>ai-input · license-required: 5<\/title>/);
  t.regex(heldRefunded, /<title>2026-11-02 · refunded: 3<\/title>/);
  t.regex(heldRefunded, /<title>2026-11-04 · held: 2<\/title>/);
});

test('a hostile origin or purpose is shown as text, never as markup', (t) => {
  const hostile = [
    ...DAILY,
    d('2026-11-03', 'https://y.example/"><img src=x onerror=alert(2)>', '<b>bold</b> & "quoted"', "it's <i>", 1, '1'),
  ];
  const html = render(hostile);
  t.true(html.includes('https://x.example/&lt;script&gt;alert(1)&lt;/script&gt;'));
  t.true(html.includes('https://y.example/&quot;&gt;&lt;img src=x onerror=alert(2)&gt;'));
  t.true(html.includes('&lt;b&gt;bold&lt;/b&gt; &amp; &quot;quoted&quot;'));
  t.true(html.includes('it&#39;s &lt;i&gt;'));
  const names = new Set(startTags(html).map((tag) => tag.name));
  for (const bad of ['script', 'img', 'b', 'i']) t.false(names.has(bad), `no <${bad}> element`);
  t.false(
    startTags(html).some((tag) => /\bon[a-z]+\s*=/i.test(tag.attrs)),
    'no event handler attribute',
  );
  t.notThrows(() => assertBalanced(html));
});

test('no network resources: no src/href, no @import, no url(, no script; a CSP forbids loading anything', (t) => {
  for (const html of [render(DAILY), render([])]) {
    const tags = startTags(html);
    const names = new Set(tags.map((tag) => tag.name));
    for (const el of [
      'script',
      'link',
      'img',
      'iframe',
      'object',
      'embed',
      'image',
      'use',
      'video',
      'audio',
      'source',
      'base',
      'form',
    ]) {
      t.false(names.has(el), `no <${el}>`);
    }
    for (const tag of tags) {
      t.false(
        /\b(?:src|srcset|href|xlink:href|action|formaction|poster|background|ping)\s*=/i.test(tag.attrs),
        `<${tag.name}${tag.attrs}> loads nothing`,
      );
      t.false(/https?:/i.test(tag.attrs), `<${tag.name}${tag.attrs}> names no URL`);
    }
    const styles = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1]!).join('\n');
    t.true(styles.length > 0, 'the CSS is inline');
    t.false(/@import|url\(|@font-face/i.test(styles));
    t.false(/url\(/i.test(html), 'no url() anywhere, e.g. in an SVG fill');
    t.regex(html, /<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline';/);
    // Text may mention origins (they are the data); anything else would be a reference.
    const mentions = [...html.replace(/https:\/\/[a-z.]+\.example[^\s<]*/g, '').matchAll(/https?:\/\//g)];
    t.is(mentions.length, 0, 'no URL other than the data origins');
  }
});

test('empty input: a valid page that says there were no deliveries, with zero totals and no charts', (t) => {
  const html = render([], { from: '2026-12-01', to: '2026-12-31' });
  t.true(html.startsWith('<!DOCTYPE html>\n<html lang="en">'));
  t.true(html.trimEnd().endsWith('</html>'));
  t.notThrows(() => assertBalanced(html));
  t.regex(html, /<title>Compliance report — 2026-12-01 to 2026-12-31<\/title>/);
  t.regex(html, /No reports were delivered in this range\./);
  t.deepEqual(totals(html), {
    reports: '0',
    amount_usdc: '0.00',
    held: '0',
    refunded: '0',
    origins: '0',
    revalidations: '0',
    changed: '0',
    restricted_by_other_signal: '0',
  });
  t.false(html.includes('<svg'));
  t.false(html.includes('<table'));
});

test('the page is well formed and names its range and generation time', (t) => {
  const html = render(DAILY);
  t.notThrows(() => assertBalanced(html));
  t.regex(html, /2026-11-01 to 2026-11-05 \(UTC days of delivery, both ends included\)/);
  t.regex(html, /<time datetime="2026-11-06T08:00:00.000Z">2026-11-06T08:00:00.000Z<\/time>/);
  t.regex(
    renderComplianceReport({ generatedAt: 'x', range: { from: '2026-11-01' }, daily: DAILY }),
    /<title>Compliance report — from 2026-11-01<\/title>/,
  );
  t.regex(
    renderComplianceReport({ generatedAt: 'x', range: {}, daily: DAILY }),
    /<title>Compliance report — all days<\/title>/,
  );
  t.is(render(DAILY), render([...DAILY].reverse()), 'pure: the order of the aggregates does not matter');
});

test('svgBarChart: stacked bars sum, grouped bars sit side by side, and an all-zero chart says so', (t) => {
  const stacked = svgBarChart({
    title: 'T',
    categories: ['a', 'b'],
    series: [
      { name: 's1', values: [1, 2] },
      { name: 's2', values: [3, 0] },
    ],
  });
  t.is((stacked.match(/<rect x/g) ?? []).length, 3 + 2, 'three bars with a value, two legend swatches');
  t.regex(stacked, /<text x="50" y="[\d.]+" text-anchor="end">4<\/text>/, 'the axis reaches the tallest stack (1 + 3)');
  const grouped = svgBarChart({
    title: 'T',
    layout: 'grouped',
    categories: ['a'],
    series: [
      { name: 's1', values: [2] },
      { name: 's2', values: [2] },
    ],
  });
  const xs = [...grouped.matchAll(/<rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)"[^>]*><title>/g)].map((m) =>
    m.slice(1).map(Number),
  );
  t.is(xs.length, 2);
  t.is(xs[0]![1], xs[1]![1], 'equal values, equal heights');
  t.true(xs[1]![0]! >= xs[0]![0]! + xs[0]![2]! - 0.01, 'side by side, not overlapping');
  t.regex(svgBarChart({ title: 'T', categories: ['a'], series: [{ name: 's', values: [0] }] }), />no data</);
  const many = svgBarChart({
    title: 'T',
    categories: Array.from({ length: 120 }, (_, i) => `2026-01-${String(i).padStart(3, '0')}`),
    series: [{ name: 's', values: Array(120).fill(1) }],
  });
  const labels = (many.match(/>2026-01-\d{3}<\/text>/g) ?? []).length;
  t.true(labels > 5 && labels < 20, `crowded labels are thinned (${labels} of 120 shown)`);
});
