import test from 'ava';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

// Reviewable modules (docs/decisions.md, "Reviewable modules and dead code").
// Production code is what the service runs and ships: src/, streams/, projections/, the wire package
// (packages/wire/src) and the buyer package (packages/buyer/src). ops/ (operator tools), test/, bench/ and
// scripts/ are not held to these limits.
//
//   no production file is over MAX_FILE_LINES lines
//   no function in src/ or the wire and buyer packages spans MAX_FUNCTION_LINES lines or more, nested functions
//   included: a closure that holds a whole module is measured as one function, which is the point

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const PRODUCTION = ['src', 'streams', 'projections', 'packages/wire/src', 'packages/buyer/src'];
const MAX_FILE_LINES = 400;
const MAX_FUNCTION_LINES = 100;

async function tsFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(path.join(root, dir), { withFileTypes: true })) {
    const rel = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await tsFiles(rel)));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) out.push(rel);
  }
  return out;
}

const lineCount = (text: string): number => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

interface FunctionSpan {
  where: string;
  lines: number;
}

/** Every function-like node of `file` with the number of source lines it spans. */
function functionSpans(file: string, text: string): FunctionSpan[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const out: FunctionSpan[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      out.push({ where: `${file}:${start + 1} ${functionName(node)}`, lines: end - start + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

function functionName(node: ts.Node): string {
  const named = node as { name?: ts.Node };
  if (named.name && ts.isIdentifier(named.name)) return named.name.text;
  if (ts.isVariableDeclaration(node.parent) && ts.isIdentifier(node.parent.name)) return node.parent.name.text;
  if (ts.isPropertyAssignment(node.parent) && ts.isIdentifier(node.parent.name)) return node.parent.name.text;
  return '(anonymous)';
}

const production = async (): Promise<string[]> => (await Promise.all(PRODUCTION.map(tsFiles))).flat();

test(`no production file (src, streams, projections, the buyer package) is over ${MAX_FILE_LINES} lines`, async (t) => {
  const files = await production();
  t.true(files.length > 200, `only ${files.length} files scanned: has a folder moved?`);
  const long: string[] = [];
  for (const file of files) {
    const lines = lineCount(await readFile(path.join(root, file), 'utf8'));
    if (lines > MAX_FILE_LINES) long.push(`${file}: ${lines} lines`);
  }
  t.deepEqual(long, []);
});

const FUNCTION_RULE = `no function in src or a package spans ${MAX_FUNCTION_LINES} lines or more (nested in)`;
test(FUNCTION_RULE, async (t) => {
  const files = (await production()).filter((f) => f.startsWith('src/') || f.startsWith('packages/'));
  const long: string[] = [];
  let counted = 0;
  for (const file of files) {
    for (const span of functionSpans(file, await readFile(path.join(root, file), 'utf8'))) {
      counted++;
      if (span.lines >= MAX_FUNCTION_LINES) long.push(`${span.where}: ${span.lines} lines`);
    }
  }
  t.true(counted > 1000, `only ${counted} functions measured: is the parser still finding them?`);
  t.deepEqual(long, []);
});

test('the function counter measures a nested closure as one span', (t) => {
  const inner = Array.from({ length: 5 }, (_, i) => `    const x${i} = ${i};`).join('\n');
  const text = `export function outer() {\n  const inner = () => {\n${inner}\n  };\n  return inner;\n}\n`;
  const spans = functionSpans('probe.ts', text);
  t.deepEqual(
    spans.map((s) => [s.where, s.lines]),
    [
      ['probe.ts:1 outer', 10],
      ['probe.ts:2 inner', 7],
    ],
  );
});
