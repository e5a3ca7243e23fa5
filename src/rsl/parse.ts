import sax from 'sax';
import {
  RSL_NAMESPACE,
  type Content,
  type License,
  type ParseFailureCode,
  type ParseResult,
  type Payment,
  type Problem,
  type RslDocument,
  type TermAxis,
} from './model.js';

// RSL parser: sax in strict, namespace-aware mode. Pure and synchronous. RSL elements are found
// by namespace URI (default namespace, `rsl:` or any prefix); foreign-namespace elements are
// extensions and are skipped with their whole subtree; an unknown element in the RSL namespace
// makes the document non-conformant. DOCTYPE is refused outright (no entity expansion, no
// billion-laughs), and size, depth, element count, attributes and wall time are capped.
//
// Only well-formed XML 1.0 is a document (rsl.md §1.1). sax in strict mode still lets through a
// few things XML 1.0 forbids, so they are checked here: characters outside the XML `Char`
// production (U+0001, U+FFFF, lone surrogates), entities other than the five predefined ones
// (`&nbsp;`, `&copy;` — sax knows the HTML set unless `strictEntities`), duplicate attributes
// (sax drops the second silently), an XML declaration anywhere but at the very start, and a
// second root element. Any of these is XML_MALFORMED: no document, so never a permission.

export interface ParseLimits {
  maxBytes: number;
  maxDepth: number;
  maxElements: number;
  maxMillis: number;

  /** Attributes on one element (namespace declarations included) and in the whole document. */
  maxAttributesPerElement: number;
  maxAttributes: number;
}

export const DEFAULT_PARSE_LIMITS: ParseLimits = {
  maxBytes: 512 * 1024,
  maxDepth: 32,
  maxElements: 20_000,
  maxMillis: 500,
  maxAttributesPerElement: 64,
  maxAttributes: 20_000,
};

/** XML 1.0 §2.2 `Char`; anything else (C0 controls but TAB/LF/CR, U+FFFE/F, lone surrogates) is not XML. */
const NOT_XML_CHAR = /[^\t\n\r\x20-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/u;

const USAGE_TOKENS = new Set(['all', 'ai-all', 'ai-train', 'ai-input', 'ai-index', 'search']);
/** Pre-1.0 / non-RSL labels seen in the wild; evaluate.ts lets them prohibit, never permit. */
export const LEGACY_USAGE_ALIASES: Readonly<Record<string, string>> = {
  'train-ai': 'ai-train',
  'train-genai': 'ai-train',
  'ai-use': 'ai-input',
};
const USER_TOKENS = new Set(['commercial', 'non-commercial', 'education', 'government', 'personal']);
const PAYMENT_TYPES = new Set([
  'purchase',
  'subscription',
  'training',
  'crawl',
  'use',
  'contribution',
  'attribution',
  'free',
]);
const LEGACY_PAYMENT_TYPES = new Set(['inference', 'royalty']);
const REPORTING_TYPES = new Set(['telemetry', 'provenance', 'audit']);
const LEGAL_TYPES = new Set(['warranty', 'disclaimer', 'attestation', 'contact', 'proof']);

/** Which RSL elements may appear under which RSL parent. `#feed` is a non-RSL RSS ancestor. */
const CHILDREN: Readonly<Record<string, readonly string[]>> = {
  '#feed': ['content', 'rsl'],
  rsl: ['content'],
  content: ['license', 'alternate', 'schema', 'copyright', 'terms'],
  license: ['permits', 'prohibits', 'payment', 'reporting', 'legal'],
  payment: ['standard', 'custom', 'amount', 'accepts'],
};
const KNOWN_ELEMENTS = new Set([
  'rsl',
  'content',
  'license',
  'permits',
  'prohibits',
  'payment',
  'standard',
  'custom',
  'amount',
  'accepts',
  'reporting',
  'legal',
  'alternate',
  'schema',
  'copyright',
  'terms',
]);

/** Documents this short are never stopped by the parse clock (see overBudget in parseRsl). */
const UNTIMED_CHARS = 16 * 1024;

/** sax's per-node buffer (its MAX_BUFFER_LENGTH, which @types/sax does not declare). */
const SAX_NODE_CHARS = (sax as unknown as { MAX_BUFFER_LENGTH?: number }).MAX_BUFFER_LENGTH ?? 64 * 1024;

class Fatal extends Error {
  constructor(
    readonly code: ParseFailureCode,
    message: string,
  ) {
    super(message);
  }
}

type Frame =
  | { kind: 'skip' }
  | { kind: 'feed' }
  | { kind: 'rsl' }
  | { kind: 'content'; content: Content; seen: Set<string> }
  | { kind: 'license'; license: License; seen: Set<string> }
  | { kind: 'payment'; payment: Payment; seen: Set<string> }
  | {
      kind: 'leaf';
      local: string;
      attrs: Record<string, string>;
      text: string;
      ns: Record<string, string>;
      line: number;
    };

export function parseRsl(input: string | Uint8Array, limits: ParseLimits = DEFAULT_PARSE_LIMITS): ParseResult {
  const problems: Problem[] = [];
  const bytes = typeof input === 'string' ? Buffer.byteLength(input, 'utf8') : input.byteLength;
  if (bytes > limits.maxBytes)
    return {
      ok: false,
      code: 'DOCUMENT_TOO_LARGE',
      message: `document is ${bytes} bytes; the limit is ${limits.maxBytes}`,
      problems,
    };
  let text: string;
  if (typeof input === 'string') {
    text = input;
  } else {
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(input);
    } catch {
      return { ok: false, code: 'UNSUPPORTED_ENCODING', message: 'document is not valid UTF-8', problems };
    }
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const forbidden = NOT_XML_CHAR.exec(text);
  if (forbidden) {
    const code = forbidden[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
    return {
      ok: false,
      code: 'XML_MALFORMED',
      message: `character U+${code} at offset ${forbidden.index} is not allowed in XML 1.0`,
      problems,
    };
  }
  const decl = /^<\?xml[^>]*encoding\s*=\s*["']([^"']+)["']/.exec(text);
  if (decl && !/^utf-?8$/i.test(decl[1]!))
    return {
      ok: false,
      code: 'UNSUPPORTED_ENCODING',
      message: `encoding ${decl[1]} is not supported (UTF-8 only)`,
      problems,
    };

  // strictEntities: only the five XML entities (sax otherwise expands the HTML set, @types/sax omits the option).
  const options: sax.SAXOptions & { strictEntities: boolean } = {
    xmlns: true,
    position: true,
    trim: false,
    normalize: false,
    strictEntities: true,
  };
  const parser = sax.parser(true, options);
  const started = performance.now();
  const stack: Frame[] = [];
  let doc: RslDocument | null = null;
  let elements = 0;
  let rootSeen = false;
  let rootClosed = false;
  let declarationAllowed = /^<\?xml[\s?]/.test(text);
  // The clock guards against documents that are costly to parse, and none under UNTIMED_CHARS is: every
  // per-element and per-attribute cost is capped above. A small document past the limit was only
  // waiting for a core (a loaded machine, a cold start), and must not read as UNKNOWN for that.
  const overBudget = () => {
    if (performance.now() - started > limits.maxMillis && parser.position > UNTIMED_CHARS)
      throw new Fatal('PARSE_TIME_LIMIT', `parsing took longer than ${limits.maxMillis} ms`);
  };
  guardAttributes(parser, limits, overBudget);
  const problem = (severity: Problem['severity'], code: string, message: string) =>
    problems.push({ severity, code, message, line: parser.line + 1 });

  parser.ondoctype = () => {
    throw new Fatal('DOCTYPE_REFUSED', 'documents with a DOCTYPE are refused (no DTDs or entity declarations)');
  };
  parser.onerror = (err) => {
    const first = err.message.split('\n')[0] ?? 'not well-formed XML';
    // sax buffers a comment, attribute value, name or processing instruction up to 64 KiB and then
    // stops: that is our parser's limit, not the publisher's error, so the evidence says so.
    const node = /^Max buffer length exceeded: (\w+)/.exec(first);
    if (node)
      throw new Fatal('XML_NODE_TOO_LARGE', `a ${node[1]} node is over the parser's ${SAX_NODE_CHARS}-character limit`);
    throw new Fatal('XML_MALFORMED', first);
  };
  parser.onprocessinginstruction = (pi) => {
    if (pi.name.toLowerCase() !== 'xml') return;
    // XML 1.0 §2.8: the declaration comes first, once, and names version 1.0.
    if (!declarationAllowed)
      throw new Fatal('XML_MALFORMED', 'an XML declaration is only allowed at the very start of the document');
    declarationAllowed = false;
    if (pi.name !== 'xml' || !/^\s*version\s*=\s*(["'])1\.0\1/.test(pi.body))
      throw new Fatal('XML_MALFORMED', 'the XML declaration must name version="1.0"');
  };

  parser.onopentag = (node) => {
    const tag = node as sax.QualifiedTag;
    declarationAllowed = false;
    overBudget();
    if (rootClosed) throw new Fatal('XML_MALFORMED', 'more than one root element');
    elements += 1;
    if (elements > limits.maxElements)
      throw new Fatal('XML_TOO_MANY_ELEMENTS', `more than ${limits.maxElements} elements`);
    if (stack.length >= limits.maxDepth) throw new Fatal('XML_TOO_DEEP', `nesting deeper than ${limits.maxDepth}`);
    const attrs: Record<string, string> = {};
    const expandedNames = new Set<string>();
    for (const a of Object.values(tag.attributes)) {
      // Namespaces in XML §6.3: no two attributes with the same expanded name (a:u and b:u bound alike).
      const expanded =
        a.prefix === 'xmlns' || (a.prefix === '' && a.local === 'xmlns') ? `xmlns ${a.name}` : `${a.uri} ${a.local}`;
      if (expandedNames.has(expanded))
        throw new Fatal('XML_MALFORMED', `attribute ${a.name} repeats an attribute of the same name on <${tag.name}>`);
      expandedNames.add(expanded);
      // RSL attributes are unprefixed (no namespace); namespaced attributes are extensions.
      if (a.uri === '' && a.prefix === '') attrs[a.local] = a.value;
    }

    if (!rootSeen) {
      rootSeen = true;
      if (tag.uri === RSL_NAMESPACE && tag.local === 'rsl') {
        if (tag.prefix !== '')
          problem(
            'warning',
            'PREFIXED_ROOT',
            'a standalone document should use the default namespace, not a prefixed root',
          );
        doc = { root: 'rsl', maxAgeDays: readMaxAge(attrs['max-age'], problem), contents: [] };
        stack.push({ kind: 'rsl' });
        return;
      }
      if (tag.uri === '' && tag.local === 'rss') {
        doc = { root: 'rss', maxAgeDays: null, contents: [] };
        stack.push({ kind: 'feed' });
        return;
      }
      if (tag.local === 'rsl' && tag.uri !== RSL_NAMESPACE) {
        throw new Fatal(
          'WRONG_NAMESPACE',
          `root <rsl> is in namespace ${JSON.stringify(tag.uri)}, not ${RSL_NAMESPACE}`,
        );
      }
      throw new Fatal('NOT_RSL', `root element {${tag.uri}}${tag.local} is not an RSL document or feed`);
    }

    const parent = stack[stack.length - 1]!;
    if (parent.kind === 'skip' || parent.kind === 'leaf') {
      if (parent.kind === 'leaf' && tag.uri === RSL_NAMESPACE)
        problem('error', 'MISPLACED_ELEMENT', `<${tag.local}> is not allowed inside <${parent.local}>`);
      stack.push({ kind: 'skip' });
      return;
    }
    if (tag.uri !== RSL_NAMESPACE) {
      // RSS items and channels are walked through; any other foreign element is an extension.
      stack.push(parent.kind === 'feed' ? { kind: 'feed' } : { kind: 'skip' });
      return;
    }
    const parentName = parent.kind === 'feed' ? '#feed' : parent.kind;
    if (!KNOWN_ELEMENTS.has(tag.local)) {
      problem('error', 'UNKNOWN_RSL_ELEMENT', `<${tag.local}> is not an RSL element`);
      stack.push({ kind: 'skip' });
      return;
    }
    if (!(CHILDREN[parentName] ?? []).includes(tag.local)) {
      problem(
        'error',
        'MISPLACED_ELEMENT',
        `<${tag.local}> is not allowed inside <${parentName === '#feed' ? 'rss' : parentName}>`,
      );
      stack.push({ kind: 'skip' });
      return;
    }
    if (tag.local === 'rsl') {
      stack.push({ kind: 'feed' });
      return;
    }
    if (tag.local === 'content') {
      const content: Content = {
        index: doc!.contents.length,
        url: attrs.url ?? null,
        server: attrs.server ?? null,
        encrypted: false,
        lastmod: attrs.lastmod ?? null,
        licenses: [],
        terms: null,
        copyright: null,
        alternates: [],
        schema: null,
      };
      if (attrs.url === undefined)
        problem('error', 'MISSING_URL', '<content> has no url attribute; it governs nothing');
      if (attrs.encrypted !== undefined) {
        if (attrs.encrypted === 'true' || attrs.encrypted === 'false') content.encrypted = attrs.encrypted === 'true';
        else {
          problem('error', 'BAD_BOOLEAN', `encrypted="${attrs.encrypted}" must be lowercase true or false`);
          content.encrypted = true;
        }
      }
      if (content.encrypted && !content.server)
        problem('error', 'ENCRYPTED_WITHOUT_SERVER', 'encrypted content needs a server attribute');
      doc!.contents.push(content);
      stack.push({ kind: 'content', content, seen: new Set() });
      return;
    }
    if (parent.kind === 'content' && tag.local === 'license') {
      const license: License = {
        index: parent.content.licenses.length,
        permits: {},
        prohibits: {},
        payment: null,
        reporting: [],
        legal: [],
      };
      parent.content.licenses.push(license);
      stack.push({ kind: 'license', license, seen: new Set() });
      return;
    }
    if (parent.kind === 'license' && tag.local === 'payment') {
      if (parent.license.payment) problem('error', 'DUPLICATE_ELEMENT', 'a license has more than one <payment>');
      const payment: Payment = { type: attrs.type ?? null, standard: null, custom: null, amount: null, accepts: null };
      if (payment.type !== null && !PAYMENT_TYPES.has(payment.type)) {
        problem(
          'warning',
          LEGACY_PAYMENT_TYPES.has(payment.type) ? 'LEGACY_PAYMENT_TYPE' : 'UNKNOWN_PAYMENT_TYPE',
          `payment type "${payment.type}" is not an RSL 1.0 type`,
        );
      }
      // A second <payment> replaces nothing: keep the first, the document is non-conformant anyway.
      if (!parent.license.payment) parent.license.payment = payment;
      stack.push({ kind: 'payment', payment, seen: new Set() });
      return;
    }
    stack.push({ kind: 'leaf', local: tag.local, attrs, text: '', ns: tag.ns, line: parser.line + 1 });
  };

  const onText = (t: string) => {
    const top = stack[stack.length - 1];
    if (top?.kind === 'leaf') top.text += t;
  };
  parser.ontext = onText;
  parser.oncdata = onText;

  parser.onclosetag = () => {
    const frame = stack.pop();
    const parent = stack[stack.length - 1];
    if (stack.length === 0) rootClosed = true;
    if (!frame) return;
    if (frame.kind === 'content') {
      if (frame.content.licenses.length === 0)
        problem('error', 'CONTENT_WITHOUT_LICENSE', `<content url="${frame.content.url ?? ''}"> has no <license>`);
      return;
    }
    if (frame.kind !== 'leaf' || !parent) return;
    closeLeaf(frame, parent, problem);
  };

  try {
    // Feed in slices so the wall-time limit is enforced even on a single large string.
    const slice = 4 * 1024;
    for (let i = 0; i < text.length; i += slice) {
      parser.write(text.slice(i, i + slice));
      overBudget();
    }
    parser.close();
  } catch (err) {
    if (err instanceof Fatal) return { ok: false, code: err.code, message: err.message, problems };
    throw err;
  }
  if (!doc) return { ok: false, code: 'NOT_RSL', message: 'document has no root element', problems };
  const d = doc as RslDocument;
  if (d.contents.length === 0) problem('error', 'NO_CONTENT', 'document has no <content>');
  return { ok: true, document: d, conformant: !problems.some((p) => p.severity === 'error'), problems };
}

/**
 * sax collects an element's attributes before any event fires (xmlns mode defers them to the
 * open tag) and looks each new name up in that list, so one tag with 45 000 attributes costs
 * O(n²) inside a single `write`. Its own duplicate check never matches in xmlns mode either. The
 * list's `push` is the one place sax touches per attribute, so the caps, the duplicate check and
 * the time budget run there, and `indexOf` (sax's quadratic lookup) is answered from a Set.
 * Pinned to sax 1.6's internals; the tests in test/rsl/strict-xml.test.ts fail if they change.
 */
function guardAttributes(parser: sax.SAXParser, limits: ParseLimits, overBudget: () => void): void {
  const list = (parser as unknown as { attribList: Array<[string, string]> }).attribList;
  const names = new Set<string>();
  let total = 0;
  list.indexOf = () => -1;
  list.push = (...entries: Array<[string, string]>) => {
    for (const entry of entries) {
      if (list.length === 0) names.clear();
      if (names.has(entry[0])) throw new Fatal('XML_MALFORMED', `duplicate attribute ${entry[0]}`);
      names.add(entry[0]);
      total += 1;
      if (names.size > limits.maxAttributesPerElement)
        throw new Fatal(
          'XML_TOO_MANY_ATTRIBUTES',
          `more than ${limits.maxAttributesPerElement} attributes on one element`,
        );
      if (total > limits.maxAttributes)
        throw new Fatal('XML_TOO_MANY_ATTRIBUTES', `more than ${limits.maxAttributes} attributes in the document`);
      if (total % 256 === 0) overBudget();
      Array.prototype.push.call(list, entry);
    }
    return list.length;
  };
}

type ProblemFn = (severity: Problem['severity'], code: string, message: string) => void;

function readMaxAge(value: string | undefined, problem: ProblemFn): number | null {
  if (value === undefined) return null;
  if (/^[1-9][0-9]{0,5}$/.test(value)) return Number(value);
  problem(
    'warning',
    'BAD_MAX_AGE',
    `max-age="${value}" is not a positive integer of days; the default (30 days) applies`,
  );
  return null;
}

function closeLeaf(frame: Extract<Frame, { kind: 'leaf' }>, parent: Frame, problem: ProblemFn): void {
  const value = frame.text.trim();
  const { local, attrs } = frame;
  if (parent.kind === 'license') {
    const license = parent.license;
    if (local === 'permits' || local === 'prohibits') {
      let axis = attrs.type as TermAxis | undefined;
      if (axis === undefined) {
        problem('error', 'MISSING_TYPE', `<${local}> has no type; read as type="usage"`);
        axis = 'usage';
      } else if (axis !== 'usage' && axis !== 'user' && axis !== 'geo') {
        problem('error', 'BAD_TYPE', `<${local} type="${String(axis)}"> is not usage, user or geo; ignored`);
        return;
      }
      const tokens = caseRule(axis, local, splitTokens(value, local, problem), problem);
      checkTokens(axis, tokens, frame.ns, problem);
      const sets = local === 'permits' ? license.permits : license.prohibits;
      const existing = sets[axis];
      if (existing) {
        problem('error', 'DUPLICATE_TYPE', `a license has two <${local} type="${axis}">`);
        // Never widen: two permits lists intersect, two prohibits lists add up.
        sets[axis] =
          local === 'permits' ? existing.filter((t) => tokens.includes(t)) : [...new Set([...existing, ...tokens])];
      } else {
        sets[axis] = tokens;
      }
      return;
    }
    if (local === 'reporting') {
      const r = { type: attrs.type ?? null, profile: attrs.profile ?? null, endpoint: attrs.endpoint ?? null };
      if (!r.profile) problem('error', 'MISSING_PROFILE', '<reporting> needs a profile attribute');
      if (r.type !== null && !REPORTING_TYPES.has(r.type))
        problem('warning', 'UNKNOWN_REPORTING_TYPE', `reporting type "${r.type}" is not known`);
      license.reporting.push(r);
      return;
    }
    if (local === 'legal') {
      if (attrs.type !== undefined && !LEGAL_TYPES.has(attrs.type))
        problem('warning', 'UNKNOWN_LEGAL_TYPE', `legal type "${attrs.type}" is not known`);
      license.legal.push({ type: attrs.type ?? null, value });
    }
    return;
  }
  if (parent.kind === 'payment') {
    if (parent.seen.has(local)) problem('error', 'DUPLICATE_ELEMENT', `<payment> has more than one <${local}>`);
    parent.seen.add(local);
    const p = parent.payment;
    if (local === 'standard') p.standard ??= value;
    else if (local === 'custom') p.custom ??= value;
    else if (local === 'amount') {
      if (!attrs.currency) problem('error', 'MISSING_CURRENCY', '<amount> needs a currency attribute');
      else if (!/^[A-Z]{3}$/.test(attrs.currency))
        problem('warning', 'BAD_CURRENCY', `currency "${attrs.currency}" is not an ISO 4217 code`);
      if (!/^\d+(\.\d+)?$/.test(value)) problem('error', 'BAD_AMOUNT', `amount "${value}" is not a decimal number`);
      p.amount ??= { value, currency: attrs.currency ?? null };
    } else if (local === 'accepts') {
      if (!attrs.type) problem('error', 'MISSING_TYPE', '<accepts> needs a type attribute');
      p.accepts ??= { type: attrs.type ?? null, body: value };
    }
    return;
  }
  if (parent.kind === 'content') {
    const c = parent.content;
    if (local !== 'alternate' && parent.seen.has(local))
      problem('error', 'DUPLICATE_ELEMENT', `<content> has more than one <${local}>`);
    parent.seen.add(local);
    if (local === 'terms') c.terms ??= value;
    else if (local === 'copyright') c.copyright ??= value;
    else if (local === 'schema') c.schema ??= value;
    else if (local === 'alternate') c.alternates.push(value);
  }
}

function splitTokens(value: string, local: string, problem: ProblemFn): string[] {
  if (value.includes(','))
    problem(
      'error',
      'COMMA_SEPARATED_LIST',
      `<${local}> uses commas (RSL 0.9 style); RSL 1.0 lists are space-separated`,
    );
  const tokens = value.split(/[\s,]+/).filter(Boolean);
  if (tokens.length === 0) problem('error', 'EMPTY_TOKEN_LIST', `<${local}> lists no tokens`);
  return [...new Set(tokens)];
}

/**
 * RSL tokens are lowercase and geo codes uppercase (rsl.md §1.3). A token in another case is read
 * so that it can only restrict (rsl.md §6.5/§6.11, "never expand rights"):
 *   - geo codes are compared uppercase (`de fr` is DE FR), in permits and prohibits alike;
 *   - a usage or user prohibition counts in any case (`AI-TRAIN` prohibits ai-train);
 *   - a usage or user permission in another case grants nothing: kept as written, so it matches no
 *     question, and reported.
 * Extension QNames (`prefix:name`) are left as written.
 */
function caseRule(axis: TermAxis, local: string, tokens: string[], problem: ProblemFn): string[] {
  const out = tokens.map((token) => {
    if (token.includes(':')) return token;
    const canonical = axis === 'geo' ? token.toUpperCase() : token.toLowerCase();
    if (canonical === token) return token;
    if (axis === 'geo') {
      problem('warning', 'NONCANONICAL_CASE', `geo code "${token}" read as ${canonical} (geo codes are uppercase)`);
      return canonical;
    }
    if (local === 'prohibits') {
      problem(
        'warning',
        'NONCANONICAL_CASE',
        `prohibited ${axis} token "${token}" read as "${canonical}" (a prohibition counts in any case)`,
      );
      return canonical;
    }
    problem(
      'warning',
      'NONCANONICAL_CASE',
      `permitted ${axis} token "${token}" is not in canonical case ("${canonical}"); it grants nothing`,
    );
    return token;
  });
  return [...new Set(out)];
}

function checkTokens(axis: TermAxis, tokens: string[], ns: Record<string, string>, problem: ProblemFn): void {
  for (const token of tokens) {
    const colon = token.indexOf(':');
    if (colon > 0) {
      const uri = ns[token.slice(0, colon)];
      if (uri && uri !== RSL_NAMESPACE) continue; // extension QName: ignored unless recognized
      problem('warning', 'UNKNOWN_TOKEN', `token "${token}" has an unbound or RSL prefix`);
      continue;
    }
    if (axis === 'usage' && !USAGE_TOKENS.has(token)) {
      problem(
        'warning',
        token in LEGACY_USAGE_ALIASES ? 'LEGACY_TOKEN' : 'UNKNOWN_TOKEN',
        `usage token "${token}" is not an RSL 1.0 token`,
      );
    } else if (axis === 'user' && !USER_TOKENS.has(token)) {
      problem('warning', 'UNKNOWN_TOKEN', `user token "${token}" is not an RSL 1.0 token`);
    } else if (axis === 'geo' && !/^[A-Z]{2}$/.test(token)) {
      problem('warning', 'UNKNOWN_TOKEN', `geo token "${token}" is not an uppercase ISO 3166-1 alpha-2 code or EU`);
    }
  }
}
