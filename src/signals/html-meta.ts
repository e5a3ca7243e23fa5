import { type DefaultTreeAdapterMap, type DefaultTreeAdapterTypes, defaultTreeAdapter, html, Parser } from 'parse5';
import { readsDifferentlyWithoutScripting } from '../matching/noscript.js';

// `<meta name content>` elements of a page, read as a browser reads them (docs/wire.md §15): parse5, the
// WHATWG tokenizer and tree builder discovery uses (src/rsl/html-associations.ts, docs/decisions.md
// "Reading pages as browsers do"), with scripting enabled and, when the page has a `<noscript>`, also
// without (a crawler's reading: the metas either sees count), so a meta inside a comment,
// a `<template>` (its contents are not in the document), an attribute value or a `<title>` is not a
// meta of the document, and one written inside `<svg>` is (it breaks out of foreign content). The
// whole document is read, as `document.querySelectorAll('meta[name]')` would, not only `<head>`.
// Text is dropped and no element lists its children, so what the builder has popped is garbage at
// once. Pure.

export interface HtmlMeta {
  /** The `name` attribute, ASCII-lower-cased (HTML: meta names are compared case-insensitively). */
  name: string;
  content: string;
}

/** The meta names the signal readers look at (TDMRep and noai). */
const SIGNAL_META_NAMES: ReadonlySet<string> = new Set(['tdm-reservation', 'tdm-policy', 'robots']);

const SLICE_CHARS = 64 * 1024;

/** The metas whose name is one of `names` (lower-case), in the order the parser met them, at once. */
export function htmlMetas(page: string, names: ReadonlySet<string> = SIGNAL_META_NAMES): HtmlMeta[] {
  const scan = scanMetas(page, names);
  for (;;) {
    const step = scan.next();
    if (step.done) return step.value;
  }
}

/**
 * The same reading for the service: the event loop runs between 64 KiB slices, as discovery's
 * readHtmlAssociations does, so a 2 MiB page (~200 ms of tokenizing) never holds other requests behind
 * it. Pass the result as `page.metas` to readSignals, which then does not scan the page again.
 */
export async function readHtmlMetas(page: string, names: ReadonlySet<string> = SIGNAL_META_NAMES): Promise<HtmlMeta[]> {
  const scan = scanMetas(page, names);
  for (;;) {
    const step = scan.next();
    if (step.done) return step.value;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

function* scanMetas(page: string, names: ReadonlySet<string>): Generator<void, HtmlMeta[], void> {
  // Scripting enabled, as in a browser: <noscript> content is text.
  const out = yield* metasOfPass(page, names, true);
  if (!readsDifferentlyWithoutScripting(page)) return out;
  // Without scripting, as a crawler parses it, <noscript> content is elements: the metas either reader sees
  // count (docs/decisions.md, "Late charsets and noscript").
  return unionOfMetas(out, yield* metasOfPass(page, names, false));
}

/** The metas of two readings of one page: the first's, then those of the second it lacks (each occurrence once). */
export function unionOfMetas(first: readonly HtmlMeta[], second: readonly HtmlMeta[]): HtmlMeta[] {
  const out = [...first];
  const unmatched = [...first];
  for (const meta of second) {
    const at = unmatched.findIndex((m) => m.name === meta.name && m.content === meta.content);
    if (at >= 0) unmatched.splice(at, 1);
    else out.push(meta);
  }
  return out;
}

function* metasOfPass(
  page: string,
  names: ReadonlySet<string>,
  scriptingEnabled: boolean,
): Generator<void, HtmlMeta[], void> {
  const candidates: DefaultTreeAdapterTypes.Element[] = [];
  const parser = new Parser<DefaultTreeAdapterMap>({ treeAdapter: metaAdapter(candidates), scriptingEnabled });
  for (let at = 0; at === 0 || at < page.length; at += SLICE_CHARS) {
    const last = at + SLICE_CHARS >= page.length;
    parser.tokenizer.write(page.slice(at, at + SLICE_CHARS), last);
    if (last) break;
    yield;
  }
  const out: HtmlMeta[] = [];
  for (const el of candidates) {
    if (!inDocument(el, parser.document)) continue;
    const name = el.attrs.find((a) => a.name === 'name' && !a.prefix)?.value;
    const content = el.attrs.find((a) => a.name === 'content' && !a.prefix)?.value;
    if (name === undefined || content === undefined) continue;
    const lower = name.trim().replace(/[A-Z]/g, (c) => c.toLowerCase());
    if (names.has(lower)) out.push({ name: lower, content });
  }
  return out;
}

/**
 * parse5's default tree adapter, except that children are never listed, only parent links kept (as
 * html-associations' adapter does): an element the builder has popped is garbage unless it is a
 * candidate or one's ancestor. HTML `<meta>` elements are collected as they are made.
 */
function metaAdapter(candidates: DefaultTreeAdapterTypes.Element[]) {
  type Node = DefaultTreeAdapterTypes.ChildNode;
  type Parent = DefaultTreeAdapterTypes.ParentNode;
  return {
    ...defaultTreeAdapter,
    createElement(tagName: string, namespaceURI: html.NS, attrs: DefaultTreeAdapterTypes.Element['attrs']) {
      const el = defaultTreeAdapter.createElement(tagName, namespaceURI, attrs);
      if (tagName === 'meta' && namespaceURI === html.NS.HTML) candidates.push(el);
      return el;
    },
    appendChild(parent: Parent, child: Node) {
      child.parentNode = parent;
    },
    insertBefore(parent: Parent, child: Node) {
      child.parentNode = parent;
    },
    detachNode(node: Node) {
      node.parentNode = null;
    },
    insertText() {},
    insertTextBefore() {},
  };
}

/** In the document tree, not in a template's contents nor detached by the tree builder. */
function inDocument(el: DefaultTreeAdapterTypes.Element, document: DefaultTreeAdapterTypes.Document): boolean {
  let n: DefaultTreeAdapterTypes.ParentNode | null = el.parentNode;
  while (n && n !== document) n = 'parentNode' in n ? n.parentNode : null;
  return n === document;
}
