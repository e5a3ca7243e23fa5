import type sax from 'sax';
import { RSL_NAMESPACE, type Content, type License, type Payment, type RslDocument } from './model.js';
import { Fatal, type ProblemFn } from './findings.js';
import type { Frame } from './frame.js';
import { closeLeaf } from './leaves.js';
import type { XmlEvents } from './strict-xml.js';
import { CHILDREN, KNOWN_ELEMENTS, LEGACY_PAYMENT_TYPES, PAYMENT_TYPES } from './vocabulary.js';

// Stage 3 of the parse: the RSL structure. RSL elements are found by namespace URI (default
// namespace, `rsl:` or any prefix); foreign-namespace elements are extensions and are skipped with
// their whole subtree; an unknown element in the RSL namespace, or one in the wrong place, makes the
// document non-conformant. Containers (<content>, <license>, <payment>) are built as they open; the
// leaves inside them are read when they close (leaves.ts).

export class RslStructure implements XmlEvents {
  private readonly stack: Frame[] = [];
  /** Set by the root element; null until then (and when there is none). */
  document: RslDocument | null = null;

  constructor(
    private readonly problem: ProblemFn,
    /** The one-based line the reader is on. */
    private readonly line: () => number,
  ) {}

  open(tag: sax.QualifiedTag, attrs: Record<string, string>): void {
    if (!this.document) {
      this.openRoot(tag, attrs);
      return;
    }
    this.stack.push(this.childFrame(this.document, this.stack[this.stack.length - 1]!, tag, attrs));
  }

  text(text: string): void {
    const top = this.stack[this.stack.length - 1];
    if (top?.kind === 'leaf') top.text += text;
  }

  close(): void {
    const frame = this.stack.pop();
    const parent = this.stack[this.stack.length - 1];
    if (!frame) return;
    if (frame.kind === 'content') {
      if (frame.content.licenses.length === 0)
        this.problem('error', 'CONTENT_WITHOUT_LICENSE', `<content url="${frame.content.url ?? ''}"> has no <license>`);
      return;
    }
    if (frame.kind !== 'leaf' || !parent) return;
    closeLeaf(frame, parent, this.problem);
  }

  /** A standalone <rsl> document, or an RSS feed that carries RSL; anything else is not RSL. */
  private openRoot(tag: sax.QualifiedTag, attrs: Record<string, string>): void {
    if (tag.uri === RSL_NAMESPACE && tag.local === 'rsl') {
      if (tag.prefix !== '')
        this.problem(
          'warning',
          'PREFIXED_ROOT',
          'a standalone document should use the default namespace, not a prefixed root',
        );
      this.document = { root: 'rsl', maxAgeDays: readMaxAge(attrs['max-age'], this.problem), contents: [] };
      this.stack.push({ kind: 'rsl' });
      return;
    }
    if (tag.uri === '' && tag.local === 'rss') {
      this.document = { root: 'rss', maxAgeDays: null, contents: [] };
      this.stack.push({ kind: 'feed' });
      return;
    }
    if (tag.local === 'rsl' && tag.uri !== RSL_NAMESPACE) {
      throw new Fatal('WRONG_NAMESPACE', `root <rsl> is in namespace ${JSON.stringify(tag.uri)}, not ${RSL_NAMESPACE}`);
    }
    throw new Fatal('NOT_RSL', `root element {${tag.uri}}${tag.local} is not an RSL document or feed`);
  }

  /** The frame an element below the root opens: skipped, walked through, a container or a leaf. */
  private childFrame(doc: RslDocument, parent: Frame, tag: sax.QualifiedTag, attrs: Record<string, string>): Frame {
    if (parent.kind === 'skip' || parent.kind === 'leaf') {
      if (parent.kind === 'leaf' && tag.uri === RSL_NAMESPACE)
        this.problem('error', 'MISPLACED_ELEMENT', `<${tag.local}> is not allowed inside <${parent.local}>`);
      return { kind: 'skip' };
    }
    // RSS items and channels are walked through; any other foreign element is an extension.
    if (tag.uri !== RSL_NAMESPACE) return parent.kind === 'feed' ? { kind: 'feed' } : { kind: 'skip' };
    const parentName = parent.kind === 'feed' ? '#feed' : parent.kind;
    if (!KNOWN_ELEMENTS.has(tag.local)) {
      this.problem('error', 'UNKNOWN_RSL_ELEMENT', `<${tag.local}> is not an RSL element`);
      return { kind: 'skip' };
    }
    if (!(CHILDREN[parentName] ?? []).includes(tag.local)) {
      this.problem(
        'error',
        'MISPLACED_ELEMENT',
        `<${tag.local}> is not allowed inside <${parentName === '#feed' ? 'rss' : parentName}>`,
      );
      return { kind: 'skip' };
    }
    if (tag.local === 'rsl') return { kind: 'feed' };
    if (tag.local === 'content') return this.openContent(doc, attrs);
    if (parent.kind === 'content' && tag.local === 'license') return openLicense(parent.content);
    if (parent.kind === 'license' && tag.local === 'payment') return this.openPayment(parent.license, attrs);
    return { kind: 'leaf', local: tag.local, attrs, text: '', ns: tag.ns, line: this.line() };
  }

  private openContent(doc: RslDocument, attrs: Record<string, string>): Frame {
    const content: Content = {
      index: doc.contents.length,
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
      this.problem('error', 'MISSING_URL', '<content> has no url attribute; it governs nothing');
    if (attrs.encrypted !== undefined) {
      if (attrs.encrypted === 'true' || attrs.encrypted === 'false') content.encrypted = attrs.encrypted === 'true';
      else {
        this.problem('error', 'BAD_BOOLEAN', `encrypted="${attrs.encrypted}" must be lowercase true or false`);
        content.encrypted = true;
      }
    }
    if (content.encrypted && !content.server)
      this.problem('error', 'ENCRYPTED_WITHOUT_SERVER', 'encrypted content needs a server attribute');
    doc.contents.push(content);
    return { kind: 'content', content, seen: new Set() };
  }

  private openPayment(license: License, attrs: Record<string, string>): Frame {
    if (license.payment) this.problem('error', 'DUPLICATE_ELEMENT', 'a license has more than one <payment>');
    const payment: Payment = { type: attrs.type ?? null, standard: null, custom: null, amount: null, accepts: null };
    if (payment.type !== null && !PAYMENT_TYPES.has(payment.type)) {
      this.problem(
        'warning',
        LEGACY_PAYMENT_TYPES.has(payment.type) ? 'LEGACY_PAYMENT_TYPE' : 'UNKNOWN_PAYMENT_TYPE',
        `payment type "${payment.type}" is not an RSL 1.0 type`,
      );
    }
    // A second <payment> replaces nothing: keep the first, the document is non-conformant anyway.
    if (!license.payment) license.payment = payment;
    return { kind: 'payment', payment, seen: new Set() };
  }
}

function openLicense(content: Content): Frame {
  const license: License = {
    index: content.licenses.length,
    permits: {},
    prohibits: {},
    payment: null,
    reporting: [],
    legal: [],
  };
  content.licenses.push(license);
  return { kind: 'license', license, seen: new Set() };
}

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
