import Router from '@koa/router';
import type Koa from 'koa';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Landing } from '@rights-preflight/wire/contract/landing.js';
import { MARKDOWN_CSS, markdownPage, markdownRenderer } from './markdown-html.js';

// What a newcomer finds at the service's address (docs/decisions.md, "The first hour"):
//   GET /                 where to go next: JSON, or an HTML page for a browser (Accept: text/html)
//   GET /docs             the browsable API reference, rendered from /openapi.json by Swagger UI
//   GET /docs/assets/…    Swagger UI's own files, served from node_modules (swagger-ui-dist): no CDN
//   GET /docs/NAME.md     the repository's docs/NAME.md (wire.md: the buyer's wire documentation), as
//                         Markdown, or rendered as a page when a browser asks (Accept: text/html)
// The reference page loads scripts from this origin only (its CSP allows nothing else) and starts
// Swagger UI from a script file, never inline; the validator badge (a call to a third party) is off.

export const DOCS_PATH = '/docs';
const require = createRequire(import.meta.url);

/** The files of swagger-ui-dist the page loads, and their types; nothing else of the package is served. */
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const REFERENCE_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Rights Preflight Service: API reference</title>
<link rel="icon" type="image/png" href="${DOCS_PATH}/assets/favicon-32x32.png">
<link rel="stylesheet" href="${DOCS_PATH}/assets/swagger-ui.css">
</head>
<body>
<div id="reference"></div>
<script src="${DOCS_PATH}/assets/swagger-ui-bundle.js"></script>
<script src="${DOCS_PATH}/init.js"></script>
</body>
</html>
`;

const INIT_SCRIPT = `window.ui = SwaggerUIBundle({
  url: '/openapi.json',
  dom_id: '#reference',
  deepLinking: true,
  validatorUrl: null,
  tryItOutEnabled: false,
});
`;

export function landing(version: string): Landing {
  return Landing.encode({
    service: 'Rights Preflight Service',
    version,
    notice:
      'Signed reports of the RSL declarations observed for HTTPS URLs, sold per report over HTTP x402 v2. ' +
      'A report is evidence of what was observed, not a license or legal advice.',
    links: {
      capabilities: '/v1/capabilities',
      openapi: '/openapi.json',
      api_reference: DOCS_PATH,
      wire_docs: `${DOCS_PATH}/wire.md`,
      health: '/healthz',
      readiness: '/readyz',
    },
  });
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function landingPage(l: Landing): string {
  const items = Object.entries(l.links)
    .map(([name, href]) => `<li><a href="${escapeHtml(href)}">${escapeHtml(name.replace(/_/g, ' '))}</a></li>`)
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(l.service)}</title></head>
<body><h1>${escapeHtml(l.service)} ${escapeHtml(l.version)}</h1>
<p>${escapeHtml(l.notice)}</p>
<ul>
${items}
</ul></body></html>
`;
}

/** A file of the repository beside the code: src/… under tsx, build/src/… when compiled (npm start). */
async function repositoryFile(relative: string): Promise<string> {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const text = await readFile(path.join(dir, relative), 'utf8').catch(() => undefined);
    if (text !== undefined) return text;
    dir = path.dirname(dir);
  }
  throw new Error(`${relative} not found beside the service`);
}

export function docsRouter(opts: { version: string }): Router {
  const router = new Router();
  const assetDir = path.dirname(require.resolve('swagger-ui-dist/package.json'));
  const assets = new Map<string, Promise<Buffer>>();
  const page = (ctx: Koa.Context, type: string, body: string | Buffer) => {
    ctx.type = type;
    ctx.set('content-security-policy', CSP);
    ctx.set('x-content-type-options', 'nosniff');
    ctx.body = body;
  };

  router.get('/', (ctx) => {
    const l = landing(opts.version);
    ctx.vary('Accept');
    if (ctx.accepts('json', 'html') === 'html') page(ctx, 'text/html; charset=utf-8', landingPage(l));
    else ctx.body = l;
  });
  router.get(DOCS_PATH, (ctx) => {
    ctx.set('cache-control', 'public, max-age=300');
    page(ctx, 'text/html; charset=utf-8', REFERENCE_PAGE);
  });
  router.get(`${DOCS_PATH}/init.js`, (ctx) => {
    ctx.set('cache-control', 'public, max-age=300');
    page(ctx, 'text/javascript; charset=utf-8', INIT_SCRIPT);
  });
  router.get(`${DOCS_PATH}/assets/:file`, async (ctx) => {
    const file = ctx.params.file!;
    const type = Object.hasOwn(ASSETS, file) ? ASSETS[file] : undefined;
    if (!type) return; // 404 NOT_FOUND from the app
    let content = assets.get(file);
    if (!content) {
      content = readFile(path.join(assetDir, file));
      assets.set(file, content);
    }
    ctx.set('cache-control', 'public, max-age=86400');
    page(ctx, type, await content);
  });
  const documents = new Map<string, Promise<string>>();
  router.get(`${DOCS_PATH}/doc.css`, (ctx) => {
    ctx.set('cache-control', 'public, max-age=300');
    page(ctx, 'text/css; charset=utf-8', MARKDOWN_CSS);
  });
  router.get(`${DOCS_PATH}/:name`, async (ctx, next) => {
    const name = ctx.params.name!;
    if (!/^[a-z0-9-]+\.md$/.test(name)) return next();
    // Only files found are kept: a name that is not there costs a few reads, never memory.
    let text = documents.get(name);
    if (!text) {
      const found = await repositoryFile(`docs/${name}`).catch(() => undefined);
      if (found === undefined) return; // 404 NOT_FOUND from the app
      text = Promise.resolve(found);
      documents.set(name, text);
    }
    ctx.vary('Accept');
    ctx.set('cache-control', 'public, max-age=300');
    const render = ctx.accepts('text/markdown', 'text/html') === 'text/html' ? await markdownRenderer() : undefined;
    if (render) page(ctx, 'text/html; charset=utf-8', markdownPage(name, render(await text), `${DOCS_PATH}/doc.css`));
    else page(ctx, 'text/markdown; charset=utf-8', await text);
  });
  return router;
}
