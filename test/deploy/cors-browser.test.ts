import test from 'ava';
import { spawn } from 'node:child_process';
import http from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { findChromium, FLAGS } from '../support/chromium.js';
import { DECLARED, moneyWorld, quoteAndOffer, type MoneyWorld } from '../support/money-env.js';
import { startFastWorld } from '../support/fast-world.js';
import { BUYER_REQUEST_HEADERS } from '../../src/http/cors.js';

// A buyer in a real browser on another origin: headless Chromium opens a page served from one
// loopback origin, whose bundled buyer buys and verifies a report from the service on another, on
// the devnet. CORS_ORIGINS names the page's origin; the preflights, the exposed PAYMENT-REQUIRED and
// PAYMENT-RESPONSE headers and the allowed buyer headers are what make that work in a browser.

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

interface PageServer {
  origin: string;
  result: Promise<any>;
  close(): Promise<void>;
}

async function pageServer(html: () => string, script: string): Promise<PageServer> {
  let deliver!: (v: unknown) => void;
  const result = new Promise<any>((resolve) => {
    deliver = resolve;
  });
  const server = http.createServer((req, res) => {
    if (req.method === 'POST' && req.url === '/result') {
      let body = '';
      req
        .setEncoding('utf8')
        .on('data', (c: string) => {
          body += c;
        })
        .on('end', () => {
          res.end('ok');
          deliver(JSON.parse(body));
        });
    } else if (req.url === '/buyer.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
    else if (req.url === '/') res.writeHead(200, { 'content-type': 'text/html' }).end(html());
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    result,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}

let w: MoneyWorld;
test.after.always(async () => {
  await w?.close();
});

test('a page on another origin buys and verifies a report with the bundled buyer in headless Chromium', async (t) => {
  const chromium = findChromium();
  if ('missing' in chromium) {
    if (process.env.CI === 'true') t.fail(`Chromium is required under CI: ${chromium.missing}`);
    else {
      t.log(`skipped: ${chromium.missing}`);
      t.pass();
    }
    return;
  }
  const bundle = await build({
    entryPoints: [path.join(ROOT, 'test/deploy/support/browser-buyer-entry.ts')],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    write: false,
    logLevel: 'silent',
  });
  let config = '';
  const page = await pageServer(
    () =>
      `<!doctype html><html><body><script type="application/json" id="config">${config}</script>` +
      '<script type="module" src="/buyer.js"></script></body></html>',
    bundle.outputFiles[0]!.text,
  );
  t.teardown(page.close);

  w = await moneyWorld();
  const service = await w.start({ env: { CORS_ORIGINS: page.origin } });
  t.not(new URL(page.origin).port, new URL(service.url).port, 'two origins');
  const buyerKey = w.devnet.buyers[3]!;
  const before = await w.devnet.balanceOf(buyerKey.address);
  config = JSON.stringify({
    serviceUrl: service.url,
    privateKey: buyerKey.privateKey,
    resource: DECLARED,
    pins: {
      network: w.devnet.network,
      asset: w.devnet.usdc,
      recipient: w.devnet.payTo,
      evidenceKey: service.evidenceKey,
    },
  });

  const profile = await mkdtemp(path.join(tmpdir(), 'chromium-cors-'));
  const browser = spawn(chromium.path, [...FLAGS, `--user-data-dir=${profile}`, `${page.origin}/`], {
    stdio: 'ignore',
    detached: true,
  });
  t.teardown(async () => {
    try {
      process.kill(-browser.pid!, 'SIGKILL');
    } catch {
      /* gone */
    }
    await rm(profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  });
  const outcome = (await Promise.race([
    page.result,
    new Promise((_, reject) => setTimeout(() => reject(new Error('the page did not report within 90 s')), 90_000)),
  ])) as any;

  t.true(outcome.ok, outcome.error);
  t.is(outcome.result.origin, page.origin);
  t.true(outcome.result.paymentRequiredReadable, 'PAYMENT-REQUIRED is exposed to the page');
  t.is(outcome.result.status, 'delivered');
  t.true(outcome.result.verified.ok, JSON.stringify(outcome.result.verified));
  t.is(await w.devnet.balanceOf(buyerKey.address), before - 20_000n, 'exactly the price moved, once');
});

test(
  'CORS answers only the configured origins, ' + 'allows the buyer headers and exposes the payment headers',
  async (t) => {
    // The service as composed (test/README.md, Worlds) with one origin allowed, and a real 402: a quote's offer.
    const fast = await startFastWorld(undefined, { env: { CORS_ORIGINS: 'http://app.example:8080' } });
    t.teardown(fast.close);
    const { q, claim } = await quoteAndOffer(fast.url);
    const paid = `${fast.url}${q.report_url}`;

    const pre = await fetch(paid, {
      method: 'OPTIONS',
      headers: {
        Origin: 'http://app.example:8080',
        'Access-Control-Request-Method': 'GET',
        'Access-Control-Request-Headers': 'x-service-claim,payment-signature',
      },
    });
    t.is(pre.status, 204);
    t.is(pre.headers.get('access-control-allow-origin'), 'http://app.example:8080');
    const allowed = (pre.headers.get('access-control-allow-headers') ?? '').toLowerCase().split(',');
    for (const h of BUYER_REQUEST_HEADERS) t.true(allowed.includes(h.toLowerCase()), h);
    const got = await fetch(paid, { headers: { Origin: 'http://app.example:8080', ...claim } });
    t.is(got.status, 402);
    t.is(got.headers.get('access-control-allow-origin'), 'http://app.example:8080');
    const exposed = (got.headers.get('access-control-expose-headers') ?? '').split(',');
    t.true(exposed.includes('PAYMENT-REQUIRED') && exposed.includes('PAYMENT-RESPONSE'));
    const other = await fetch(paid, { headers: { Origin: 'http://evil.example', ...claim } });
    t.is(other.headers.get('access-control-allow-origin'), null, 'another origin gets no CORS headers');
    t.is(other.status, 402);
  },
);
