import test from 'ava';
import { readdirSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// Every layer points down (docs/decisions.md, "Every layer points down"). Each rule names folders
// whose files must not import from other folders; every relative import is resolved, so a path that
// reaches a forbidden folder through ../.. is caught too.
//
//   domain ↛ src/http   no HTTP in the domain: src/http is the one place that picks statuses and x402 answers
//   src ↛ ops, test     the running service never imports its tools or its tests
//   ops ↛ test          the tools never import the tests (shared pieces live in ops/ and tests import them)
//   money path ↛ products   the money path gets each product through the registry service.ts hands it
//   product ↛ product       a product is one folder; adding or removing one touches no other
//   streams ↛ src           the domain's streams stand on the shared leaf alone (packages/buyer/src/wire)
//   leaf ↛ anything of ours the leaf of codecs and vocabularies imports only packages from npm
//   contract ↛ rsl          the wire contract names RSL vocabularies through the leaf, not the RSL engine
//   mcp ↛ http              MCP and HTTP are two presentations side by side; neither is built on the other
//   buyer ↛ the rest        the buyer package imports its own code and the leaf only: it ships alone
//                           (docs/decisions.md, "An inner domain")

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Every folder under src/products is a product: a new one is covered without touching this file. */
const PRODUCTS = readdirSync(path.join(root, 'src/products'), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);

/** The shared leaf of codecs and vocabularies, and the buyer package that holds it. */
const LEAF = 'packages/buyer/src/wire';
const BUYER = 'packages/buyer/src';

interface Rule {
  name: string;
  from: readonly string[];
  forbidden: readonly string[];
  /** Folders inside a forbidden one that may be imported all the same. */
  except?: readonly string[];
  /** At least this many files are scanned, so a moved folder does not make the rule vacuous. */
  atLeast: number;
}

const RULES: readonly Rule[] = [
  {
    name: 'nothing in the domain imports from src/http',
    from: ['src/money-path', 'src/products', 'src/refund', 'src/pricing', 'src/contract', 'streams', 'projections'],
    forbidden: ['src/http'],
    atLeast: 50,
  },
  { name: 'nothing in src imports from ops/', from: ['src'], forbidden: ['ops'], atLeast: 150 },
  { name: 'nothing in src imports from test/', from: ['src'], forbidden: ['test'], atLeast: 150 },
  { name: 'nothing in ops imports from test/', from: ['ops'], forbidden: ['test'], atLeast: 20 },
  { name: 'the money path imports no product', from: ['src/money-path'], forbidden: ['src/products'], atLeast: 15 },
  {
    name: 'streams import nothing from src or the buyer but the shared leaf',
    from: ['streams'],
    forbidden: ['src', BUYER],
    except: [LEAF],
    atLeast: 15,
  },
  { name: 'the shared leaf imports nothing of ours', from: [LEAF], forbidden: [''], except: [LEAF], atLeast: 30 },
  {
    name: 'the contract imports nothing from src/rsl',
    from: ['src/contract', `${LEAF}/contract`],
    forbidden: ['src/rsl'],
    atLeast: 15,
  },
  { name: 'MCP imports nothing from src/http', from: ['src/mcp'], forbidden: ['src/http'], atLeast: 2 },
  {
    name: 'the buyer imports only its own code and the shared leaf',
    from: [BUYER],
    forbidden: [''],
    except: [BUYER],
    atLeast: 15,
  },
  ...PRODUCTS.map((p) => ({
    name: `the product ${p} imports nothing of another product`,
    from: [`src/products/${p}`],
    forbidden: PRODUCTS.filter((o) => o !== p).map((o) => `src/products/${o}`),
    atLeast: 3,
  })),
];

async function tsFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await tsFiles(p)));
    else if (entry.name.endsWith('.ts')) out.push(p);
  }
  return out;
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

const within = (target: string, folder: string): boolean => {
  const dir = path.join(root, folder);
  return target === dir || target.startsWith(dir + path.sep);
};

/** The imports of `source` (a file at `file`) that reach a folder the rule forbids. */
function offences(rule: Rule, file: string, source: string): string[] {
  const out: string[] = [];
  for (const m of source.matchAll(IMPORT)) {
    const spec = m[1] ?? m[2]!;
    if (!spec.startsWith('.')) continue;
    const target = path.resolve(path.dirname(file), spec);
    if (rule.except?.some((f) => within(target, f))) continue;
    if (rule.forbidden.some((f) => within(target, f))) out.push(`${path.relative(root, file)} → ${spec}`);
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
      for (const file of await tsFiles(path.join(root, dir))) {
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
    rule: 'streams import nothing from src or the buyer but the shared leaf',
    file: 'streams/purchase/x.ts',
    spec: ['..', '..', 'src', 'evidence', 'keys.js'],
  },
  {
    rule: 'streams import nothing from src or the buyer but the shared leaf',
    file: 'streams/refund/x.ts',
    spec: ['..', '..', 'packages', 'buyer', 'src', 'buyer.js'],
  },
  {
    rule: 'the shared leaf imports nothing of ours',
    file: `${LEAF}/contract/x.ts`,
    spec: ['..', '..', '..', '..', '..', 'src', 'rsl', 'reading.js'],
  },
  { rule: 'the shared leaf imports nothing of ours', file: `${LEAF}/x.ts`, spec: ['..', 'offer.js'] },
  { rule: 'the contract imports nothing from src/rsl', file: 'src/contract/x.ts', spec: ['..', 'rsl', 'reading.js'] },
  {
    rule: 'the contract imports nothing from src/rsl',
    file: `${LEAF}/contract/x.ts`,
    spec: ['..', '..', '..', '..', '..', 'src', 'rsl', 'parse.js'],
  },
  { rule: 'MCP imports nothing from src/http', file: 'src/mcp/x.ts', spec: ['..', 'http', 'schema', 'openapi.js'] },
  {
    rule: 'the buyer imports only its own code and the shared leaf',
    file: `${BUYER}/x.ts`,
    spec: ['..', '..', '..', 'streams', 'purchase', 'purchase-id.js'],
  },
  {
    rule: 'the buyer imports only its own code and the shared leaf',
    file: `${BUYER}/node/x.ts`,
    spec: ['..', '..', '..', '..', 'src', 'crypto', 'seal.js'],
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
