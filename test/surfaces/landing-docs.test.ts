import test from 'ava';
import { isRight } from 'fp-ts/lib/Either.js';
import { Landing } from '@rights-preflight/wire/contract/landing.js';
import { buildOpenApi } from '../../src/http/schema/openapi.js';
import { productCatalog } from '../../src/service/product-registry.js';
import { useFastWorld } from '../support/fast-world.js';
import { browserTests } from '../support/browser-tests.js';
import { launchBrowser } from '../support/cdp-pipe.js';
import { markdownRenderer } from '../../src/http/routes/markdown-html.js';

// GET / tells a newcomer where to go (JSON, or HTML for a browser); GET /docs is the API reference,
// Swagger UI rendering /openapi.json from files this service serves (no CDN, a CSP allowing only this
// origin), and a real Chromium sees every operation of the document on it.

// The service's public app as composed (test/README.md, Worlds): every link of the landing page resolves.
const server = useFastWorld();

test('GET / answers JSON links that resolve; a browser gets the same links as HTML', async (t) => {
  const res = await fetch(`${server.url}/`);
  t.is(res.status, 200);
  t.regex(res.headers.get('content-type') ?? '', /^application\/json/);
  const body = (await res.json()) as { links: Record<string, string> };
  t.true(isRight(Landing.decode(body)), 'the Landing codec (in /openapi.json) describes it');
  t.deepEqual(Object.keys(body.links).sort(), [
    'api_reference',
    'capabilities',
    'health',
    'openapi',
    'readiness',
    'wire_docs',
  ]);
  for (const href of Object.values(body.links)) t.is((await fetch(`${server.url}${href}`)).status, 200, href);
  const html = await fetch(`${server.url}/`, { headers: { accept: 'text/html,application/xhtml+xml' } });
  t.regex(html.headers.get('content-type') ?? '', /^text\/html/);
  const text = await html.text();
  for (const href of Object.values(body.links)) t.true(text.includes(`href="${href}"`), href);
});

test('the reference page and its assets: right types, a same-origin CSP, nothing else of the package', async (t) => {
  const page = await fetch(`${server.url}/docs`);
  const csp = page.headers.get('content-security-policy') ?? '';
  t.regex(csp, /script-src 'self'(;|$)/);
  t.notRegex(csp, /unsafe-inline|https?:/);
  const html = await page.text();
  t.false(/<script>[^<]/.test(html), 'no inline script');
  t.false(/https?:\/\//.test(html), 'no external URL');
  const js = await fetch(`${server.url}/docs/assets/swagger-ui-bundle.js`);
  t.is(js.status, 200);
  t.is(js.headers.get('content-type'), 'text/javascript; charset=utf-8');
  t.true((await js.arrayBuffer()).byteLength > 100_000);
  t.is(
    (await fetch(`${server.url}/docs/assets/swagger-ui.css`)).headers.get('content-type'),
    'text/css; charset=utf-8',
  );
  t.is((await fetch(`${server.url}/docs/init.js`)).headers.get('content-type'), 'text/javascript; charset=utf-8');
  t.is((await fetch(`${server.url}/docs/assets/package.json`)).status, 404);
  t.is((await fetch(`${server.url}/docs/assets/..%2Fpackage.json`)).status, 404);
  const wire = await fetch(`${server.url}/docs/wire.md`);
  t.regex(wire.headers.get('content-type') ?? '', /^text\/markdown/);
  t.regex(await wire.text(), /^# /m);
});

test('docs/*.md: Markdown by default, a rendered page when a browser asks; no other file', async (t) => {
  for (const name of ['wire.md', 'decisions.md']) {
    const raw = await fetch(`${server.url}/docs/${name}`, { headers: { accept: '*/*' } });
    t.regex(raw.headers.get('content-type') ?? '', /^text\/markdown/, name);
    t.regex(raw.headers.get('vary') ?? '', /accept/i);
    t.regex(await raw.text(), /^# /m);
  }
  for (const missing of ['nothing.md', 'README.md', '..%2FREADME.md', 'wire.txt'])
    t.is((await fetch(`${server.url}/docs/${missing}`)).status, 404, missing);
  const browser = await fetch(`${server.url}/docs/wire.md`, {
    headers: { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' },
  });
  if (!(await markdownRenderer())) {
    // The renderer is the npm package `marked`; without it the page is the Markdown, as before.
    if (process.env.CI === 'true') t.fail('the npm package marked is not installed');
    else t.log('marked is not installed: docs/*.md stay Markdown for browsers too');
    t.regex(browser.headers.get('content-type') ?? '', /^text\/markdown/);
    return;
  }
  t.regex(browser.headers.get('content-type') ?? '', /^text\/html/);
  t.regex(browser.headers.get('content-security-policy') ?? '', /script-src 'self'/);
  const html = await browser.text();
  t.regex(html, /<h1[^>]*>/);
  t.regex(html, /<table>/, 'GitHub tables are rendered');
  t.regex(html, /<link rel="stylesheet" href="\/docs\/doc\.css">/);
  t.notRegex(html, /^\| /m, 'no Markdown table left raw');
  t.is((await fetch(`${server.url}/docs/doc.css`)).headers.get('content-type'), 'text/css; charset=utf-8');
});

test('the OpenAPI document leaves jsonSchemaDialect to its default: Swagger UI renders no warning', (t) => {
  // Swagger UI 5 shows a red "Warning" box for any jsonSchemaDialect but OAS 3.1's base dialect.
  const doc = buildOpenApi({ version: '0.1.0', products: productCatalog().openapi() }) as {
    jsonSchemaDialect?: string;
  };
  t.true(
    doc.jsonSchemaDialect === undefined || doc.jsonSchemaDialect === 'https://spec.openapis.org/oas/3.1/dialect/base',
    doc.jsonSchemaDialect,
  );
});

browserTests('landing-docs.test.ts', 'the API reference renders in headless Chromium', () => {
  test('the API reference in Chromium shows every operation of /openapi.json', async (t) => {
    const doc = buildOpenApi({ version: '0.1.0', products: productCatalog().openapi() }) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const expected = Object.entries(doc.paths).flatMap(([p, item]) =>
      Object.keys(item).map((m) => `${m.toUpperCase()} ${p}`),
    );
    const browser = await launchBrowser();
    t.teardown(() => browser.close());
    const page = await browser.open(`${server.url}/docs`);
    await page.waitFor(`document.querySelectorAll('.opblock').length >= ${expected.length}`, 30_000);
    const shown = await page.evaluate<string[]>(
      `[...document.querySelectorAll('.opblock-summary')].map((s) =>
        s.querySelector('.opblock-summary-method').innerText.trim() + ' ' +
        s.querySelector('.opblock-summary-path').getAttribute('data-path'))`,
    );
    t.deepEqual([...shown].sort(), [...expected].sort());
    // No warning or error box: Swagger UI draws each (e.g. on jsonSchemaDialect) in an .errors-wrapper.
    await page.waitFor(`document.querySelector('.info .title') !== null`, 30_000);
    t.deepEqual(
      await page.evaluate<string[]>(`[...document.querySelectorAll('.errors-wrapper')].map((e) => e.innerText)`),
      [],
    );
    // The stylesheet applied (CSP style-src 'self'): Swagger UI's own layout, not the browser's default.
    t.not(await page.evaluate<string>(`getComputedStyle(document.querySelector('.swagger-ui')).fontFamily`), '');
    t.is(await page.evaluate<string>(`getComputedStyle(document.querySelector('.opblock')).borderStyle`), 'solid');
    t.true((await page.screenshot()).length > 5_000);
  });
});
