import { type DefaultTreeAdapterMap, type DefaultTreeAdapterTypes, defaultTreeAdapter, html, parse } from 'parse5';

// `<meta name content>` elements of a page, read as a browser reads them (issue 28): parse5, the
// WHATWG tokenizer and tree builder discovery uses (src/rsl/html-associations.ts, docs/decisions.md
// "Reading pages as browsers do"), with scripting enabled, so a meta inside a comment, a `<noscript>`,
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

/** The metas whose name is one of `names` (lower-case), in the order the parser met them. Never throws. */
export function htmlMetas(page: string, names: ReadonlySet<string>): HtmlMeta[] {
  const candidates: DefaultTreeAdapterTypes.Element[] = [];
  // Children are never listed, only parent links kept (as html-associations' adapter does): an element
  // the builder has popped is garbage unless it is a candidate or one's ancestor.
  type Node = DefaultTreeAdapterTypes.ChildNode;
  type Parent = DefaultTreeAdapterTypes.ParentNode;
  const adapter = {
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
  const document = parse<DefaultTreeAdapterMap>(page, { treeAdapter: adapter, scriptingEnabled: true });
  const out: HtmlMeta[] = [];
  for (const el of candidates) {
    if (!inDocument(el, document)) continue;
    const name = el.attrs.find((a) => a.name === 'name' && !a.prefix)?.value;
    const content = el.attrs.find((a) => a.name === 'content' && !a.prefix)?.value;
    if (name === undefined || content === undefined) continue;
    const lower = name.trim().replace(/[A-Z]/g, (c) => c.toLowerCase());
    if (names.has(lower)) out.push({ name: lower, content });
  }
  return out;
}

/** In the document tree, not in a template's contents nor detached by the tree builder. */
function inDocument(el: DefaultTreeAdapterTypes.Element, document: DefaultTreeAdapterTypes.Document): boolean {
  let n: DefaultTreeAdapterTypes.ParentNode | null = el.parentNode;
  while (n && n !== document) n = 'parentNode' in n ? n.parentNode : null;
  return n === document;
}
