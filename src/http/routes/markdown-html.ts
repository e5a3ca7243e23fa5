import { Marked } from 'marked';

// docs/*.md as a page when a browser asks for HTML (docs/decisions.md, "The API reference without
// warnings"): the Markdown is rendered by `marked` (CommonMark and GitHub tables), the repository's own
// text, served under the docs pages' CSP (no script runs).
//
//   const render = await markdownRenderer();      // undefined without `marked`
//   markdownPage('wire.md', render!(text));         // '<!doctype html>…<main><h1>…'

export type MarkdownRenderer = (markdown: string) => string;

const marked = new Marked({ gfm: true, async: false });
const render: MarkdownRenderer = (markdown) => marked.parse(markdown) as string;

/** The renderer (a promise, as callers await it; it is always there since `marked` is a dependency). */
export function markdownRenderer(): Promise<MarkdownRenderer | undefined> {
  return Promise.resolve(render);
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A page around rendered Markdown; its stylesheet is `stylesheet` (same origin: the CSP allows no inline style). */
export function markdownPage(title: string, body: string, stylesheet: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="${escapeHtml(stylesheet)}">
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

/** Readable defaults: a measure of text, tables with rules, code that scrolls instead of overflowing. */
export const MARKDOWN_CSS = `body { font: 16px/1.55 system-ui, sans-serif; margin: 0; color: #1b1b1b; }
main { max-width: 52rem; margin: 0 auto; padding: 1.5rem; overflow-wrap: anywhere; }
pre { overflow-x: auto; background: #f5f5f5; padding: .75rem; }
code { font: .9em ui-monospace, monospace; }
table { border-collapse: collapse; display: block; overflow-x: auto; }
th, td { border: 1px solid #ccc; padding: .3rem .5rem; vertical-align: top; text-align: left; }
`;
