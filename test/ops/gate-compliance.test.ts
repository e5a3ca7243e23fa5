import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import test from 'ava';
import { DEMO_RESOURCES } from '../../src/devnet/demo-site.js';
import { demoWorld, startWorld } from '../support/world.js';
import { digestOf } from '@rights-preflight/wire/evidence/digest.js';
import { findChromium } from '../support/chromium.js';
import { dumpDom } from '../support/chromium.js';
import { demoBuyer, exportAll, operatorEnv, verifyWithCli } from './demo-buyer.js';
import { cli } from './seed.js';

// Every resource as it was sold (docs/decisions.md, "Every resource as it was sold; no 500 and a constant-work 404 at
// the report URL"): an ingestion gate over two URLs on two origins with different classifications (the demo's permitted
// and prohibited publishers) is two lines under two origins in `ops show --json`, in the compliance export and in the
// HTML report (read back from Chromium's DOM), all tied to the one transaction; the exported rows' digests are the
// saved report's, which `rights-preflight verify` accepts. The HTML report says what it covers.

const originOf = (url: string) => new URL(url).origin;

test('a two-origin gate: two lines under two origins, one transaction, in show, export, HTML report', async (t) => {
  const w = await startWorld(demoWorld());
  try {
    const { buyer, evidenceKey } = await demoBuyer(w);
    const resources = [DEMO_RESOURCES.permitted, DEMO_RESOURCES.prohibited];
    const gate = await buyer.ingestionGate({ resources, purpose: 'rag-ingestion' });
    if (gate.status !== 'delivered') throw new Error(`the gate was not delivered: ${JSON.stringify(gate)}`);
    const classes = gate.classifications.map((c) => c.classification);
    t.deepEqual(classes, ['PERMITTED_BY_OBSERVED_DECLARATION', 'PROHIBITED_BY_OBSERVED_DECLARATION']);
    const saved = path.join(w.dataDir, 'gate.json');
    await writeFile(saved, JSON.stringify(gate.saved));
    await w.service.stop(); // the embedded store admits one process: the operator runs after the service

    const env = operatorEnv(w.dataDir);
    const expected = resources.map((r, i) => [i + 1, r, originOf(r), classes[i]]);

    // ops show --json
    const shown = await cli(['show', gate.purchase_id, '--json'], env);
    t.is(shown.code, 0, shown.stderr);
    const show = JSON.parse(shown.stdout) as {
      resources: { line: number; resource: string; origin: string; classification: string; transaction: string }[];
    };
    t.deepEqual(
      show.resources.map((r) => [r.line, r.resource, r.origin, r.classification]),
      expected,
    );
    t.deepEqual(
      show.resources.map((r) => r.transaction),
      [gate.transaction, gate.transaction],
    );
    const text = await cli(['show', gate.purchase_id], env);
    for (const r of resources) t.true(text.stdout.includes(r), `ops show lists ${r}`);

    // The compliance export: two rows, the saved report's digests, one transaction; verify accepts the report.
    const exported = await exportAll(w.dataDir);
    t.is(exported.code, 0, exported.stderr);
    const rows = exported.rows.filter((r) => r.purchase_id === gate.purchase_id);
    t.deepEqual(
      rows.map((r) => [r.line, r.resource, r.origin, r.classification]),
      expected,
    );
    const response = gate.response as unknown as { report: unknown; evidence: unknown };
    for (const r of rows) {
      t.is(r.transaction, gate.transaction);
      t.is(r.amount_micro, gate.amount_micro);
      t.is(r.report_sha256, digestOf(response.report));
      t.is(r.evidence_sha256, digestOf(response.evidence));
      t.is(r.evidence_key_id, evidenceKey.key_id);
    }
    t.is(
      rows.reduce((s, r) => s + BigInt(r.line_amount_micro as string), 0n).toString(),
      gate.amount_micro,
      'the lines share the one payment',
    );
    const v = await verifyWithCli(saved, evidenceKey.public_key);
    t.is(v.code, 0, v.stderr);
    t.regex(v.stdout, new RegExp(`OK purchase ${gate.purchase_id}`));

    // The HTML report, read back from Chromium's DOM: one table per origin, each counting its line.
    const html = path.join(w.dataDir, 'report.html');
    const reported = await cli(['compliance', 'report', '--out', html], env);
    t.is(reported.code, 0, reported.stderr);
    const chromium = findChromium();
    const dom = 'path' in chromium ? await dumpDom(html) : await readFile(html, 'utf8');
    if (!('path' in chromium)) t.log(`Chromium missing (${chromium.missing}): the file itself was read`);
    for (const r of resources) t.true(dom.includes(originOf(r)), `the report has a table for ${originOf(r)}`);
    t.is((dom.match(/<article class="origin">/g) ?? []).length, 2, 'one table per origin');
    t.regex(dom, /data-total="reports">2</, 'two delivered resources');
    t.regex(dom, /data-total="origins">2</);
    t.regex(dom, new RegExp(`data-covers="evidence_key_id">${evidenceKey.key_id}<`));
    t.regex(dom, /data-covers="network">eip155:8453</);
    t.regex(dom, /data-covers="development_chain"/, 'the devnet is marked as a development chain');
    t.regex(dom, /data-covers="recipient">0x[0-9a-fA-F]{40}/);
    t.regex(dom, /data-covers="base_url">/);
  } finally {
    await w.close();
  }
});
