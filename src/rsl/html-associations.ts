import { SAXParser } from 'parse5-sax-parser';
import type { Token } from 'parse5';
import { isRslType, relHasLicense } from './associations.js';

// The HTML association points (rsl.md §3.3): `<link rel="license" type="application/rsl+xml">`,
// inline `<script type="application/rsl+xml">`, and the document's `<base href>` that relative
// targets resolve against. Read from the tokens of parse5's WHATWG tokenizer, with the tree
// builder's feedback simulated by parse5-sax-parser (RCDATA for textarea/title, RAWTEXT for
// style/xmp/iframe/noembed/noframes/noscript, script data, plaintext, foreign content), so what is
// text to a browser — comments, RCDATA/RAWTEXT bodies, CDATA, attribute values — is never read as
// an element. `<template>` contents are not part of the document (they are inert until cloned), so
// nothing inside one counts; neither do SVG/MathML elements that merely share a name. Streaming: no
// tree is built; the page is fed in slices so a time budget bounds it. Pure and synchronous.
// See docs/decisions.md "Reading pages as browsers do".

export interface HtmlAssociations {
  /** href values of RSL `<link>` elements, as the tokenizer decoded them (entities resolved), in document order. */
  links: string[];
  /** Text of RSL `<script>` elements, as written, in document order. */
  scripts: string[];
  /** RSL `<link>` elements after the head was left (an RSL client extension, not conforming HTML). */
  linksOutsideHead: number;
  /** href of the first `<base href>` in the document (HTML standard: it alone sets the base URL), or null. */
  baseHref: string | null;
  /** False when the time budget ran out before the end of the page: then nothing above is complete. */
  complete: boolean;
}

export interface HtmlScanLimits {
  /** Wall-clock budget for the whole page. */
  timeBudgetMs: number;
}
export const DEFAULT_HTML_SCAN_LIMITS: HtmlScanLimits = { timeBudgetMs: 1000 };

const SLICE_CHARS = 64 * 1024;
/** Elements that may stand in `<head>`; any other start tag means the head was left (HTML §13.2.6.4.4). */
const HEAD_CONTENT = new Set([
  'html',
  'head',
  'base',
  'basefont',
  'bgsound',
  'link',
  'meta',
  'title',
  'noscript',
  'noframes',
  'style',
  'script',
  'template',
]);

const attribute = (attrs: Token.Attribute[], name: string): string | undefined =>
  attrs.find((a) => a.name === name && !a.prefix)?.value;

/** parse5's SAX parser, taking its tokens directly (no events, no stream plumbing per token). */
class AssociationScanner extends SAXParser {
  readonly found: HtmlAssociations = { links: [], scripts: [], linksOutsideHead: 0, baseHref: null, complete: false };
  private templateDepth = 0;
  private afterHead = false;
  private script: string[] | null = null;

  scan(html: string, limits: HtmlScanLimits): HtmlAssociations {
    const deadline = performance.now() + limits.timeBudgetMs;
    for (let at = 0; at < html.length || at === 0; at += SLICE_CHARS) {
      const last = at + SLICE_CHARS >= html.length;
      this.tokenizer.write(html.slice(at, at + SLICE_CHARS), last);
      if (!last && performance.now() > deadline) return this.found;
    }
    this.found.complete = true;
    return this.found;
  }

  private get inHtml(): boolean {
    return !this.parserFeedbackSimulator.inForeignContent;
  }

  override onStartTag(token: Token.TagToken): void {
    // The simulator has already moved into or out of foreign content for this tag.
    if (!this.inHtml) return;
    const name = token.tagName;
    if (name === 'template') {
      this.templateDepth += 1;
      return;
    }
    if (!HEAD_CONTENT.has(name)) this.afterHead = true;
    if (this.templateDepth > 0) return;
    const attrs = token.attrs;
    if (name === 'link') {
      const href = attribute(attrs, 'href');
      if (href === undefined || !relHasLicense(attribute(attrs, 'rel')) || !isRslType(attribute(attrs, 'type'))) return;
      this.found.links.push(href.trim());
      if (this.afterHead) this.found.linksOutsideHead += 1;
    } else if (name === 'script') {
      if (isRslType(attribute(attrs, 'type'))) this.script = [];
    } else if (name === 'base' && this.found.baseHref === null) {
      const href = attribute(attrs, 'href');
      if (href !== undefined) this.found.baseHref = href;
    }
  }

  override onEndTag(token: Token.TagToken): void {
    const name = token.tagName;
    if (name === 'template' && this.templateDepth > 0) this.templateDepth -= 1;
    else if (name === 'script') this.endScript();
  }

  override onCharacter(token: Token.CharacterToken): void {
    this.script?.push(token.chars);
  }
  override onWhitespaceCharacter(token: Token.CharacterToken): void {
    this.script?.push(token.chars);
  }
  override onNullCharacter(token: Token.CharacterToken): void {
    this.script?.push(token.chars);
  }
  override onComment(): void {}
  override onDoctype(): void {}
  override onEof(): void {
    // An unclosed script holds everything to the end of the page, as the tree builder's does.
    this.endScript();
  }

  private endScript(): void {
    if (this.script === null) return;
    this.found.scripts.push(this.script.join(''));
    this.script = null;
  }
}

export function rslAssociationsFromHtml(
  html: string,
  limits: HtmlScanLimits = DEFAULT_HTML_SCAN_LIMITS,
): HtmlAssociations {
  return new AssociationScanner().scan(html, limits);
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
