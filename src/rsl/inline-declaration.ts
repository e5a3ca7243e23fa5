import type { Content, ParseResult } from './parse/model.js';
import { parseRsl } from './parse/parse.js';
import { matchContentUrl } from '../matching/pattern.js';

// An inline `<script type="application/rsl+xml">` (rsl.md §3.3, RSL §4.6.2 with the errata of
// 2026-05-27 and 2026-07-18). It must hold exactly one `<content>`. Its scope is where it is placed
// (this page), whatever its `url` says: an empty `url` means exactly that, and a non-empty one names
// the stable canonical URL of the work, so that its terms travel with copies (syndication). So the
// block always governs the page it sits on. Read conservatively (docs/decisions.md "Reading pages as
// browsers do"): when the named URL is this page, the block is read as written; when it names
// another work (a syndicated or AMP copy, another origin), its prohibitions, closures and terms
// govern this page, but a grant is not relied on, since nothing on this page shows it is that work:
// the block is marked with an error, which lets a document restrict and never grant. Pure.

export const INLINE_CANONICAL_ELSEWHERE = 'INLINE_CANONICAL_ELSEWHERE';

export function readInlineDeclaration(body: string, resource: string): ParseResult {
  const parse = parseRsl(body);
  if (!parse.ok) return parse;
  const problems = [...parse.problems];
  const written = problems.length;
  if (parse.document.contents.length !== 1)
    problems.push({
      severity: 'error',
      code: 'INLINE_CONTENT_COUNT',
      message: `an inline script must hold exactly one <content>, found ${parse.document.contents.length}`,
    });
  const contents = parse.document.contents.map((content): Content => {
    if (content.url === null || content.url === '' || matchContentUrl(content.url, resource, true).matches)
      return content;
    problems.push({
      severity: 'error',
      code: INLINE_CANONICAL_ELSEWHERE,
      message:
        `the inline declaration names the canonical work ${content.url}, not this page; as an inline block its ` +
        'terms govern this page (RSL §4.6.2), so it may restrict here, but a grant for another URL is not relied on',
    });
    // The placement scope: `url=""` is "this resource" for a page-level association.
    return { ...content, url: '' };
  });
  const conformant = parse.conformant && !problems.slice(written).some((p) => p.severity === 'error');
  return { ...parse, conformant, problems, document: { ...parse.document, contents } };
}
