import test from 'ava';
import http from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileCheckpointStore } from '@rights-preflight/buyer/node';
import type { BuyerCheckpoint } from '@rights-preflight/buyer';
import { AvailableQuote } from '@rights-preflight/wire/contract/quote.js';
import { runBuyerCli } from './support/run-cli.js';

// The buyer CLI's manners on its error paths, without a devnet: a closed port, a loopback server, claims
// sealed in a temp directory. Each error names what failed; usage errors are one line pointing at --help.

const run = (args: string[], env: Record<string, string> = {}) => runBuyerCli(args, env, 60_000);
const CHECKPOINT_KEY = '5a'.repeat(32);
// Every pin unset, whatever the environment of the test run holds.
const NO_PINS = {
  RIGHTS_SERVICE_URL: '',
  BUYER_NETWORK: '',
  BUYER_ASSET: '',
  BUYER_RECIPIENT: '',
  BUYER_EVIDENCE_KEY: '',
  BUYER_PRIVATE_KEY: '',
};
const PINS = {
  ...NO_PINS,
  BUYER_NETWORK: 'eip155:84532',
  BUYER_ASSET: `0x${'1'.repeat(40)}`,
  BUYER_RECIPIENT: `0x${'2'.repeat(40)}`,
  BUYER_EVIDENCE_KEY: '3b'.repeat(32),
};

let dir: string;
test.before(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'rights-cli-manners-'));
});
test.after.always(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** A loopback service that records each request and answers refund requests as filed. */
async function loopbackService(t: import('ava').ExecutionContext) {
  const seen: { method: string; url: string; body: string }[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d) => {
      body += d;
    });
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', body });
      const purchase_id = body ? (JSON.parse(body) as { purchase_id?: string }).purchase_id : undefined;
      res
        .writeHead(201, { 'content-type': 'application/json' })
        .end(JSON.stringify({ purchase_id, status: 'requested' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((r) => server.close(() => r())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

/** A loopback port that nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

test('an unreachable service is named with its URL and the cause, not "fetch failed"', async (t) => {
  const closed = `http://127.0.0.1:${await closedPort()}`;
  const caps = await run(['capabilities', '--service', closed], NO_PINS);
  t.is(caps.code, 1);
  t.is(
    caps.stderr.split('\n')[0]!.replace(/ECONNREFUSED .*/, 'ECONNREFUSED'),
    `ERROR cannot reach ${closed}/v1/capabilities: connect ECONNREFUSED`,
  );
  t.false(caps.stderr.includes('fetch failed'), caps.stderr);
  // A port fetch refuses to use at all: the URL and fetch's own reason.
  const blocked = await run(['capabilities', '--service', 'http://127.0.0.1:1'], NO_PINS);
  t.is(blocked.stderr.trim(), 'ERROR cannot reach http://127.0.0.1:1/v1/capabilities: bad port');
  const quote = await run(['quote', 'https://pub.example/a', '--purpose', 'ai-input', '--json'], {
    ...PINS,
    RIGHTS_SERVICE_URL: closed,
  });
  t.is(quote.code, 1);
  t.is(
    JSON.parse(quote.stdout).error.message.replace(/ECONNREFUSED .*/, 'ECONNREFUSED'),
    `cannot reach ${closed}/v1/rights/quote: connect ECONNREFUSED`,
  );
});

test('a setting error names the setting (and never prints a secret value)', async (t) => {
  const cap = await run(['quote', 'https://pub.example/a', '--purpose', 'ai-input', '--max-per-report', 'lots'], {
    ...PINS,
    RIGHTS_SERVICE_URL: 'http://127.0.0.1:1',
  });
  t.is(cap.code, 2);
  t.regex(cap.stderr, /--max-per-report or BUYER_MAX_PER_REPORT_MICRO must be micro-USDC digits/);
  const secret = '0xnot-a-key-but-secret';
  const key = await run(['buy', 'https://pub.example/a', '--purpose', 'ai-input'], {
    ...PINS,
    RIGHTS_SERVICE_URL: 'http://127.0.0.1:1',
    BUYER_PRIVATE_KEY: secret,
  });
  t.is(key.code, 2);
  t.regex(key.stderr, /BUYER_PRIVATE_KEY must be 0x and 64 hex digits/);
  t.false(key.stderr.includes(secret));
  const service = await run(['capabilities', '--service', 'localhost:8402']);
  t.is(service.code, 2);
  t.regex(service.stderr, /--service or RIGHTS_SERVICE_URL "localhost:8402" is not an http\(s\) URL/);
});

test('every missing pin is named in one message', async (t) => {
  const r = await run(['quote', 'https://pub.example/a', '--purpose', 'ai-input'], NO_PINS);
  t.is(r.code, 2);
  t.is(
    r.stderr.trim(),
    'missing --service or RIGHTS_SERVICE_URL, --network or BUYER_NETWORK, --asset or BUYER_ASSET, ' +
      '--recipient or BUYER_RECIPIENT, --key or BUYER_EVIDENCE_KEY (see rights-preflight quote --help)',
  );
  const malformed = await run(['quote', 'https://pub.example/a', '--purpose', 'ai-input'], {
    ...PINS,
    RIGHTS_SERVICE_URL: 'http://127.0.0.1:1',
    BUYER_NETWORK: 'base',
    BUYER_ASSET: '',
  });
  t.regex(malformed.stderr, /missing --asset or BUYER_ASSET; --network or BUYER_NETWORK must be eip155:<chain id>/);
});

test('a usage error is one line that points at --help, exit 2, never the whole help page', async (t) => {
  for (const [args, line] of [
    [['quote', '--purpose', 'ai-input'], 'missing <resource-url> (see rights-preflight quote --help)'],
    [
      ['buy', 'https://pub.example/a', '--purpose', 'scraping'],
      /^invalid --purpose "scraping": one of .* \(see rights-preflight buy --help\)$/,
    ],
    [['verify', 'x.json', '--bogus'], /^Unknown option '--bogus'.*\(see rights-preflight verify --help\)$/],
    [['sell'], /^unknown command sell: one of capabilities, .*\(see rights-preflight --help\)$/],
    [[], 'usage: rights-preflight <command> [options] (see rights-preflight --help)'],
  ] as const) {
    const r = await run([...args], { ...PINS, RIGHTS_SERVICE_URL: 'http://127.0.0.1:1' });
    t.is(r.code, 2, args.join(' '));
    t.is(r.stderr.trimEnd().split('\n').length, 1, r.stderr);
    if (typeof line === 'string') t.is(r.stderr.trim(), line);
    else t.regex(r.stderr.trim(), line);
    t.false(r.stderr.includes('examples:'));
  }
});

test('quote --help is true to what quote prints: the decision preview, not a hidden classification', async (t) => {
  const page = (await run(['quote', '--help'])).stdout;
  t.false(/not shown until you buy|hidden until/.test(page), page);
  t.true(page.includes('decision_preview'));
  // What quote prints is the quote without its claim: the codec's decision_preview is part of it.
  t.true('decision_preview' in AvailableQuote.types[0].props);
});

test('refund takes the 12-character prefix buy prints; an unknown or ambiguous prefix is a clear error', async (t) => {
  const service = await loopbackService(t);
  const checkpoints = path.join(dir, 'refund');
  const claims = fileCheckpointStore(path.join(checkpoints, 'claims'), Buffer.from(CHECKPOINT_KEY, 'hex'));
  const ids = [`abcdef012345${'1'.repeat(52)}`, `abcdef0123ff${'2'.repeat(52)}`];
  for (const purchase_id of ids)
    await claims.save({ purchase_id, key: 'claim', base_url: service.url } as unknown as BuyerCheckpoint);
  const env = { ...NO_PINS, BUYER_CHECKPOINT_KEY: CHECKPOINT_KEY };
  const refund = (id: string) =>
    run(['refund', id, '--reason', 'OTHER', '--checkpoint-dir', checkpoints, '--service', service.url], env);
  const filed = await refund(ids[0]!.slice(0, 12));
  t.is(filed.code, 0, filed.stderr);
  t.is(JSON.parse(filed.stdout).purchase_id, ids[0]);
  t.is(JSON.parse(service.seen[0]!.body).purchase_id, ids[0], 'the request names the whole id');
  t.is((await refund(ids[1]!)).code, 0, 'the whole id still works');
  const ambiguous = await refund('abcdef0123');
  t.is(ambiguous.code, 1);
  t.regex(ambiguous.stderr, new RegExp(`prefix abcdef0123 is ambiguous: ${ids[0]}, ${ids[1]}`));
  const unknown = await refund('0123456789ab');
  t.is(unknown.code, 1);
  t.regex(unknown.stderr, /no claim kept for a purchase 0123456789ab…/);
  t.is(service.seen.length, 2, 'nothing sent for an ambiguous or unknown prefix');
});
