import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import test from 'ava';
import { DEMO_RESOURCES } from '../../src/devnet/demo-site.js';
import { demoWorld, startWorld } from '../support/world.js';
import { digestOf } from '@rights-preflight/wire/evidence/digest.js';
import { demoBuyer, exportAll, verifyWithCli } from './demo-buyer.js';

// The compliance export of the demo's purchases: every delivery the buyer saved is one exported row,
// and the row's digests are the saved report's own — the report `rights-preflight verify` accepts.
// The demo world is the one `npm run demo` uses (devnet, HTTPS publishers, service on the embedded store).

test('the compliance export lists each demo delivery with the digests of the report the buyer saved', async (t) => {
  const w = await startWorld(demoWorld());
  try {
    const { buyer, evidenceKey } = await demoBuyer(w);
    const saved: {
      purchase_id: string;
      file: string;
      response: { report: unknown; evidence: unknown; delivery_proof: unknown };
    }[] = [];
    for (const resource of [
      DEMO_RESOURCES.permitted,
      DEMO_RESOURCES.prohibited,
      DEMO_RESOURCES.licenseRequired,
      DEMO_RESOURCES.undeclared,
    ]) {
      const r = await buyer.buyReport({ resource, purpose: 'ai-input', tier: 'fresh' });
      if (r.status !== 'delivered') continue;
      const file = path.join(w.dataDir, `report-${saved.length}.json`);
      await writeFile(file, JSON.stringify(r.saved));
      saved.push({ purchase_id: r.purchase_id, file, response: r.response as never });
    }
    t.is(saved.length, 3, 'three of the four demo resources are delivered (one has no declaration)');
    await w.service.stop(); // the embedded store admits one process: the operator runs after the service

    const exported = await exportAll(w.dataDir);
    t.is(exported.code, 0, exported.stderr);
    const rows = exported.rows;
    t.deepEqual(rows.map((r) => r.purchase_id).sort(), saved.map((s) => s.purchase_id).sort());
    for (const s of saved) {
      const row = rows.find((r) => r.purchase_id === s.purchase_id)!;
      t.is(row.report_sha256, digestOf(s.response.report));
      t.is(row.evidence_sha256, digestOf(s.response.evidence));
      t.is(row.delivery_proof_sha256, digestOf(s.response.delivery_proof));
      t.is(row.evidence_key_id, evidenceKey.key_id);
      t.true((row.rsl_document_sha256 as string[]).length > 0, 'the observed RSL documents are named by digest');
      const v = await verifyWithCli(s.file, evidenceKey.public_key);
      t.is(v.code, 0, v.stderr);
      t.regex(v.stdout, new RegExp(`OK purchase ${s.purchase_id}`));
    }
  } finally {
    await w.close();
  }
});
