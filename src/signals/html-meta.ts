import { type DefaultTreeAdapterMap, type DefaultTreeAdapterTypes, defaultTreeAdapter, html, parse } from 'parse5';

// `<meta name content>` elements of a page, read as a browser reads them (issue 28): parse5, the
// WHATWG tokenizer and tree builder discovery uses (src/rsl/html-associations.ts, docs/decisions.md
// "Reading pages as browsers do"), with scripting enabled, so a meta inside a comment, a `<noscript>`,
// a `<template>` (its contents are not in the document), an attribute value or SVG is not a meta of
// the document. The whole document is read, as `document.querySelectorAll('meta[name]')` would, not
// only `<head>`. Text nodes are dropped as the builder makes them: only elements are kept, until the
// scan returns. Pure.

export interface HtmlMeta {
  /** The `name` attribute, ASCII-lower-cased (HTML: meta names are compared case-insensitively). */
  name: string;
  content: string;
}

/** The metas whose name is one of `names` (lower-case), in document order. Never throws on any input. */
export function htmlMetas(page: string, names: ReadonlySet<string>): HtmlMeta[] {
  const candidates: DefaultTreeAdapterTypes.Element[] = [];
  const adapter = {
    ...defaultTreeAdapter,
    createElement(tagName: string, namespaceURI: html.NS, attrs: DefaultTreeAdapterTypes.Element['attrs']) {
      const el = defaultTreeAdapter.createElement(tagName, namespaceURI, attrs);
      if (tagName === 'meta' && namespaceURI === html.NS.HTML) candidates.push(el);
      return el;
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
