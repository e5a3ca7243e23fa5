import test from 'ava';
import { readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { specifiers, tsFiles } from './import-graph.js';

// Every layer points down (docs/decisions.md, "Every layer points down"). Each rule names folders
// whose files must not import from other folders; every relative import is resolved, so a path that
// reaches a forbidden folder through ../.. is caught too. A rule may also forbid names: the packages of
// the workspace are reached by name (@rights-preflight/wire/…), never by a path into their folders.
//
//   domain ↛ src/http   no HTTP in the domain: src/http is the one place that picks statuses and x402 answers
//   src ↛ ops, test     the running service never imports its tools or its tests
//   ops ↛ test          the tools never import the tests (shared pieces live in ops/ and tests import them)
//   money path ↛ products   the money path gets each product through the registry service.ts hands it
//   product ↛ product       a product is one folder; adding or removing one touches no other
//   streams ↛ src           the domain's streams stand on the wire package alone
//   service ↛ packages/     the service reaches a workspace package by its name, never into its folder
//   test ↛ packages/        so do the tests: the wire and the buyer's entry points (@rights-preflight/buyer, /node)
//   ↛ packages/<p>/src      nothing outside a package's folder imports its src/, by path or by name, nor names a
//                           file of it by a relative path string (bundled, read or started by its path): a
//                           package's unit tests stand in packages/<p>/test (docs/decisions.md, "Tests of a package
//                           stand with the package")
//   wire ↛ anything of ours the wire package imports only packages from npm, by path or by name
//   mcp ↛ http              MCP and HTTP are two presentations side by side; neither is built on the other
//   buyer ↛ the rest        the buyer package (its sources and its tests) imports its own code and the wire by
//                           name only: it ships alone (docs/decisions.md, "An inner domain")

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const sourceFiles = (dir: string) => tsFiles(root, dir).map((f) => path.join(root, f));

/** Every folder under src/products is a product: a new one is covered without touching this file. */
const PRODUCTS = readdirSync(path.join(root, 'src/products'), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);

/** The wire package (@rights-preflight/wire), the buyer package and the buyer's sources. */
const WIRE = 'packages/wire';
const BUYER_PACKAGE = 'packages/buyer';
const BUYER = `${BUYER_PACKAGE}/src`;
/** The service's own folders: one package, the repository's root. */
const SERVICE = ['src', 'streams', 'projections', 'ops', 'bench', 'scripts'];

const readJson = (file: string) => JSON.parse(readFileSync(path.join(root, file), 'utf8'));
/** The workspace packages (the root package.json's `workspaces`): a new one is covered without touching this file. */
const WORKSPACES: readonly { folder: string; name: string }[] = (readJson('package.json').workspaces as string[]).map(
  (folder) => ({ folder, name: readJson(`${folder}/package.json`).name as string }),
);
/** Every folder of TypeScript in the repository: the service's, its tests', each package's whole folder. */
const EVERYWHERE = [...SERVICE, 'test', ...WORKSPACES.map((w) => w.folder)];
const escaped = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
/** The rule that keeps `folder`'s src/ to itself. */
const ownSrc = (folder: string) => `nothing outside ${folder} imports its src/, by path or by name`;

interface Rule {
  name: string;
  from: readonly string[];
  forbidden: readonly string[];
  /** Folders inside a forbidden one that may be imported all the same. */
  except?: readonly string[];
  /** Package names (bare specifiers) that may not be imported. */
  names?: RegExp;
  /** A relative path in a string counts as an import: `new URL('../x.ts', import.meta.url)` handed to a bundler. */
  paths?: boolean;
  /** At least this many files are scanned, so a moved folder does not make the rule vacuous. */
  atLeast: number;
}

const RULES: readonly Rule[] = [
  {
    name: 'nothing in the domain imports from src/http',
    from: ['src/money-path', 'src/products', 'src/refund', 'src/pricing', 'streams', 'projections'],
    forbidden: ['src/http'],
    atLeast: 50,
  },
  { name: 'nothing in src imports from ops/', from: ['src'], forbidden: ['ops'], atLeast: 150 },
  { name: 'nothing in src imports from test/', from: ['src'], forbidden: ['test'], atLeast: 150 },
  { name: 'nothing in ops imports from test/', from: ['ops'], forbidden: ['test'], atLeast: 20 },
  { name: 'the money path imports no product', from: ['src/money-path'], forbidden: ['src/products'], atLeast: 15 },
  {
    name: 'streams import nothing from src or the buyer, and the wire by name',
    from: ['streams'],
    forbidden: ['src', 'packages'],
    names: /^@rights-preflight\/(?!wire\/)/,
    atLeast: 15,
  },
  {
    name: 'the service reaches a workspace package by name, never into its folder',
    from: SERVICE,
    forbidden: ['packages'],
    atLeast: 250,
  },
  {
    name: 'the tests reach a workspace package by name, never into its folder',
    from: ['test'],
    forbidden: ['packages'],
    atLeast: 150,
  },
  ...WORKSPACES.map(({ folder, name }) => ({
    name: ownSrc(folder),
    from: EVERYWHERE.filter((f) => f !== folder),
    forbidden: [`${folder}/src`],
    names: new RegExp(`^${escaped(name)}/src(/|$)`),
    paths: true,
    atLeast: 400,
  })),
  {
    name: 'the wire package imports nothing of ours',
    from: [WIRE],
    forbidden: [''],
    except: [WIRE],
    names: /^@rights-preflight\//,
    atLeast: 45,
  },
  { name: 'MCP imports nothing from src/http', from: ['src/mcp'], forbidden: ['src/http'], atLeast: 2 },
  {
    name: 'the buyer imports only its own code and the wire by name',
    from: [BUYER_PACKAGE],
    forbidden: [''],
    except: [BUYER_PACKAGE],
    names: /^@rights-preflight\/(?!wire\/)/,
    atLeast: 50,
  },
  ...PRODUCTS.map((p) => ({
    name: `the product ${p} imports nothing of another product`,
    from: [`src/products/${p}`],
    forbidden: PRODUCTS.filter((o) => o !== p).map((o) => `src/products/${o}`),
    atLeast: 3,
  })),
];

/** A relative path written as a string: './x', '../x' (a template string with a placeholder is not read). */
const PATH_STRING = /(['"`])(\.\.?\/[^'"`$\s]*)\1/g;

const within = (target: string, folder: string): boolean => {
  const dir = path.join(root, folder);
  return target === dir || target.startsWith(dir + path.sep);
};

/** The imports of `source` (a file at `file`) that reach a folder the rule forbids. */
function offences(rule: Rule, file: string, source: string): string[] {
  const out: string[] = [];
  for (const spec of specifiers(source)) {
    if (!spec.startsWith('.')) {
      if (rule.names?.test(spec)) out.push(`${path.relative(root, file)} → ${spec}`);
      continue;
    }
    const target = path.resolve(path.dirname(file), spec);
    if (rule.except?.some((f) => within(target, f))) continue;
    if (rule.forbidden.some((f) => within(target, f))) out.push(`${path.relative(root, file)} → ${spec}`);
  }
  if (!rule.paths) return out;
  const imported = new Set(specifiers(source));
  for (const m of source.matchAll(PATH_STRING)) {
    if (imported.has(m[2]!)) continue; // named above, as an import
    const target = path.resolve(path.dirname(file), m[2]!);
    if (rule.except?.some((f) => within(target, f))) continue;
    if (rule.forbidden.some((f) => within(target, f))) out.push(`${path.relative(root, file)} → '${m[2]}' (a path)`);
  }
  return out;
}

test('the products are the three SKUs sold today', (t) => {
  t.deepEqual([...PRODUCTS].sort(), ['ingestion-gate', 'revalidation', 'single-report']);
});

for (const rule of RULES) {
  test(rule.name, async (t) => {
    const offenders: string[] = [];
    let scanned = 0;
    for (const dir of rule.from) {
      for (const file of sourceFiles(dir)) {
        scanned++;
        offenders.push(...offences(rule, file, await readFile(file, 'utf8')));
      }
    }
    t.true(scanned >= rule.atLeast, `scanned ${scanned} files`);
    t.deepEqual(offenders, []);
  });
}

// Each rule fails on a sample that breaks it. Specs are built at run time: as literals they would read,
// from this file's folder, as paths that do not exist.
const SAMPLES: readonly { rule: string; file: string; spec: string[] }[] = [
  {
    rule: 'nothing in the domain imports from src/http',
    file: 'src/money-path/x.ts',
    spec: ['..', 'http', 'status-of.js'],
  },
  { rule: 'nothing in src imports from ops/', file: 'src/operator/x.ts', spec: ['..', '..', 'ops', 'cli.js'] },
  { rule: 'nothing in src imports from ops/', file: 'src/x.ts', spec: ['..', 'ops', 'devnet', 'process.js'] },
  { rule: 'nothing in src imports from test/', file: 'src/x.ts', spec: ['..', 'test', 'support', 'pay.js'] },
  { rule: 'nothing in ops imports from test/', file: 'ops/world/x.ts', spec: ['..', '..', 'test', 'support', 'x.js'] },
  {
    rule: 'the money path imports no product',
    file: 'src/money-path/x.ts',
    spec: ['..', 'products', 'single-report', 'quote.js'],
  },
  {
    rule: 'streams import nothing from src or the buyer, and the wire by name',
    file: 'streams/purchase/x.ts',
    spec: ['..', '..', 'src', 'evidence', 'keys.js'],
  },
  {
    rule: 'streams import nothing from src or the buyer, and the wire by name',
    file: 'streams/refund/x.ts',
    spec: ['..', '..', 'packages', 'buyer', 'src', 'buyer.js'],
  },
  {
    rule: 'streams import nothing from src or the buyer, and the wire by name',
    file: 'streams/refund/x.ts',
    spec: ['..', '..', 'packages', 'wire', 'src', 'contract', 'common.js'],
  },
  {
    rule: 'the service reaches a workspace package by name, never into its folder',
    file: 'src/http/routes/x.ts',
    spec: ['..', '..', '..', 'packages', 'wire', 'src', 'contract', 'quote.js'],
  },
  {
    rule: 'the service reaches a workspace package by name, never into its folder',
    file: 'ops/x.ts',
    spec: ['..', 'packages', 'buyer', 'src', 'index.js'],
  },
  {
    rule: 'the service reaches a workspace package by name, never into its folder',
    file: 'projections/x.ts',
    spec: ['..', 'packages', 'wire', 'dist', 'contract', 'quote.js'],
  },
  {
    rule: 'the tests reach a workspace package by name, never into its folder',
    file: 'test/surfaces/x.ts',
    spec: ['..', '..', 'packages', 'wire', 'src', 'evidence', 'digest.js'],
  },
  {
    rule: 'the tests reach a workspace package by name, never into its folder',
    file: 'test/buyer/support/x.ts',
    spec: ['..', '..', '..', 'packages', 'buyer', 'src', 'index.js'],
  },
  {
    rule: 'the tests reach a workspace package by name, never into its folder',
    file: 'test/buyer/x.ts',
    spec: ['..', '..', 'packages', 'buyer', 'src', 'cli.js'],
  },
  {
    rule: 'the tests reach a workspace package by name, never into its folder',
    file: 'test/vectors/x.ts',
    spec: ['..', '..', 'packages', 'buyer', 'test', 'account.test.js'],
  },
  {
    rule: ownSrc(BUYER_PACKAGE),
    file: 'test/money/x.ts',
    spec: ['..', '..', 'packages', 'buyer', 'src', 'context.js'],
  },
  { rule: ownSrc(BUYER_PACKAGE), file: 'bench/x.ts', spec: ['..', 'packages', 'buyer', 'src', 'check.js'] },
  { rule: ownSrc(BUYER_PACKAGE), file: `${WIRE}/src/x.ts`, spec: ['..', '..', 'buyer', 'src', 'offer.js'] },
  { rule: ownSrc(BUYER_PACKAGE), file: 'test/surfaces/x.ts', spec: ['@rights-preflight', 'buyer', 'src', 'cli.js'] },
  {
    rule: ownSrc(WIRE),
    file: `${BUYER_PACKAGE}/test/x.ts`,
    spec: ['..', '..', 'wire', 'src', 'contract', 'quote.js'],
  },
  { rule: ownSrc(WIRE), file: 'ops/x.ts', spec: ['..', 'packages', 'wire', 'src', 'refusal.js'] },
  {
    rule: 'the wire package imports nothing of ours',
    file: `${WIRE}/src/contract/x.ts`,
    spec: ['..', '..', '..', '..', 'src', 'rsl', 'reading.js'],
  },
  {
    rule: 'the wire package imports nothing of ours',
    file: `${WIRE}/src/contract/x.ts`,
    spec: ['..', '..', '..', '..', 'streams', 'refund', 'events.js'],
  },
  {
    rule: 'the wire package imports nothing of ours',
    file: `${WIRE}/vectors/x.ts`,
    spec: ['..', '..', 'buyer', 'src', 'offer.js'],
  },
  { rule: 'the wire package imports nothing of ours', file: `${WIRE}/src/x.ts`, spec: ['@rights-preflight', 'buyer'] },
  {
    rule: 'the wire package imports nothing of ours',
    file: `${WIRE}/src/rsl/x.ts`,
    spec: ['@rights-preflight', 'wire', 'contract', 'common.js'],
  },
  {
    rule: 'streams import nothing from src or the buyer, and the wire by name',
    file: 'streams/purchase/x.ts',
    spec: ['@rights-preflight', 'buyer'],
  },
  { rule: 'MCP imports nothing from src/http', file: 'src/mcp/x.ts', spec: ['..', 'http', 'schema', 'openapi.js'] },
  {
    rule: 'the buyer imports only its own code and the wire by name',
    file: `${BUYER}/x.ts`,
    spec: ['..', '..', 'wire', 'src', 'contract', 'quote.js'],
  },
  {
    rule: 'the buyer imports only its own code and the wire by name',
    file: `${BUYER}/x.ts`,
    spec: ['..', '..', '..', 'streams', 'purchase', 'purchase-id.js'],
  },
  {
    rule: 'the buyer imports only its own code and the wire by name',
    file: `${BUYER}/x.ts`,
    spec: ['@rights-preflight', 'buyer', 'node'],
  },
  {
    rule: 'the buyer imports only its own code and the wire by name',
    file: `${BUYER}/node/x.ts`,
    spec: ['..', '..', '..', '..', 'src', 'crypto', 'seal.js'],
  },
  {
    rule: 'the buyer imports only its own code and the wire by name',
    file: `${BUYER_PACKAGE}/test/x.ts`,
    spec: ['..', '..', '..', 'test', 'support', 'world.js'],
  },
  {
    rule: 'the buyer imports only its own code and the wire by name',
    file: `${BUYER_PACKAGE}/test/x.ts`,
    spec: ['@rights-preflight', 'buyer'],
  },
  {
    rule: 'the product single-report imports nothing of another product',
    file: 'src/products/single-report/x.ts',
    spec: ['..', 'ingestion-gate', 'report.js'],
  },
  {
    rule: 'the product ingestion-gate imports nothing of another product',
    file: 'src/products/ingestion-gate/x.ts',
    spec: ['..', 'single-report', 'single-report.js'],
  },
];

for (const sample of SAMPLES) {
  test(`the scan sees a broken rule: ${sample.file} importing ${sample.spec.join('/')}`, (t) => {
    const rule = RULES.find((r) => r.name === sample.rule)!;
    const spec = sample.spec.join('/');
    const file = path.join(root, sample.file);
    const dynamic = `const m = await import('${spec}');\n`;
    for (const source of [`import { x } from '${spec}';\n`, `export type { X } from '${spec}';\n`, dynamic])
      t.deepEqual(offences(rule, file, source), [`${sample.file} → ${spec}`], source);
    // The same import from a folder the rule does not cover, or to a neighbour, is no offence.
    t.deepEqual(offences(rule, file, `import { x } from './neighbour.js';\n`), []);
  });
}

test('the wire package by name is no offence where a rule lets it in', (t) => {
  const wire = `import { QuoteRequest } from '@rights-preflight/wire/contract/quote.js';\n`;
  for (const [name, file] of [
    ['the service reaches a workspace package by name, never into its folder', 'src/http/routes/x.ts'],
    ['streams import nothing from src or the buyer, and the wire by name', 'streams/purchase/x.ts'],
    ['the buyer imports only its own code and the wire by name', `${BUYER}/x.ts`],
  ] as const) {
    const rule = RULES.find((r) => r.name === name)!;
    t.deepEqual(offences(rule, path.join(root, file), wire), [], name);
  }
});

test("a package's own files read its src/; the rule keeping it to itself reads every other folder", (t) => {
  t.deepEqual(
    WORKSPACES.map((w) => w.folder),
    [WIRE, BUYER_PACKAGE],
  );
  for (const { folder } of WORKSPACES) {
    const rule = RULES.find((r) => r.name === ownSrc(folder))!;
    t.false(
      rule.from.some((f) => within(path.join(root, folder, 'test', 'x.ts'), f)),
      `${folder}'s own tests`,
    );
    for (const outside of ['src/x.ts', 'test/x.ts', 'bench/x.ts', 'ops/x.ts', 'scripts/x.ts'])
      t.true(
        rule.from.some((f) => within(path.join(root, outside), f)),
        outside,
      );
    for (const other of WORKSPACES.filter((w) => w.folder !== folder))
      t.true(
        rule.from.some((f) => within(path.join(root, other.folder, 'test', 'x.ts'), f)),
        other.folder,
      );
  }
});

test("a relative path string into a package's src/ is an offence outside the package, as an import is", (t) => {
  const rule = RULES.find((r) => r.name === ownSrc(WIRE))!;
  const spec = ['..', '..', 'packages', 'wire', 'src', 'payment', 'binding.ts'].join('/');
  // How test/payment/binding.test.ts bundled the wire's source with esbuild before it moved to packages/wire/test.
  const bundled = `await build({ entryPoints: [new URL('${spec}', import.meta.url).pathname] });\n`;
  t.deepEqual(offences(rule, path.join(root, 'test/payment/x.ts'), bundled), [
    `test/payment/x.ts → '${spec}' (a path)`,
  ]);
  t.deepEqual(offences(rule, path.join(root, 'bench/x/x.ts'), `read("${spec}");\n`), [
    `bench/x/x.ts → '${spec}' (a path)`,
  ]);
  // The package's vectors are no src; a path within the caller's own tree, a URL or a template string is no path.
  const vectors = `readFile(new URL('../../packages/wire/vectors/binding.json', import.meta.url));\n`;
  t.deepEqual(offences(rule, path.join(root, 'test/payment/x.ts'), vectors), []);
  const template = ['`../../packages/wire/src/', '$', '{name}`'].join('');
  const others = `const u = 'https://publisher.test/a/../b'; const f = ${template}; x('./y.ts');\n`;
  t.deepEqual(offences(rule, path.join(root, 'test/payment/x.ts'), others), []);
  // The rule is the import rule: an import of the same file is named once, as an import.
  const imported = `import { x } from '${spec.replace('.ts', '.js')}';\n`;
  t.deepEqual(offences(rule, path.join(root, 'test/payment/x.ts'), imported), [
    `test/payment/x.ts → ${spec.replace('.ts', '.js')}`,
  ]);
});
