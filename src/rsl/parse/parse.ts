import type { ParseResult, Problem } from './model.js';
import { decodeDocument } from './decode.js';
import { Fatal, type ProblemFn } from './findings.js';
import { DEFAULT_PARSE_LIMITS, type ParseLimits } from './limits.js';
import { strictXmlReader } from './strict-xml.js';
import { RslStructure } from './structure.js';

// RSL parser: pure and synchronous, in stages (one file each under ./parse/):
//   1. decode.ts      bytes to text: size limit, UTF-8 only, XML 1.0 characters only
//   2. strict-xml.ts  sax in strict, namespace-aware mode, held to XML 1.0 and to the limits
//   3. structure.ts   the RSL elements by namespace: root, placement, <content>/<license>/<payment>
//   4. leaves.ts      the leaf elements, with tokens.ts for <permits>/<prohibits> token lists
// Only well-formed XML 1.0 is a document (rsl.md §1.1): a failure in stages 1–2 (or a root that is
// not RSL) is a ParseResult with no document, so never a permission. What stages 3–4 find wrong is a
// problem on the document; an error problem makes it non-conformant.

export { DEFAULT_PARSE_LIMITS, type ParseLimits } from './limits.js';

export function parseRsl(input: string | Uint8Array, limits: ParseLimits = DEFAULT_PARSE_LIMITS): ParseResult {
  const decoded = decodeDocument(input, limits);
  if (!('text' in decoded)) return decoded;
  const problems: Problem[] = [];
  const xml = strictXmlReader(decoded.text, limits);
  const line = () => xml.line() + 1;
  const problem: ProblemFn = (severity, code, message) => problems.push({ severity, code, message, line: line() });
  const structure = new RslStructure(problem, line);
  try {
    xml.read(structure);
  } catch (err) {
    if (err instanceof Fatal) return { ok: false, code: err.code, message: err.message, problems };
    throw err;
  }
  const doc = structure.document;
  if (!doc) return { ok: false, code: 'NOT_RSL', message: 'document has no root element', problems };
  if (doc.contents.length === 0) problem('error', 'NO_CONTENT', 'document has no <content>');
  return { ok: true, document: doc, conformant: !problems.some((p) => p.severity === 'error'), problems };
}
