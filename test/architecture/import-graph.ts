import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

// The import graph of the code the service and its tools are made of, and the rules the layers keep on it
// (layers.test.ts). Each rule is a function of a graph, so a test can hand it a small broken graph and see
// it fail. Paths are repository-relative with `/`; an import is resolved to the .ts file it names.

export interface Edge {
  from: string;
  to: string;
  /** `import type` (or every name taken as `type`): gone at run time, still a dependency of the reader. */
  typeOnly: boolean;
  /** `import('…')`: loaded when used. */
  dynamic: boolean;
}

/** A module another module starts by a path string (a worker thread or a child process), not an import. */
export interface Launch {
  from: string;
  to: string;
}

export interface Graph {
  files: readonly string[];
  edges: readonly Edge[];
  launches: readonly Launch[];
}

const IMPORT =
  /(?:^|\n)\s*(import|export)\s+(type\s+)?([^'"]*?)from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;
const LAUNCH = /siblingModule\(\s*import\.meta\.url\s*,\s*['"]([^'"]+)['"]\s*\)/g;

/** The .ts files under `dir` (relative to `root`), as paths relative to `root`. */
export function tsFiles(root: string, dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const p = `${dir}/${entry.name}`;
    if (entry.isDirectory()) out.push(...tsFiles(root, p));
    else if (entry.name.endsWith('.ts')) out.push(p);
  }
  return out;
}

/** What each import and export of `source` names, static and dynamic. */
export const specifiers = (source: string): string[] => [...source.matchAll(IMPORT)].map((m) => m[4] ?? m[5]!);

const resolve = (from: string, spec: string): string =>
  path.posix.normalize(path.posix.join(path.posix.dirname(from), spec)).replace(/\.js$/, '.ts');

const allTypes = (names: string): boolean => {
  const inner = /^\{([^}]*)\}$/.exec(names.trim())?.[1];
  if (inner === undefined) return false;
  const parts = inner
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  return parts.length > 0 && parts.every((p) => p.startsWith('type '));
};

/** The graph of every .ts file under `roots` (folders of the repository at `root`). */
export function importGraph(root: string, roots: readonly string[]): Graph {
  const files = roots.flatMap((r) => tsFiles(root, r));
  const edges: Edge[] = [];
  const launches: Launch[] = [];
  for (const file of files) {
    const source = readFileSync(path.join(root, file), 'utf8');
    for (const m of source.matchAll(IMPORT)) {
      const spec = m[4] ?? m[5]!;
      if (!spec.startsWith('.')) continue;
      edges.push({
        from: file,
        to: resolve(file, spec),
        typeOnly: Boolean(m[2]) || (m[3] !== undefined && allTypes(m[3])),
        dynamic: m[5] !== undefined,
      });
    }
    for (const m of source.matchAll(LAUNCH)) launches.push({ from: file, to: `${resolve(file, m[1]!)}.ts` });
  }
  return { files, edges, launches };
}

export const within = (file: string, place: string): boolean =>
  place.endsWith('.ts') ? file === place : file === place || file.startsWith(`${place}/`);
const inAny = (file: string, places: readonly string[]) => places.some((p) => within(file, p));
const show = (e: Edge) => `${e.from} → ${e.to}${e.typeOnly ? ' (type)' : ''}${e.dynamic ? ' (import())' : ''}`;

/** Files of `from` may import only files of `allowed` (npm packages are not in the graph). */
export function onlyImports(g: Graph, from: readonly string[], allowed: readonly string[]): string[] {
  return g.edges.filter((e) => inAny(e.from, from) && !inAny(e.to, allowed)).map(show);
}

/** No file of `from` imports a file of `forbidden`, type imports included. */
export function importsNone(g: Graph, from: readonly string[], forbidden: readonly string[]): string[] {
  return g.edges.filter((e) => inAny(e.from, from) && inAny(e.to, forbidden)).map(show);
}

/** Each group imports no other group (a group is the folders of one adapter). */
export function groupsApart(g: Graph, groups: Readonly<Record<string, readonly string[]>>): string[] {
  const groupOf = (f: string) => Object.entries(groups).find(([, places]) => inAny(f, places))?.[0];
  return g.edges
    .filter((e) => {
      const a = groupOf(e.from);
      const b = groupOf(e.to);
      return a !== undefined && b !== undefined && a !== b;
    })
    .map(show);
}

/** Strongly connected components of more than one node, each sorted, in a stable order. */
function circles(adjacency: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of adjacency.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const c: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        c.push(w);
      } while (w !== v);
      if (c.length > 1) out.push(c.sort());
    }
  };
  for (const v of [...adjacency.keys()].sort()) if (!index.has(v)) visit(v);
  return out.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

function adjacencyOf(pairs: Iterable<readonly [string, string]>): Map<string, Set<string>> {
  const adjacency = new Map<string, Set<string>>();
  for (const [a, b] of pairs) {
    if (!adjacency.has(a)) adjacency.set(a, new Set());
    adjacency.get(a)!.add(b);
  }
  return adjacency;
}

/** Files that import each other in a loop, through static imports (type imports included). */
export function fileCircles(g: Graph): string[] {
  return circles(adjacencyOf(g.edges.filter((e) => !e.dynamic).map((e) => [e.from, e.to] as const))).map((c) =>
    c.join(' ⇄ '),
  );
}

/**
 * Folders that import each other in a loop, inside each of `roots`: an import from a/x/… to a/y/… is an
 * arrow between the sibling folders a/x and a/y (a folder stands for everything under it); an import
 * between a folder and one above it is the folder's own business and draws none.
 */
export function folderCircles(g: Graph, roots: readonly string[]): string[] {
  const pairs: [string, string][] = [];
  for (const e of g.edges) {
    if (e.dynamic) continue;
    const root = roots.find((r) => within(e.from, r) && within(e.to, r));
    if (!root) continue;
    const a = path.posix.dirname(e.from).split('/');
    const b = path.posix.dirname(e.to).split('/');
    let i = 0;
    while (i < a.length && i < b.length && a[i] === b[i]) i++;
    if (i === a.length || i === b.length) continue;
    pairs.push([a.slice(0, i + 1).join('/'), b.slice(0, i + 1).join('/')]);
  }
  return circles(adjacencyOf(pairs)).map((c) => c.join(' ⇄ '));
}

/**
 * Folders that import each other in a loop, a folder and the folders inside it included: the files directly
 * in a folder are the node `folder/.`, a folder below it stands for everything under it. So a/x.ts → a/b/y.ts
 * and a/b/z.ts → a/w.ts is the loop `a/. ⇄ a/b`; sibling folders draw their arrows as in folderCircles.
 */
export function nestedFolderCircles(g: Graph, roots: readonly string[]): string[] {
  const pairs: [string, string][] = [];
  for (const e of g.edges) {
    if (e.dynamic) continue;
    if (!roots.some((r) => within(e.from, r) && within(e.to, r))) continue;
    const a = path.posix.dirname(e.from).split('/');
    const b = path.posix.dirname(e.to).split('/');
    let i = 0;
    while (i < a.length && i < b.length && a[i] === b[i]) i++;
    if (i === a.length && i === b.length) continue;
    const node = (d: string[]) => (i === d.length ? `${d.join('/')}/.` : d.slice(0, i + 1).join('/'));
    pairs.push([node(a), node(b)]);
  }
  return circles(adjacencyOf(pairs)).map((c) => c.join(' ⇄ '));
}

/** Every module started by a path string, as `from → to`, for the test to name. */
export const launchesOf = (g: Graph): string[] => g.launches.map((l) => `${l.from} → ${l.to}`).sort();
