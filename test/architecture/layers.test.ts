import test from 'ava';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  fileCircles,
  folderCircles,
  groupsApart,
  nestedFolderCircles,
  importGraph,
  importsNone,
  launchesOf,
  onlyImports,
  within,
  type Graph,
} from './import-graph.js';

// The layers below the composition (docs/architecture.md), held on the import graph of everything the
// service and its tools are made of. imports.test.ts holds which folder may import which; this file
// holds what a folder rule cannot say:
//
//   config is a leaf          the configuration imports nothing of ours but itself and the wire leaf;
//                             the adapters are handed what they need of it, they never import it
//   adapters stand apart      an adapter imports no other adapter and nothing of the money path (a port
//                             lives beside its adapter, as src/store/port.ts does)
//   projections get a store   the read side is handed its stores; it opens none
//   no circles                no files, no sibling folders, and no folder and the folders inside it, that import
//                             each other in a loop (docs/decisions.md, "Tests of a package stand with the package")
//   launches are named        a module started by a path string (a worker, a child process) is an
//                             edge no import shows: each is named here, so a new one is seen

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const GRAPH = importGraph(ROOT, ['src', 'streams', 'projections', 'ops', 'packages/buyer/src']);

/** The shared leaf of codecs and vocabularies. */
const LEAF = 'packages/wire/src';
const CONFIG = ['src/config', 'src/config/config.ts', 'src/config/deploy-config.ts', 'src/config/origin-list-codec.ts'];
/** Each adapter's folders: the world outside the service, each behind one. */
const ADAPTERS: Record<string, readonly string[]> = {
  reading: ['src/rsl', 'src/signals', 'src/matching'],
  payment: ['src/payment'],
  store: ['src/store'],
  crypto: ['src/crypto'],
  evidence: ['src/evidence'],
};
const ALL_ADAPTERS = Object.values(ADAPTERS).flat();
const MONEY_PATH = ['src/money-path'];
const PROJECTIONS = ['projections'];
/** What opens a store: only the composition (and the tools) may. */
const STORE_OPENERS = [
  'src/store/open/open.ts',
  'src/store/open/read-store.ts',
  'src/store/embedded',
  'src/store/postgres',
  'src/store/esdb',
  'src/store/sqlite/open-sqlite.ts',
];
const CIRCLE_ROOTS = ['src', 'streams', 'projections'];
/** Every module started by a path string: the starter, and what it starts. */
const LAUNCHES = [
  'src/devnet/process.ts → src/devnet/main.ts',
  'src/rsl/inspect-pool.ts → src/rsl/inspect-worker.ts',
  'src/rsl/signal-reader-pool.ts → src/rsl/signal-reader-worker.ts',
  'src/store/embedded/pglite-worker-driver.ts → src/store/embedded/pglite-worker.ts',
];

interface Rule {
  name: string;
  /** The places the rule reads: each must hold a file, so a moved folder does not make the rule vacuous. */
  reads: readonly string[];
  check: (g: Graph) => string[];
}

const RULES: readonly Rule[] = [
  {
    name: 'the configuration imports nothing of ours but itself and the wire leaf',
    reads: CONFIG,
    check: (g) => onlyImports(g, CONFIG, [...CONFIG, LEAF]),
  },
  {
    name: 'no adapter imports the configuration: it is handed what it needs',
    reads: ALL_ADAPTERS,
    check: (g) => importsNone(g, ALL_ADAPTERS, CONFIG),
  },
  {
    name: 'no adapter imports another adapter',
    reads: ALL_ADAPTERS,
    check: (g) => groupsApart(g, ADAPTERS),
  },
  {
    name: 'no adapter imports the money path',
    reads: ALL_ADAPTERS,
    check: (g) => importsNone(g, ALL_ADAPTERS, MONEY_PATH),
  },
  {
    name: 'the projections open no store: they are handed theirs',
    reads: PROJECTIONS,
    check: (g) => importsNone(g, PROJECTIONS, STORE_OPENERS),
  },
  { name: 'no files import each other in a loop', reads: CIRCLE_ROOTS, check: fileCircles },
  {
    name: 'no sibling folders import each other in a loop',
    reads: CIRCLE_ROOTS,
    check: (g) => folderCircles(g, CIRCLE_ROOTS),
  },
  {
    name: 'no folder and the folders inside it import each other in a loop',
    reads: CIRCLE_ROOTS,
    check: (g) => nestedFolderCircles(g, CIRCLE_ROOTS),
  },
  {
    name: 'every module started by a path string is named here',
    reads: ['src'],
    check: (g) => {
      const found = launchesOf(g);
      return [
        ...found.filter((l) => !LAUNCHES.includes(l)).map((l) => `not named: ${l}`),
        ...LAUNCHES.filter((l) => !found.includes(l)).map((l) => `named, not found: ${l}`),
        ...g.launches.filter((l) => !g.files.includes(l.to)).map((l) => `starts a file that is not there: ${l.to}`),
      ];
    },
  },
];

for (const rule of RULES) {
  test(rule.name, (t) => {
    for (const place of rule.reads)
      t.true(
        GRAPH.files.some((f) => within(f, place)),
        `${place} holds no file: the rule would read nothing there`,
      );
    t.deepEqual(rule.check(GRAPH), []);
  });
}

// Each rule fails on a small graph that breaks it. Paths of files that are gone are built at run time,
// so a tree codemod's rewriting of moved paths leaves them as they were.
const gone = (...parts: string[]) => parts.join('/');
const edge = (from: string, to: string, typeOnly = false) => ({ from, to, typeOnly, dynamic: false });
const graphOf = (edges: ReturnType<typeof edge>[], launches: { from: string; to: string }[] = []): Graph => ({
  files: [...new Set(edges.flatMap((e) => [e.from, e.to]).concat(launches.flatMap((l) => [l.from, l.to])))],
  edges,
  launches,
});
const BROKEN: Record<string, Graph> = {
  'the configuration imports nothing of ours but itself and the wire leaf': graphOf([
    edge('src/config/config.ts', 'src/rsl/robots.ts'),
  ]),
  'no adapter imports the configuration: it is handed what it needs': graphOf([
    edge('src/rsl/engine.ts', 'src/config/config.ts', true),
  ]),
  'no adapter imports another adapter': graphOf([edge('src/crypto/checkpoint-key.ts', 'src/evidence/keys.ts')]),
  'no adapter imports the money path': graphOf([
    edge('src/payment/settlement/settlement.ts', gone('src/money-path', 'settlement-port.ts'), true),
  ]),
  'the projections open no store: they are handed theirs': graphOf([
    edge('projections/read-models.ts', 'src/store/open/open.ts'),
  ]),
  'no files import each other in a loop': graphOf([
    edge('src/rsl/discovery.ts', 'src/rsl/html-reading.ts'),
    edge('src/rsl/html-reading.ts', 'src/rsl/discovery.ts', true),
  ]),
  'no sibling folders import each other in a loop': graphOf([
    edge('src/rsl/signal-discovery.ts', 'src/signals/read-signals.ts'),
    edge('src/signals/signal-work.ts', gone('src/rsl', 'pattern.ts')),
  ]),
  'no folder and the folders inside it import each other in a loop': graphOf([
    edge('src/payment/a.ts', 'src/payment/settlement/b.ts'),
    edge('src/payment/settlement/c.ts', 'src/payment/d.ts'),
  ]),
  'every module started by a path string is named here': graphOf(
    [],
    [
      ...LAUNCHES.map((l) => {
        const [from, to] = l.split(' → ') as [string, string];
        return { from, to };
      }),
      { from: 'src/x/pool.ts', to: 'src/x/worker.ts' },
    ],
  ),
};

test('each rule fails on a graph that breaks it (the rules can fail)', (t) => {
  t.deepEqual(Object.keys(BROKEN).sort(), RULES.map((r) => r.name).sort());
  for (const rule of RULES) t.not(rule.check(BROKEN[rule.name]!).length, 0, rule.name);
});

test('a folder and the folders inside it are no circle; a subfolder of a sibling is', (t) => {
  const parentAndChild = graphOf([
    edge('src/payment/a.ts', 'src/payment/settlement/b.ts'),
    edge('src/payment/settlement/c.ts', 'src/payment/d.ts'),
  ]);
  t.deepEqual(folderCircles(parentAndChild, CIRCLE_ROOTS), []);
  const cousins = graphOf([
    edge('src/http/routes/a.ts', 'src/http/schema/b.ts'),
    edge('src/http/schema/c.ts', 'src/http/routes/d.ts'),
  ]);
  t.deepEqual(folderCircles(cousins, CIRCLE_ROOTS), ['src/http/routes ⇄ src/http/schema']);
});

test('a folder and the folders inside it in a loop are a nested circle, one level up as well', (t) => {
  const parentAndChild = graphOf([
    edge('src/payment/a.ts', 'src/payment/settlement/b.ts'),
    edge('src/payment/settlement/c.ts', 'src/payment/d.ts'),
  ]);
  t.deepEqual(nestedFolderCircles(parentAndChild, CIRCLE_ROOTS), ['src/payment/. ⇄ src/payment/settlement']);
  // Down only, or through a sibling's subfolder: no loop of the parent's own files.
  const down = graphOf([
    edge('src/payment/a.ts', 'src/payment/settlement/b.ts'),
    edge('src/payment/settlement/c.ts', 'src/payment/x402/d.ts'),
  ]);
  t.deepEqual(nestedFolderCircles(down, CIRCLE_ROOTS), []);
  const above = graphOf([edge('src/a.ts', 'src/rsl/b.ts'), edge('src/rsl/c.ts', 'src/d.ts')]);
  t.deepEqual(nestedFolderCircles(above, CIRCLE_ROOTS), ['src/. ⇄ src/rsl']);
  // Today's tree has none (src/operator, src/rsl and src/store had one each when the rule came).
  t.deepEqual(nestedFolderCircles(GRAPH, CIRCLE_ROOTS), []);
});
