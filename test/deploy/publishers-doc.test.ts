import test from 'ava';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli } from '../../ops/cli.js';
import { DEFAULT_DISCOVERY_LIMITS } from '../../src/rsl/discovery.js';
import { FETCH_DEFAULTS } from '../../src/rsl/safe-fetch.js';
import { COVERAGE_REFUSAL_CODES, REVIEW_VALID_DAYS } from '../../streams/coverage/index.js';
import { useFastWorld } from '../support/fast-world.js';

// docs/publishers.md is what a publisher follows to be read and covered: its examples and the figures it
// gives must be the service's. The minimal document and the curl body go through the real inspection
// route; the limits, the User-Agent, the review's age and the operator commands are read from the code.

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const page = readFileSync(path.join(ROOT, 'docs/publishers.md'), 'utf8');
/** The page's prose with its line breaks as spaces, as Markdown renders them (a code span may wrap). */
const prose = page.replace(/\s+/g, ' ');
const blocks = (lang: string) =>
  [...page.matchAll(new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``, 'g'))].map((m) => m[1]!);

// The free inspection as the service serves it (test/README.md, Worlds).
const route = useFastWorld();
const inspect = async (body: unknown) => {
  const res = await fetch(`${route.url}/v1/rights/inspect`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
};

test('the minimal document permits ai-input for free, and conforms', async (t) => {
  const [xml] = blocks('xml');
  t.truthy(xml, 'the page shows a document');
  t.regex(page, /lets AI systems read \(`ai-input`\) everything for free/);
  const r = await inspect({ resource: 'https://example.com/articles/one', purpose: 'ai-input', xml });
  t.is(r.status, 200, JSON.stringify(r.body));
  t.is(r.body.classification, 'PERMITTED_BY_OBSERVED_DECLARATION');
  t.true(r.body.document.conformant && r.body.document.problems.length === 0, JSON.stringify(r.body.document));
});

test('the curl example is a request the inspection answers as the page says', async (t) => {
  const sh = blocks('sh').find((b) => b.includes('/v1/rights/inspect'));
  t.truthy(sh);
  const body = JSON.parse(/-d '([\s\S]*?)'/.exec(sh!)![1]!) as Record<string, unknown>;
  const r = await inspect(body);
  t.is(r.status, 200, JSON.stringify(r.body));
  for (const field of ['classification', 'decision', 'tokens', 'document'])
    t.true(field in r.body, `the answer has ${field}, as the page says`);
  t.is(r.body.charge_micro, '0', 'free');
  t.false(r.body.fetched, 'nothing fetched');
});

test('the figures and names the page gives are the code’s', async (t) => {
  t.true(prose.includes(`\`User-Agent: ${FETCH_DEFAULTS.userAgent}\``), 'the User-Agent a publisher lets through');
  const kib = (n: number) => `${n / 1024} KiB`;
  t.regex(prose, new RegExp(`\\(${DEFAULT_DISCOVERY_LIMITS.maxDocuments} per page\\)`));
  t.regex(prose, new RegExp(`each at most ${kib(DEFAULT_DISCOVERY_LIMITS.documentMaxBytes)}`));
  t.regex(prose, new RegExp(`\`robots.txt\` is read up to ${kib(DEFAULT_DISCOVERY_LIMITS.robotsMaxBytes)}`));
  t.regex(prose, new RegExp(`on a review at most ${REVIEW_VALID_DAYS} days old`));
  for (const code of page.match(/COVERAGE_[A-Z_]+/g) ?? [])
    t.true((COVERAGE_REFUSAL_CODES as readonly string[]).includes(code), `${code} is a coverage refusal`);

  const printed: string[] = [];
  const io = { out: (l: string) => printed.push(l), err: (l: string) => printed.push(l) };
  t.is(await runCli(['coverage', '--help'], io, {}), 0);
  const usage = printed.join('\n');
  const named = new Set(
    [...page.matchAll(/`(?:npm run ops -- )?coverage (review|add|withdraw|history)\b/g)].map((m) => m[1]!),
  );
  t.is(named.size, 4, 'the page names review, add, withdraw and history');
  for (const sub of named) t.true(usage.includes(sub), `ops coverage ${sub} exists`);
});
