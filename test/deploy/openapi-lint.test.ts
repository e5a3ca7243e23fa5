import test from 'ava';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { buildOpenApi } from '../../src/http/schema/openapi.js';
import { productCatalog } from '../../src/service/product-registry.js';
import { withOperations } from '../../src/http/schema/openapi-operations.js';
import { SIWX_STATEMENT } from '@rights-preflight/wire/ingestion-gate/siwx-challenge.js';

// The served OpenAPI document passes Redocly's recommended ruleset with no error, names and tags every
// operation, says which credentials each takes, and documents the HTTP layer's 413/415/429 answers.

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const run = promisify(execFile);
const REDOCLY = path.join(ROOT, 'node_modules/@redocly/cli/bin/cli.js');

async function lint(doc: unknown): Promise<{ errors: number; warnings: number; output: string }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'rights-openapi-'));
  try {
    const file = path.join(dir, 'openapi.json');
    await writeFile(file, JSON.stringify(doc));
    const r = await run(process.execPath, [REDOCLY, 'lint', '--extends', 'recommended', '--format', 'json', file], {
      cwd: dir,
      maxBuffer: 1 << 24,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    }).catch((e: { stdout: string; stderr: string }) => e);
    const report = JSON.parse(r.stdout) as {
      totals: { errors: number; warnings: number };
      problems: { ruleId: string; severity: string; message: string }[];
    };
    const output = report.problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message}`).join('\n');
    return { errors: report.totals.errors, warnings: report.totals.warnings, output };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const doc = buildOpenApi({
  version: '0.1.0',
  serverUrl: 'http://127.0.0.1:8402',
  products: productCatalog().openapi(),
}) as any;
const operations = Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([p, item]) =>
  Object.entries(item).map(([m, op]) => ({ key: `${m.toUpperCase()} ${p}`, op })),
);

test('redocly lint --extends recommended: 0 errors and 0 warnings', async (t) => {
  const { errors, warnings, output } = await lint(doc);
  t.is(errors, 0, output);
  t.is(warnings, 0, output);
});

test('the lint sees warnings: an unused schema is one', async (t) => {
  const broken = structuredClone(doc);
  broken.components.schemas.Unused = { type: 'object' };
  const { warnings, output } = await lint(broken);
  t.true(warnings > 0, output);
});

test('the inspect body states geo as ISO 3166-1 alpha-2 or null; a header list item keeps its description', (t) => {
  t.deepEqual(doc.components.schemas.InspectRequest.properties.geo.anyOf[0], {
    type: 'string',
    title: 'Geo',
    pattern: '^[A-Z]{2}$',
  });
  const header = doc.components.schemas.PreflightDiscovery.properties.headers.items;
  t.truthy(header.properties.description);
  t.truthy(doc.paths['/v1/rights/inspect'].post.responses[503]);
});

test('the lint can fail: an operation without security is an error', async (t) => {
  const broken = structuredClone(doc);
  delete broken.paths['/v1/capabilities'].get.security;
  const { errors } = await lint(broken);
  t.true(errors > 0);
});

test(
  'every operation has a unique operationId, a declared tag and security; ' + 'bodies document 413/415, /v1 calls 429',
  (t) => {
    const ids = operations.map((o) => o.op.operationId);
    t.is(new Set(ids).size, ids.length);
    const tags = new Set((doc.tags as { name: string }[]).map((x) => x.name));
    for (const { key, op } of operations) {
      t.regex(op.operationId ?? '', /^[a-z][A-Za-z]+$/, key);
      t.true(op.tags?.length === 1 && tags.has(op.tags[0]), key);
      t.true(Array.isArray(op.security), key);
      for (const requirement of op.security)
        for (const scheme of Object.keys(requirement))
          t.truthy(doc.components.securitySchemes[scheme], `${key}: ${scheme}`);
      if (op.requestBody) {
        t.truthy(op.responses[413], key);
        t.truthy(op.responses[415], key);
      }
      if (key.includes(' /v1/')) t.truthy(op.responses[429], key);
    }
    t.deepEqual(doc.paths['/v1/rights/reports/{id}'].get.security, [
      { ServiceClaim: [] },
      { ServiceClaim: [], PaymentSignature: [] },
    ]);
    t.is(doc.components.securitySchemes.PaymentSignature.name, 'PAYMENT-SIGNATURE');
    t.true(doc.components.securitySchemes.SignInWithX.description.includes(SIWX_STATEMENT));
  },
);

test('an operation missing from the table is refused, not served anonymously', (t) => {
  t.throws(() => withOperations({ paths: { '/v1/new': { get: { responses: {} } } }, components: {} }), {
    message: /GET \/v1\/new/,
  });
});
