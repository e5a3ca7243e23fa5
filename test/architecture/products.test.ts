import test from 'ava';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { specifiers, tsFiles } from './import-graph.js';
import { QuotedProduct } from '../../streams/purchase/quoted-product.js';

// A product is its folder (docs/decisions.md, "One sale flow"):
//   a product imports, of the money path, only the product interface and the sale flow, and nothing of
//   the composition (src/service) or of HTTP: the service reads it from the registry, never the reverse;
//   no production file outside a product's folder, the registry and the wire package names a SKU (its
//   constant or its string): every table of products is the registry's, so a new product edits none.
// Each rule is shown failing on a sample that breaks it.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const sourceFiles = (dir: string) => tsFiles(root, dir).map((f) => path.join(root, f));

/** Every SKU the `Quoted` union knows (one member per product). */
const SKUS: readonly string[] = QuotedProduct.types.map((m) => m.props.sku.value);

const rel = (file: string) => path.relative(root, file).split(path.sep).join('/');

/** Of the money path, a product may import these two; of the composition and of HTTP, nothing. */
const PRODUCT_MAY_IMPORT = ['src/money-path/product.js', 'src/money-path/sale.js'];
const PRODUCT_MAY_NOT = ['src/money-path/', 'src/service/', 'src/service.js', 'src/http/'];

/** The imports of a file under src/products that reach past the product interface and the sale flow. */
function productOffences(file: string, source: string): string[] {
  const out: string[] = [];
  for (const spec of specifiers(source)) {
    if (!spec.startsWith('.')) continue;
    const target = rel(path.resolve(path.dirname(path.join(root, file)), spec));
    if (PRODUCT_MAY_IMPORT.includes(target)) continue;
    if (PRODUCT_MAY_NOT.some((f) => (f.endsWith('/') ? target.startsWith(f) : target === f)))
      out.push(`${file} → ${spec}`);
  }
  return out;
}

/** Where a SKU may be named: a product's folder, the registry, the `Quoted` union (one member per product). */
const MAY_NAME_SKU = [
  /^src\/products\/[^/]+\//,
  /^src\/service\/product-registry\.ts$/,
  /^streams\/purchase\/quoted-product\.ts$/,
];
/**
 * Files that still name a SKU, each for a reason of its own, to be moved into the product's folder: the
 * compliance export's revalidation columns (its earlier reports, its count in the HTML report). The list
 * only shrinks: a file that no longer names one fails the test below until it is struck.
 */
const STILL_NAMING: readonly string[] = [
  'src/operator/compliance.ts',
  'projections/compliance/report-html.ts',
  'projections/compliance/compliance-row.ts',
];
const SKU_CONSTANT = /\b[A-Z][A-Z0-9_]*_SKU\b/;

/** Whether a production file names a SKU where it may not. */
function namesSku(file: string, source: string): boolean {
  if (MAY_NAME_SKU.some((r) => r.test(file))) return false;
  return SKU_CONSTANT.test(source) || SKUS.some((sku) => source.includes(sku));
}

test('the SKUs are the three products of the Quoted union', (t) => {
  t.deepEqual([...SKUS].sort(), ['rights.ingestion-gate.v1', 'rights.preflight.v1', 'rights.revalidate.v1']);
});

test('a product imports, of the money path, only the product interface and the sale flow', async (t) => {
  const files = sourceFiles('src/products');
  t.true(files.length >= 20, `scanned ${files.length} files`);
  const offenders: string[] = [];
  for (const file of files) offenders.push(...productOffences(rel(file), await readFile(file, 'utf8')));
  t.deepEqual(offenders, []);
});

test('no production file outside a product, the registry and the wire package names a SKU', async (t) => {
  const named: string[] = [];
  let scanned = 0;
  for (const dir of ['src', 'streams', 'projections']) {
    for (const file of sourceFiles(dir)) {
      scanned++;
      if (namesSku(rel(file), await readFile(file, 'utf8'))) named.push(rel(file));
    }
  }
  t.true(scanned >= 300, `scanned ${scanned} files`);
  t.deepEqual(
    named.filter((f) => !STILL_NAMING.includes(f)),
    [],
  );
  t.deepEqual(
    STILL_NAMING.filter((f) => !named.includes(f)),
    [],
    'a file that no longer names a SKU is struck from the list',
  );
});

// The samples climb from a product's folder; they are joined at run time, as the self-contained scan of
// test/repo reads a literal climb from this file as a path outside the repository.
const up2 = (rest: string) => ['..', '..', rest].join('/');

test('the product rule fails on a product reaching past the sale flow', (t) => {
  const file = 'src/products/single-report/x.ts';
  for (const spec of [
    up2('money-path/redeem.js'),
    up2('money-path/purchase-stream.js'),
    up2('service/product-registry.js'),
  ])
    t.deepEqual(productOffences(file, `import { x } from '${spec}';\n`), [`${file} → ${spec}`], spec);
  t.deepEqual(productOffences(file, `export type { X } from '${up2('http/present-redemption.js')}';\n`).length, 1);
  t.deepEqual(productOffences(file, `const m = await import('${up2('money-path/resume.js')}');\n`).length, 1);
  // The product interface, the sale flow, the listing and its own folder are no offence.
  for (const spec of [up2('money-path/product.js'), up2('money-path/sale.js'), '../listing.js', './report.js'])
    t.deepEqual(productOffences(file, `import { x } from '${spec}';\n`), [], spec);
});

test('the SKU rule fails on a SKU named outside a product, the registry and the union', (t) => {
  const constant = `import { GATE_SKU } from '@rights-preflight/wire/contract/ingestion-gate.js';\n`;
  const literal = `const paidAt = { 'rights.revalidate.v1': '/v1/rights/revalidate' };\n`;
  for (const file of [
    'src/money-path/x.ts',
    'src/http/present-redemption.ts',
    'src/service/money-path-deps.ts',
    'projections/x.ts',
  ]) {
    t.true(namesSku(file, constant), file);
    t.true(namesSku(file, literal), file);
  }
  for (const file of [
    'src/products/ingestion-gate/listing.ts',
    'src/service/product-registry.ts',
    'streams/purchase/quoted-product.ts',
  ])
    t.false(namesSku(file, constant), file);
  t.false(namesSku('src/http/x.ts', `const path = '/v1/rights/reports';\n`));
});
