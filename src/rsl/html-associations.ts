import { html, Parser, type DefaultTreeAdapterMap, type Token, type TreeAdapter } from 'parse5';
import { isRslType, relHasLicense } from './associations.js';
import { encodingDeclaredByMeta } from './html-encoding.js';
import { readsDifferentlyWithoutScripting } from '../matching/noscript.js';
import { startWorkClock } from '../runtime/thread-cpu-clock.js';

// The HTML association points (rsl.md §3.3): `<link rel="license" type="application/rsl+xml">`,
// inline `<script type="application/rsl+xml">`, and the document's `<base href>` that relative
// targets resolve against. Read by parse5 — the WHATWG tokenizer and tree builder jsdom uses — so
// what a browser treats as text (comments, RCDATA/RAWTEXT bodies, CDATA, attribute values, a
// `<plaintext>` tail) is never an element, an element in SVG/MathML that merely shares a name is not
// an HTML one, and `<template>` contents, which are not in the document, do not count. No tree is
// kept: the tree adapter below holds only parent links (the builder needs them for foster parenting
// and the adoption agency) and the text of RSL scripts; everything else is garbage as soon as the
// builder pops it. The page is fed in slices so a time budget bounds the work, and the service lets its
// event loop run between them (readHtmlAssociations); the scan itself is pure.
// See docs/decisions.md "Reading pages as browsers do".

export interface HtmlAssociations {
  /** href values of RSL `<link>` elements (entities resolved by the tokenizer), in the order they were written. */
  links: string[];
  /** Text of RSL `<script>` elements, as written, in the order they were written. */
  scripts: string[];
  /** RSL `<link>` elements outside `<head>` (an RSL client extension, not conforming HTML). */
  linksOutsideHead: number;
  /** href of the first `<base href>` in the document (HTML standard: it alone sets the base URL), or null. */
  baseHref: string | null;
  /**
   * The encoding the first `<meta>` the tree builder inserted declares (charset, or http-equiv Content-Type), the
   * one the parser's "change the encoding" acts on (html-encoding.ts); null when none declares one.
   */
  declaredEncoding: string | null;
  /** False when the time budget ran out before the end of the page: then nothing above is complete. */
  complete: boolean;
  /**
   * The page as a reader without scripting reads it, when it has a `<noscript>` (a crawler's reading; the
   * fields above are a browser's). Declarations either reader sees count (docs/decisions.md, "noscript").
   */
  withoutScripting?: Omit<HtmlAssociations, 'complete' | 'withoutScripting'>;
}

export interface HtmlScanLimits {
  /** Budget for the whole page, in CPU milliseconds of the scanning thread (thread-cpu-clock.ts): a page
   *  is not costly because the scan waited for a core on a busy machine. Wall time without a thread clock. */
  timeBudgetMs: number;
}
export const DEFAULT_HTML_SCAN_LIMITS: HtmlScanLimits = { timeBudgetMs: 1000 };

const SLICE_CHARS = 64 * 1024;

interface ScanNode {
  kind: 'document' | 'fragment' | 'element' | 'comment' | 'doctype';
  tagName: string;
  namespaceURI: html.NS;
  attrs: Token.Attribute[];
  parent: ScanNode | null;
  content: ScanNode | null;
  /** Text of an RSL script element; null for every other node. */
  text: string[] | null;
  /** Order among its parent's children (see siblingKey); compared as a sequence. */
  key: number[];
  /** Children appended so far, and nodes inserted before this one so far. */
  appended: number;
  insertedBefore: number;
  mode: html.DOCUMENT_MODE;
}

const attribute = (attrs: Token.Attribute[], name: string): string | undefined =>
  attrs.find((a) => a.name === name && !a.prefix)?.value;

const node = (kind: ScanNode['kind'], tagName = '', namespaceURI = html.NS.HTML, attrs: Token.Attribute[] = []) =>
  ({
    kind,
    tagName,
    namespaceURI,
    attrs,
    parent: null,
    content: null,
    text: null,
    key: [],
    appended: 0,
    insertedBefore: 0,
    mode: html.DOCUMENT_MODE.NO_QUIRKS,
  }) as ScanNode;

// Tree order without child lists. Foster parenting inserts an element before its table, so the order
// elements are created in is not the document's order, and the first `<base href>` is the first in tree
// order. An appended child's key is one more than any before it; a child inserted before `ref` gets
// ref's key with its last part lowered by a half and then a counter: after everything already inserted
// before `ref`, before `ref`, after ref's previous sibling.
const appendKey = (parent: ScanNode): number[] => [++parent.appended];
const insertBeforeKey = (ref: ScanNode): number[] => [
  ...ref.key.slice(0, -1),
  ref.key[ref.key.length - 1]! - 0.5,
  ++ref.insertedBefore,
];

function compareKeys(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/** Document order of two elements of the same document. */
function compareTreeOrder(a: ScanNode, b: ScanNode): number {
  const path = (n: ScanNode) => {
    const keys: number[][] = [];
    for (let at: ScanNode | null = n; at?.parent; at = at.parent) keys.unshift(at.key);
    return keys;
  };
  const pa = path(a);
  const pb = path(b);
  for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
    const c = compareKeys(pa[i]!, pb[i]!);
    if (c !== 0) return c;
  }
  return pa.length - pb.length;
}

/** A tree adapter that keeps what the tree builder needs to decide, and the candidates, nothing more. */
function scanningAdapter(candidates: ScanNode[], found: HtmlAssociations): TreeAdapter<DefaultTreeAdapterMap> {
  const append = (parent: ScanNode, child: ScanNode) => {
    child.parent = parent;
    child.key = appendKey(parent);
  };
  const insertBefore = (parent: ScanNode, child: ScanNode, ref: ScanNode) => {
    child.parent = parent;
    child.key = insertBeforeKey(ref);
  };
  const adapter: TreeAdapter<{
    node: ScanNode;
    parentNode: ScanNode;
    childNode: ScanNode;
    document: ScanNode;
    documentFragment: ScanNode;
    element: ScanNode;
    commentNode: ScanNode;
    textNode: ScanNode;
    template: ScanNode;
    documentType: ScanNode;
  }> = {
    createDocument: () => node('document'),
    createDocumentFragment: () => node('fragment'),
    createElement: (tagName, namespaceURI, attrs) => {
      const el = node('element', tagName, namespaceURI, attrs);
      if (namespaceURI !== html.NS.HTML) return el;
      if (tagName === 'link' || tagName === 'base') candidates.push(el);
      else if (tagName === 'meta' && found.declaredEncoding === null)
        found.declaredEncoding = encodingDeclaredByMeta(attrs);
      else if (tagName === 'script' && isRslType(attribute(attrs, 'type'))) {
        el.text = [];
        candidates.push(el);
      }
      return el;
    },
    createCommentNode: () => node('comment'),
    createTextNode: () => node('comment'),
    appendChild: append,
    insertBefore,
    detachNode: (n) => {
      n.parent = null;
    },
    setTemplateContent: (template, content) => {
      template.content = content;
    },
    getTemplateContent: (template) => template.content!,
    setDocumentType: () => {},
    setDocumentMode: (document, mode) => {
      document.mode = mode;
    },
    getDocumentMode: (document) => document.mode,
    insertText: (parent, text) => {
      parent.text?.push(text);
    },
    insertTextBefore: (parent, text) => {
      parent.text?.push(text);
    },
    adoptAttributes: (recipient, attrs) => {
      const names = new Set(recipient.attrs.map((a) => a.name));
      for (const a of attrs) if (!names.has(a.name)) recipient.attrs.push(a);
    },
    getFirstChild: () => null,
    getChildNodes: () => [],
    getParentNode: (n) => n.parent,
    getAttrList: (el) => el.attrs,
    getTagName: (el) => el.tagName,
    getNamespaceURI: (el) => el.namespaceURI,
    getTextNodeContent: () => '',
    getCommentNodeContent: () => '',
    getDocumentTypeNodeName: () => '',
    getDocumentTypeNodePublicId: () => '',
    getDocumentTypeNodeSystemId: () => '',
    isTextNode: (_n): _n is ScanNode => false,
    isCommentNode: (n): n is ScanNode => n.kind === 'comment',
    isDocumentTypeNode: (n): n is ScanNode => n.kind === 'doctype',
    isElementNode: (n): n is ScanNode => n.kind === 'element',
    setNodeSourceCodeLocation: () => {},
    getNodeSourceCodeLocation: () => undefined,
    updateNodeSourceCodeLocation: () => {},
  };
  return adapter as unknown as TreeAdapter<DefaultTreeAdapterMap>;
}

/** Where an element ended up: in the document (not a template's contents, not detached), and under `<head>`. */
function placement(el: ScanNode): { inDocument: boolean; inHead: boolean } {
  let inHead = false;
  for (let n = el.parent; n; n = n.parent) {
    if (n.kind === 'document') return { inDocument: true, inHead };
    if (n.tagName === 'head' && n.namespaceURI === html.NS.HTML) inHead = true;
  }
  return { inDocument: false, inHead };
}

/** Scan a whole page at once (tests, benchmarks): the same reading as `readHtmlAssociations`. */
export function rslAssociationsFromHtml(
  page: string,
  limits: HtmlScanLimits = DEFAULT_HTML_SCAN_LIMITS,
): HtmlAssociations {
  const scan = scanHtml(page, limits);
  for (;;) {
    const step = scan.next();
    if (step.done) return step.value;
  }
}

/**
 * Scan a page for the service: the event loop runs between slices, so a 2 MiB page (~40 ms of
 * tokenizing on a quiet core) never holds /healthz or another buyer's request behind it. The time
 * budget counts only the CPU time spent scanning, not the time other work ran in between.
 */
export async function readHtmlAssociations(
  page: string,
  limits: HtmlScanLimits = DEFAULT_HTML_SCAN_LIMITS,
): Promise<HtmlAssociations> {
  const scan = scanHtml(page, limits);
  for (;;) {
    const step = scan.next();
    if (step.done) return step.value;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

/** Yields after each slice of the page; returns the reading (incomplete once the budget is spent). */
function* scanHtml(page: string, limits: HtmlScanLimits): Generator<void, HtmlAssociations, void> {
  const budget = { spent: 0 };
  const found = yield* parsePass(page, limits, budget, true);
  if (!found.complete || !readsDifferentlyWithoutScripting(page)) return found;
  const without = yield* parsePass(page, limits, budget, false);
  if (!without.complete) return { ...found, complete: false };
  const { complete: _, ...rest } = without;
  return { ...found, withoutScripting: rest };
}

function* parsePass(
  page: string,
  limits: HtmlScanLimits,
  budget: { spent: number },
  scriptingEnabled: boolean,
): Generator<void, HtmlAssociations, void> {
  const found: HtmlAssociations = {
    ...{ links: [], scripts: [], linksOutsideHead: 0, baseHref: null },
    ...{ declaredEncoding: null, complete: false },
  };
  const candidates: ScanNode[] = [];
  const parser = new Parser({ treeAdapter: scanningAdapter(candidates, found), scriptingEnabled });
  for (let at = 0; at === 0 || at < page.length; at += SLICE_CHARS) {
    const last = at + SLICE_CHARS >= page.length;
    if (last) {
      // The budget is not checked after the last slice: a one-slice page costs no clock read.
      parser.tokenizer.write(page.slice(at), true);
      break;
    }
    const slice = startWorkClock();
    parser.tokenizer.write(page.slice(at, at + SLICE_CHARS), false);
    budget.spent += slice.elapsed();
    if (budget.spent > limits.timeBudgetMs) return found;
    yield;
  }
  const bases: ScanNode[] = [];
  for (const el of candidates) {
    const where = placement(el);
    if (!where.inDocument) continue;
    if (el.tagName === 'base') {
      if (attribute(el.attrs, 'href') !== undefined) bases.push(el);
    } else if (el.tagName === 'script') found.scripts.push(el.text!.join(''));
    else {
      const href = attribute(el.attrs, 'href');
      if (href === undefined || !relHasLicense(attribute(el.attrs, 'rel')) || !isRslType(attribute(el.attrs, 'type')))
        continue;
      found.links.push(href.trim());
      if (!where.inHead) found.linksOutsideHead += 1;
    }
  }
  const first = bases.reduce<ScanNode | null>((a, b) => (a === null || compareTreeOrder(b, a) < 0 ? b : a), null);
  found.baseHref = first ? attribute(first.attrs, 'href')! : null;
  found.complete = true;
  return found;
}

/**
 * The document base URL (HTML standard §2.4.1, "frozen base URL"): the first `<base href>` parsed
 * against the page URL; the page URL when there is none, when it does not parse, or when it is a
 * `data:` or `javascript:` URL.
 */
export function documentBaseUrl(baseHref: string | null, pageUrl: string): string {
  if (baseHref === null) return pageUrl;
  try {
    const url = new URL(baseHref.trim(), pageUrl);
    return url.protocol === 'data:' || url.protocol === 'javascript:' ? pageUrl : url.href;
  } catch {
    return pageUrl;
  }
}
