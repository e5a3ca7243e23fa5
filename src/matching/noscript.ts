// Shared by the two readers of a page's markup: RSL's associations (src/rsl/html-associations.ts) and the
// signals' `<meta>` elements (src/signals/html-meta.ts). Pure.

/**
 * `<noscript>` is parsed one way by a reader with scripting (its content is text) and another without (its
 * content is elements: HTML §13.2.6.4.4 "in head noscript", §13.2.6.4.7 the "noscript" start tag). A
 * crawler runs no scripts; a browser does. A page that has no `<noscript` start tag anywhere parses the same
 * both ways (the tokenizer lower-cases tag names, so the case-insensitive search finds every one).
 */
export function readsDifferentlyWithoutScripting(page: string): boolean {
  return /<noscript/i.test(page);
}
