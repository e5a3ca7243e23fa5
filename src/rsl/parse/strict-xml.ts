import sax from 'sax';
import { Fatal } from './findings.js';
import type { ParseLimits } from './limits.js';
import { startWorkClock, type WorkClock } from '../../runtime/thread-cpu-clock.js';

// Stage 2 of the parse: sax in strict, namespace-aware mode, held to XML 1.0 and to the limits.
// DOCTYPE is refused outright (no entity expansion, no billion-laughs), and size, depth, element
// count, attributes and CPU time are capped. sax in strict mode still lets through a few things
// XML 1.0 forbids, so they are checked here: entities other than the five predefined ones (`&nbsp;`,
// `&copy;` — sax knows the HTML set unless `strictEntities`), duplicate attributes (sax drops the
// second silently), an XML declaration anywhere but at the very start, and a second root element.
// Any of these is a Fatal: no document, so never a permission. What is left is handed on as events.

/** What the RSL reading (stage 3) is told of a well-formed document, element by element. */
export interface XmlEvents {
  /** `attrs` holds the element's unprefixed attributes (RSL's own; namespaced ones are extensions). */
  open(tag: sax.QualifiedTag, attrs: Record<string, string>): void;
  text(text: string): void;
  close(): void;
}

export interface StrictXmlReader {
  /** The zero-based line sax is on. */
  line(): number;
  /** Reads the whole text into `events`; throws Fatal when the document is not one we read. */
  read(events: XmlEvents): void;
}

/** Documents this short are never stopped by the parse clock (see overBudget). */
const UNTIMED_CHARS = 16 * 1024;

/** The clock is read at most once per this many characters parsed: a read costs ~20 µs (a procfs file). */
const CLOCK_EVERY_CHARS = 4 * 1024;

/** sax's per-node buffer (its MAX_BUFFER_LENGTH, which @types/sax does not declare). */
const SAX_NODE_CHARS = (sax as unknown as { MAX_BUFFER_LENGTH?: number }).MAX_BUFFER_LENGTH ?? 64 * 1024;

export function strictXmlReader(text: string, limits: ParseLimits): StrictXmlReader {
  // strictEntities: only the five XML entities (sax otherwise expands the HTML set, @types/sax omits the option).
  const options: sax.SAXOptions & { strictEntities: boolean } = {
    xmlns: true,
    position: true,
    trim: false,
    normalize: false,
    strictEntities: true,
  };
  const parser = sax.parser(true, options);
  // The clock guards against documents that are costly to parse, and none under UNTIMED_CHARS is: every
  // per-element and per-attribute cost is capped above, so the clock starts there (a small document
  // costs no clock read). It counts this thread's CPU time, not wall time (thread-cpu-clock.ts): a
  // document is not costly because its parse waited for a core on a busy machine.
  let clock: WorkClock | undefined;
  let clockReadAt = 0;
  const overBudget = () => {
    if (parser.position <= UNTIMED_CHARS || parser.position - clockReadAt < CLOCK_EVERY_CHARS) return;
    clockReadAt = parser.position;
    clock ??= startWorkClock();
    if (clock.elapsed() > limits.maxMillis)
      throw new Fatal('PARSE_TIME_LIMIT', `parsing used more than ${limits.maxMillis} ms of CPU time`);
  };
  guardAttributes(parser, limits, overBudget);
  const closeDeclarationWindow = refuseWhatXmlForbids(parser, /^<\?xml[\s?]/.test(text));
  return {
    line: () => parser.line,
    read(events) {
      listen(parser, limits, { overBudget, closeDeclarationWindow }, events);
      // Feed in slices so the time limit is enforced even on a single large string.
      const slice = 4 * 1024;
      for (let i = 0; i < text.length; i += slice) {
        parser.write(text.slice(i, i + slice));
        overBudget();
      }
      parser.close();
    },
  };
}

/**
 * DOCTYPE, sax's own errors, and an XML declaration that is not first, once, version 1.0. Returns what
 * the first element calls: after it, no declaration is allowed.
 */
function refuseWhatXmlForbids(parser: sax.SAXParser, startsWithDeclaration: boolean): () => void {
  let declarationAllowed = startsWithDeclaration;
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
  return () => {
    declarationAllowed = false;
  };
}

/** Elements: one root, the depth and count limits, no two attributes with the same expanded name. */
function listen(
  parser: sax.SAXParser,
  limits: ParseLimits,
  hooks: { overBudget: () => void; closeDeclarationWindow: () => void },
  events: XmlEvents,
): void {
  let depth = 0;
  let elements = 0;
  let rootClosed = false;
  parser.onopentag = (node) => {
    const tag = node as sax.QualifiedTag;
    hooks.closeDeclarationWindow();
    hooks.overBudget();
    if (rootClosed) throw new Fatal('XML_MALFORMED', 'more than one root element');
    elements += 1;
    if (elements > limits.maxElements)
      throw new Fatal('XML_TOO_MANY_ELEMENTS', `more than ${limits.maxElements} elements`);
    if (depth >= limits.maxDepth) throw new Fatal('XML_TOO_DEEP', `nesting deeper than ${limits.maxDepth}`);
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
    depth += 1;
    events.open(tag, attrs);
  };
  parser.ontext = (t) => events.text(t);
  parser.oncdata = (t) => events.text(t);
  parser.onclosetag = () => {
    depth -= 1;
    if (depth === 0) rootClosed = true;
    events.close();
  };
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
