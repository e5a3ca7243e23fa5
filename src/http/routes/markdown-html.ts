// docs/*.md as a page when a browser asks for HTML (docs/decisions.md, "The API reference without
// warnings"): the Markdown is rendered by `marked` (CommonMark and GitHub tables), the repository's own
// text, served under the docs pages' CSP (no script runs). `marked` is loaded on first use; where it is
// not installed, the page is the Markdown itself, as before.
//
//   const render = await markdownRenderer();      // undefined without `marked`
//   markdownPage('wire.md', render!(text));         // '<!doctype html>…<main><h1>…'

export type MarkdownRenderer = (markdown: string) => string;

interface MarkedModule {
  Marked: new (options: { gfm: boolean; async: false }) => { parse(markdown: string): string | Promise<string> };
}

let loaded: Promise<MarkdownRenderer | undefined> | undefined;

export function markdownRenderer(): Promise<MarkdownRenderer | undefined> {
  loaded ??= (async () => {
    // A name, not a literal: the service builds and runs without the package (the Markdown is served raw then).
    const name = 'marked';
    const mod = (await import(name).catch(() => undefined)) as MarkedModule | undefined;
    if (!mod?.Marked) return undefined;
    const marked = new mod.Marked({ gfm: true, async: false });
    return (markdown: string) => marked.parse(markdown) as string;
  })();
  return loaded;
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
