import { createCipheriv, createHash } from 'node:crypto';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { getAddress } from 'viem';
import { checkpointAad, type SealedBox } from '@rights-preflight/wire/crypto/aes-gcm.js';
import { canonicalJson } from '@rights-preflight/wire/evidence/canonical-json.js';
import { EVIDENCE_FORMAT } from '@rights-preflight/wire/evidence/envelope.js';
import { keyIdOf } from '@rights-preflight/wire/evidence/public-key.js';
import { nodeByteSigner } from '../../../src/evidence/sign-node.js';
import { gateEntry, gatePreview, type GateReadings } from '../../../src/products/ingestion-gate/report.js';
import { gateInput } from '@rights-preflight/wire/ingestion-gate/gate-input.js';
import { GATE_PATH, GATE_SKU } from '@rights-preflight/wire/contract/ingestion-gate.js';
import { SINGLE_REPORT_SKU } from '@rights-preflight/wire/contract/common.js';
import { inputSha256 } from '@rights-preflight/wire/payment/binding.js';
import { singleReportPrice, type Tier } from '@rights-preflight/wire/pricing/prices.js';
import { claimSha256, claimTokenFor } from '../../../src/money-path/claim.js';
import { buildDelivery } from '../../../src/money-path/deliver.js';
import type { MoneyPathDeps, PaymentTerms } from '../../../src/money-path/deps.js';
import { buildOffer, type Binding } from '../../../src/money-path/offer.js';
import { singleReportInput } from '../../../src/products/single-report/normalize.js';
import { keySha256 } from '../../../src/money-path/request-key.js';
import { signQuote } from '../../../src/money-path/signed-quote.js';
import { ingestionGateProduct } from '../../../src/products/ingestion-gate/product.js';
import { singleReportProduct } from '../../../src/products/single-report/product.js';
import { FetchCache } from '../../../src/rsl/fetch-cache.js';
import { observeAndEvaluate } from '../../../src/rsl/observe.js';
import type { GatePurpose, ReportPurpose, UserClass } from '@rights-preflight/wire/rsl/purposes.js';
import type { ResourceReading } from '../../../src/rsl/reading.js';
import type { FetchResult, Fetcher } from '../../../src/rsl/safe-fetch.js';
import { decisionFor } from '@rights-preflight/wire/rsl/vocabulary.js';
import type { NewEvent } from '../../../src/store/port.js';
import { toNewEvents } from '../../../src/command/new-events.js';
import type { PurchaseCommandBody } from '../../../streams/purchase/commands.js';
import { decide } from '../../../streams/purchase/decide.js';
import type { PurchaseEventData } from '../../../streams/purchase/events.js';
import type { IngestionGateInput } from '../../../streams/purchase/quoted-product.js';
import { evolve } from '../../../streams/purchase/evolve.js';
import { purchaseId, streamName } from '../../../streams/purchase/purchase-id.js';
import { initialState, type PurchaseState } from '../../../streams/purchase/state.js';
import { decideRefund, type RefundCommandBody } from '../../../streams/refund/decide.js';
import { refundStream, type RefundReason } from '../../../streams/refund/events.js';
import { evolveRefund } from '../../../streams/refund/evolve.js';
import { initialRefundState, type RefundState } from '../../../streams/refund/state.js';

// Purchase histories that look like production's, in shape and in size, for benchmarks that need a
// store of 10k–100k purchases (read-model rebuilds). Each history is a legal stream: every event comes
// from the stream's own decider (`decide` + `toNewEvents`, i.e. `decideToAppend` with a seeded id
// source) and is folded with `evolve` as it is made. The event data comes from the service's own
// builders (signQuote, buildOffer, buildDelivery, gateInput, gateEntry) and the real RSL engine, so
// readings, offers and deliveries carry what `npm run demo` writes (measured: Quoted ≈ 3.6 KB and
// 11 KB for a 4-URL gate, Offered ≈ 4.0 KB, AuthorizationCheckpointed ≈ 4.5 KB, Settled ≈ 190 B,
// Delivered ≈ 5.1 KB and 14 KB for the gate; 4.3 KB per event on average).
//
// What is faked, for speed, and why it does not matter to a read model:
//   - Signatures. Envelopes carry the key id of a real Ed25519 key, but per purchase a random
//     128-hex signature: signing 4 envelopes per purchase would cost more than the rest. They do not
//     verify; nothing on the replay path verifies signatures.
//   - The RSL readings are computed once per (publisher, section, purpose, user class) by the real
//     engine over an in-memory copy of the publishers, then re-based on each purchase's page (URL,
//     page digest and size, fetch times, cache hits). The page bytes themselves are not simulated.
//   - Transactions, blocks and EIP-3009 signatures are random; the sealed authorization is a real
//     AES-256-GCM seal (BENCH_CHECKPOINT_KEY) of a real-shaped x402 PaymentPayload.
// Everything is deterministic from `seed`: the same seed gives the same histories, ids included.
//
//   for (const h of purchaseHistories(300, { seed: 7 })) await store.append(h.stream, h.events, 'no_stream');
//   // ./bulk-load.ts
//   await bulkLoad(store.sql!, purchaseHistoriesInWorker(100_000, { seed: 7 }), { interleave: true });

/** The paths a purchase takes, and the share of purchases that take each one. */
export const PURCHASE_MIX = [
  { path: 'delivered', share: 0.85, events: 'Quoted Offered AuthorizationCheckpointed Settled Delivered' },
  { path: 'abandoned', share: 0.05, events: 'Quoted (the buyer never paid)' },
  {
    path: 'submitted',
    share: 0.03,
    events: 'Quoted Offered AuthorizationCheckpointed SettlementSubmitted Settled Delivered',
  },
  {
    path: 'held',
    share: 0.03,
    events: 'settlement failed or mismatched → Held; or Delivered → Held (buyer report); some closed by an operator',
  },
  {
    path: 'lock_stuck',
    share: 0.02,
    events: 'AuthorizationCheckpointed [SettlementSubmitted…] LockStuck (still open)',
  },
  {
    path: 'operator_moved',
    share: 0.02,
    events:
      'LockStuck → OperatorMoved: retry_settlement → Settled Delivered (60%) | ' +
      'accept_settlement → Delivered (15%) | closed_no_charge (25%)',
  },
] as const;
export type PurchasePath = (typeof PURCHASE_MIX)[number]['path'];

/** Of the purchases that end delivered, the share whose buyer files a refund request (its own stream). */
export const REFUND_SHARE = 0.01;
/** Of all purchases, the share bought through the ingestion gate (2–6 URLs) rather than one report. */
export const GATE_SHARE = 0.1;
export const HISTORY_DAYS = 30;

export interface PurchaseHistory {
  stream: string;
  events: NewEvent[];
  /** The mix path of a purchase stream, or 'refund' for a refund-request stream. */
  path: PurchasePath | 'refund';
}

export interface HistoryOptions {
  seed?: number;
  /** The first quote; purchases spread over HISTORY_DAYS from here. */
  start?: Date;
  /**
   * 'mix' (default): PURCHASE_MIX. 'quoted': every purchase is only its Quoted event (a quote nobody
   * paid). 'full': every purchase goes the whole way through a recovery pass, seven events: Quoted,
   * Offered, AuthorizationCheckpointed, SettlementBroadcast, SettlementSubmitted, Settled, Delivered;
   * no refunds. Rebuild benchmarks use the two ends to show the cost per purchase and per event.
   */
  shape?: 'mix' | 'quoted' | 'full';
}

// ---------------------------------------------------------------------------------------------
// The service the histories come from: one deployment, fixed keys (the benchmark may want to open a
// sealed payment or know the evidence key id).

export const BENCH_CHECKPOINT_KEY: Uint8Array = new Uint8Array(32).fill(0x5c);
const CLAIM_SECRET = new Uint8Array(32).fill(0x3a);
const evidenceKey = nodeByteSigner(new Uint8Array(32).fill(0x2b));
export const BENCH_EVIDENCE_KEY_ID = keyIdOf(evidenceKey.publicKey);
const BASE_URL = 'https://preflight.rights-service.example';
const TERMS: PaymentTerms = {
  network: 'eip155:8453',
  asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
  payTo: getAddress('0x5a1f3e2c9b8d7e6f4a0b1c2d3e4f5a6b7c8d9e0f'),
  eip712: { name: 'USD Coin', version: '2' },
  maxTimeoutSeconds: 300,
  settlementWindowSeconds: 68,
};
const QUOTE_TTL_SECONDS = 900;
const BASE_BLOCK = 38_000_000; // Base mainnet, ~2 s blocks
const OPERATORS = ['ops@rights-service.example', 'maria.k@rights-service.example', 'jun@rights-service.example'];

// ---------------------------------------------------------------------------------------------
// Publishers: ~20 origins with the kinds of declarations seen in the wild, read by the real engine.

const NS = 'https://rslstandard.org/rsl';
const rslDoc = (body: string, maxAge?: number) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n` +
  `<rsl xmlns="${NS}"${maxAge ? ` max-age="${maxAge}"` : ''}>\n${body}\n</rsl>\n`;
const owner = (name: string, host: string) =>
  `<copyright type="organization" contactEmail="licensing@${host}" contactUrl="https://${host}/contact">` +
  `${name}</copyright>\n    <terms>https://${host}/legal/ai-terms</terms>`;

/** A <content> element: its attributes, then its children (licenses, the owner), one a line. */
const content = (attributes: string, ...children: string[]) =>
  `  <content ${attributes}>\n${children.map((c) => `    ${c}\n`).join('')}  </content>`;
/** A <license> element of these lines. */
const license = (...lines: string[]) => `<license>\n${lines.map((l) => `      ${l}\n`).join('')}    </license>`;
const permits = (usages: string) => `<permits type="usage">${usages}</permits>`;
const prohibits = (usages: string) => `<prohibits type="usage">${usages}</prohibits>`;
const users = (classes: string) => `<permits type="user">${classes}</permits>`;
const FREE = '<payment type="free"/>';

interface Publisher {
  host: string;
  name: string;
  sections: string[];
  /** Where the RSL association lives; 'none' publishers appear only inside gate requests. */
  via: 'robots' | 'link-header' | 'html-link' | 'link-header+html-link' | 'robots-404' | 'none';
  /** The license document(s), by path. */
  docs: Record<string, string>;
}

function publishers(): Publisher[] {
  const P = (
    host: string,
    name: string,
    sections: string[],
    via: Publisher['via'],
    docs: (h: string, n: string) => Record<string, string>,
  ): Publisher => ({ host, name, sections, via, docs: docs(host, name) });
  const freeNoTrain = (h: string, n: string) => ({
    '/license.xml': rslDoc(
      content(
        'url="/" lastmod="2026-09-14T08:00:00Z"',
        license(permits('ai-input ai-index search'), prohibits('ai-train'), FREE),
        owner(n, h),
      ),
      7,
    ),
  });
  const closed = (h: string, n: string) => ({
    '/license.xml': rslDoc(content('url="/"', license(prohibits('ai-input ai-index ai-train search')), owner(n, h))),
  });
  const purchase = (h: string, n: string) => ({
    '/license.xml': rslDoc(
      content(
        `url="/" server="https://licensing.${h}"`,
        license(
          permits('ai-input ai-index search'),
          '<payment type="purchase"><standard>https://rslcollective.org/license</standard></payment>',
        ),
        license(prohibits('ai-train')),
        owner(n, h),
      ),
      14,
    ),
  });
  const perUse = (h: string, n: string) => ({
    '/rsl.xml': rslDoc(
      content(
        'url="/"',
        license(
          permits('ai-input search'),
          users('commercial non-commercial education'),
          '<payment type="use"><amount currency="USD">0.002</amount><accepts type="application/x402+json">' +
            '<![CDATA[{"scheme":"exact","network":"eip155:8453"}]]></accepts></payment>',
          `<reporting type="telemetry" profile="https://${h}/rsl/telemetry"/>`,
        ),
        license(prohibits('ai-train ai-index')),
        owner(n, h),
      ),
    ),
  });
  const sections = (h: string, n: string) => ({
    '/license.xml': rslDoc(
      [
        content('url="/"', license(permits('search'), FREE)),
        content(
          'url="/news/*" lastmod="2026-10-01T00:00:00Z"',
          license(permits('ai-input ai-index search'), '<payment type="attribution"/>'),
          license(prohibits('ai-train')),
          owner(n, h),
        ),
        content('url="/premium/*"', license(prohibits('ai-input ai-index ai-train')), owner(n, h)),
      ].join('\n'),
      3,
    ),
  });
  const openAll = (h: string, n: string) => ({
    '/license.xml': rslDoc(content('url="/"', license(permits('all'), FREE), owner(n, h)), 30),
  });
  const education = (h: string, n: string) => ({
    '/license.xml': rslDoc(
      content(
        'url="/"',
        license(permits('ai-input ai-index ai-train search'), users('education non-commercial'), FREE),
        license(
          permits('ai-input ai-index search'),
          users('commercial'),
          `<payment type="subscription"><custom>https://${h}/licensing</custom></payment>`,
        ),
        owner(n, h),
      ),
    ),
  });
  const conflicting = (h: string, n: string) => ({
    '/license.xml': rslDoc(
      content('url="/"', license(permits('ai-input ai-index ai-train search'), FREE), owner(n, h)),
    ),
    '/legal/rsl.xml': rslDoc(content('url="/"', license(prohibits('ai-train')), owner(n, h))),
  });
  const searchOnly = (h: string, n: string) => ({
    '/license.xml': rslDoc(
      content(
        'url="/"',
        license(permits('search'), FREE),
        license(prohibits('ai-input ai-index ai-train')),
        owner(n, h),
      ),
    ),
  });
  return [
    P('www.harborgazette.example', 'Harbor Gazette', ['news', 'business', 'opinion'], 'robots', freeNoTrain),
    P('news.northwindpost.example', 'Northwind Post', ['news', 'world'], 'robots', freeNoTrain),
    P('www.cityledger.example', 'City Ledger', ['local', 'politics'], 'html-link', freeNoTrain),
    P('blog.quietcompiler.example', 'Quiet Compiler', ['posts'], 'link-header', openAll),
    P('docs.parcelkit.example', 'ParcelKit', ['docs', 'guides'], 'robots', openAll),
    P('www.marketwire-daily.example', 'Marketwire Daily', ['markets', 'companies'], 'robots', closed),
    P('www.thefinancialsun.example', 'The Financial Sun', ['economy', 'markets'], 'robots', closed),
    P('archive.stillwaterpress.example', 'Stillwater Press', ['archive'], 'html-link', closed),
    P('research.meridianlabs.example', 'Meridian Labs', ['papers', 'datasets'], 'robots', purchase),
    P('www.lumenjournal.example', 'Lumen Journal', ['articles', 'reviews'], 'robots', purchase),
    P('www.coastalrecipes.example', 'Coastal Recipes', ['recipes', 'guides'], 'link-header', purchase),
    P('api-news.brightwire.example', 'Brightwire', ['wire', 'news'], 'robots', perUse),
    P('www.atlasreview.example', 'Atlas Review', ['essays', 'books'], 'robots', perUse),
    P('www.dailycompass.example', 'Daily Compass', ['news', 'premium', 'sport'], 'robots', sections),
    P('www.eveningtribune.example', 'Evening Tribune', ['news', 'premium'], 'robots', sections),
    P('courses.openacademy.example', 'Open Academy', ['courses', 'lectures'], 'robots', education),
    P(
      'www.greenfieldscience.example',
      'Greenfield Science',
      ['science', 'climate'],
      'link-header+html-link',
      conflicting,
    ),
    P('www.shopfront-reviews.example', 'Shopfront Reviews', ['reviews', 'deals'], 'robots', searchOnly),
    P('www.travelnotes.example', 'Travel Notes', ['destinations', 'tips'], 'html-link', searchOnly),
    P('www.sportsdesk.example', 'Sports Desk', ['football', 'tennis'], 'robots-404', freeNoTrain),
    P('www.plainpages.example', 'Plain Pages', ['pages'], 'none', () => ({})),
    P('forum.tinkerers.example', 'Tinkerers Forum', ['threads'], 'none', () => ({})),
  ];
}

const PUBLISHERS = publishers();
const DECLARED = PUBLISHERS.filter((p) => p.via !== 'none');
const COVERED = PUBLISHERS.map((p) => `https://${p.host}`);
const SINGLE_PURPOSES: readonly ReportPurpose[] = ['ai-input', 'ai-index', 'ai-train', 'search'];
const GATE_PURPOSES: readonly GatePurpose[] = [
  'rag-ingestion',
  'summarization',
  'training',
  'search-indexing',
  'ai-input',
  'ai-index',
];
const USER_CLASSES: readonly UserClass[] = ['commercial', 'education', 'non-commercial'];
const TEMPLATE_PAGE = 'template-article';

/** The publisher's site as its HTTPS server would answer (robots.txt, license documents, one page). */
function siteOf(p: Publisher): Map<string, { status: number; headers: Record<string, string>; body: string }> {
  const site = new Map<string, { status: number; headers: Record<string, string>; body: string }>();
  const base = `https://${p.host}`;
  const docPaths = Object.keys(p.docs);
  const robotsLicense =
    p.via === 'robots' || p.via === 'robots-404' ? `License: ${base}${docPaths[0] ?? '/license.xml'}\n` : '';
  site.set(`${base}/robots.txt`, {
    status: 200,
    headers: { 'content-type': 'text/plain' },
    body:
      // The License line is global, so GPTBot's group (which has none) selects it too (RSL §4.4.3).
      `# ${p.name}\n${robotsLicense}User-agent: *\nAllow: /\nDisallow: /search\nDisallow: /account/\n\n` +
      `User-agent: GPTBot\nDisallow: /premium/\n\nSitemap: ${base}/sitemap.xml\n`,
  });
  if (p.via !== 'robots-404')
    for (const [path, body] of Object.entries(p.docs))
      site.set(`${base}${path}`, {
        status: 200,
        headers: { 'content-type': 'application/rsl+xml', 'cache-control': 'max-age=3600' },
        body,
      });
  // Two page-level associations of equal weight that disagree make a CONFLICT (evaluate.ts, channels).
  const link: Record<string, string> =
    p.via === 'link-header' || p.via === 'link-header+html-link'
      ? { link: `<${base}${docPaths[0]}>; rel="license"; type="application/rsl+xml"` }
      : {};
  const htmlDoc = p.via === 'link-header+html-link' ? docPaths[1] : docPaths[0];
  const head =
    p.via === 'html-link' || p.via === 'link-header+html-link'
      ? `<link rel="license" type="application/rsl+xml" href="${base}${htmlDoc}">`
      : '';
  for (const section of p.sections) {
    site.set(`${base}/${section}/${TEMPLATE_PAGE}`, {
      status: 200,
      headers: { 'content-type': 'text/html; charset=utf-8', ...link },
      body: `<!doctype html><html><head><title>${p.name}</title>${head}</head><body><article>…</article></body></html>`,
    });
  }
  return site;
}

const PAGES = new Map(PUBLISHERS.flatMap((p) => [...siteOf(p)]));

/** The publishers served from memory, through the same FetchCache the service puts in front of its fetcher. */
function memoryFetcher(at: string): Fetcher {
  return {
    async get(url: string): Promise<FetchResult> {
      const page = PAGES.get(url) ?? {
        status: 404,
        headers: { 'content-type': 'text/html' },
        body: '<h1>Not found</h1>',
      };
      const body = Buffer.from(page.body, 'utf8');
      return {
        ok: true,
        url,
        status: page.status,
        headers: page.headers,
        body,
        sha256: createHash('sha256').update(body).digest('hex'),
        fetchedAt: at,
        remoteAddress: '198.51.100.7',
      };
    },
    close() {},
  };
}

const templateKey = (host: string, section: string, purpose: GatePurpose, userClass: UserClass) =>
  `${host}/${section}|${purpose}|${userClass}`;

/** One real reading per (publisher, section, purpose, user class); each purchase re-bases one on its page. */
async function readingTemplates(): Promise<Map<string, ResourceReading>> {
  const at = '2026-01-01T00:00:00.000Z';
  const out = new Map<string, ResourceReading>();
  for (const p of PUBLISHERS) {
    for (const section of p.sections) {
      for (const purpose of [...SINGLE_PURPOSES, ...GATE_PURPOSES]) {
        for (const userClass of USER_CLASSES) {
          const deps = { cache: new FetchCache(memoryFetcher(at)), coveredOrigins: COVERED, now: () => new Date(at) };
          const reading = await observeAndEvaluate(
            `https://${p.host}/${section}/${TEMPLATE_PAGE}`,
            [purpose],
            { userClass, geo: null, freshnessSeconds: 300 },
            deps,
          );
          out.set(templateKey(p.host, section, purpose, userClass), reading);
        }
      }
    }
  }
  return out;
}

const TEMPLATES = await readingTemplates();

// ---------------------------------------------------------------------------------------------
// Seeded randomness (sfc32): fast, and the same seed gives byte-identical histories.

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  constructor(seed: number) {
    this.a = 0x9e3779b9;
    this.b = 0x243f6a88;
    this.c = 0xb7e15162;
    this.d = seed >>> 0;
    for (let i = 0; i < 16; i++) this.u32();
  }
  u32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }
  next(): number {
    return this.u32() / 4294967296;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  between(lo: number, hi: number): number {
    return lo + this.int(hi - lo + 1);
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)]!;
  }
  weighted<T>(table: readonly (readonly [T, number])[]): T {
    let r = this.next() * table.reduce((s, [, w]) => s + w, 0);
    for (const [v, w] of table) if ((r -= w) < 0) return v;
    return table[table.length - 1]![0];
  }
  hex(bytes: number): string {
    let s = '';
    for (let i = 0; i < bytes; i += 4) {
      const u = this.u32();
      s += HEX[u & 255]! + HEX[(u >>> 8) & 255]! + HEX[(u >>> 16) & 255]! + HEX[u >>> 24]!;
    }
    return s.length === bytes * 2 ? s : s.slice(0, bytes * 2);
  }
  bytes(n: number): Buffer {
    return Buffer.from(this.hex(n), 'hex');
  }
  uuid(): string {
    const h = this.hex(16);
    return (
      `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-` +
      `${'89ab'[this.int(4)]}${h.slice(17, 20)}-${h.slice(20, 32)}`
    );
  }
}

// ---------------------------------------------------------------------------------------------
// One purchase: commands judged by the real decider, state folded with the real evolve.

class Stream {
  state: PurchaseState = initialState;
  readonly events: NewEvent[] = [];
  constructor(private readonly newId: () => string) {}
  /** decideToAppend with seeded ids; a refusal here is a bug in the generator, so it throws. */
  run(command: PurchaseCommandBody, now: Date): void {
    const decided = decide({ ...command, metadata: { now } }, this.state);
    for (const e of decided) this.state = evolve(this.state, e);
    this.events.push(...toNewEvents(decided, this.newId));
  }
}

const SLUGS = [
  'storm-season',
  'quarterly-results',
  'city-council',
  'new-study',
  'interview',
  'transfer-window',
  'recipe-of-the-week',
  'how-to',
  'long-read',
  'explainer',
  'live-updates',
  'review',
  'analysis',
  'open-letter',
  'field-notes',
];
const GATE_PURPOSE_WEIGHTS = [
  ['rag-ingestion', 45],
  ['summarization', 20],
  ['training', 10],
  ['search-indexing', 10],
  ['ai-input', 10],
  ['ai-index', 5],
] as const;
const SINGLE_PURPOSE_WEIGHTS = [
  ['ai-input', 40],
  ['ai-index', 25],
  ['ai-train', 20],
  ['search', 15],
] as const;
const USER_CLASS_WEIGHTS = [
  ['commercial', 88],
  ['education', 8],
  ['non-commercial', 4],
] as const;
/** How a held purchase came to be held (PURCHASE_MIX's `held`). */
const HELD_WEIGHTS = [
  ['failed', 40],
  ['mismatch', 25],
  ['after_delivery', 35],
] as const;
/** What the operator did with a stuck purchase (PURCHASE_MIX's `operator_moved`). */
const OPERATOR_MOVE_WEIGHTS = [
  ['retry_settlement', 60],
  ['accept_settlement', 15],
  ['closed_no_charge', 25],
] as const;

/**
 * `n` purchase histories (plus refund-request streams for ~1% of the delivered ones, yielded a little
 * later, as buyers file them days after), in the order of their first event.
 */
export function* purchaseHistories(n: number, opts: HistoryOptions = {}): Generator<PurchaseHistory> {
  const rng = new Rng(opts.seed ?? 1);
  const start = (opts.start ?? new Date('2026-10-01T00:00:00.000Z')).getTime();
  const span = HISTORY_DAYS * 86_400_000;
  const newId = () => rng.uuid();
  let clock = new Date(start);
  const deps = {
    now: () => clock,
    baseUrl: BASE_URL,
    quoteTtlSeconds: QUOTE_TTL_SECONDS,
    terms: TERMS,
    evidenceKeyId: BENCH_EVIDENCE_KEY_ID,
    sign: <P extends Record<string, unknown>>(payload: P) => ({
      algorithm: 'Ed25519' as const,
      format: EVIDENCE_FORMAT,
      payload,
      signature: rng.hex(64),
    }),
    products: { [SINGLE_REPORT_SKU]: singleReportProduct, [GATE_SKU]: ingestionGateProduct },
  } as unknown as MoneyPathDeps; // the builders use only these fields
  // A few thousand buyers, a handful of them buying most: payer i is drawn with weight ~ 1/sqrt(i).
  const payers = Array.from({ length: 3000 }, () => getAddress(`0x${rng.hex(20)}`));
  const payer = () => payers[Math.floor(payers.length * rng.next() ** 2)]!;
  const tx = () => `0x${rng.hex(32)}` as const;
  const blockAt = (ms: number) => String(BASE_BLOCK + Math.floor((ms - start) / 2000));
  const pending: { due: number; history: PurchaseHistory }[] = [];

  const page = (p: Publisher) => {
    const section = rng.pick(p.sections);
    const d = new Date(start - rng.int(400) * 86_400_000);
    const path =
      `/${section}/${d.getUTCFullYear()}/${String(d.getUTCMonth() + 1).padStart(2, '0')}/` +
      `${rng.pick(SLUGS)}-${rng.int(50_000)}`;
    return { publisher: p, section, resource: `https://${p.host}${path}` };
  };
  /** The template reading, moved onto this page and this moment (some channels served from the fetch cache). */
  const reading = (
    pg: ReturnType<typeof page>,
    purpose: GatePurpose,
    userClass: UserClass,
    observedMs: number,
    freshness: number,
  ): ResourceReading => {
    const tpl = TEMPLATES.get(templateKey(pg.publisher.host, pg.section, purpose, userClass))!;
    const tplUrl = tpl.resource;
    const cachedUpTo = Math.min(freshness, 300) * 1000;
    return {
      ...tpl,
      resource: pg.resource,
      freshness_seconds: freshness,
      observed_at: new Date(observedMs).toISOString(),
      observations: tpl.observations.map((o) => {
        if (o.url === tplUrl)
          return {
            ...o,
            url: pg.resource,
            sha256: rng.hex(32),
            bytes: rng.between(18_000, 240_000),
            fetched_at: new Date(observedMs + rng.between(2, 60)).toISOString(),
          };
        const cached = cachedUpTo > 0 && rng.chance(0.6);
        return {
          ...o,
          cached,
          fetched_at: new Date(observedMs - (cached ? rng.int(cachedUpTo) : -rng.between(1, 80))).toISOString(),
        };
      }),
    };
  };

  function quoteSingle(s: Stream, t0: number): Binding {
    const pg = page(rng.pick(DECLARED));
    const purpose = rng.weighted(SINGLE_PURPOSE_WEIGHTS);
    const tier: Tier = rng.chance(0.8) ? 'fresh' : 'deep';
    const userClass = rng.weighted(USER_CLASS_WEIGHTS);
    const r = reading(pg, purpose, userClass, t0 - rng.between(150, 1500), 300);
    const pr = r.purposes[0]!;
    const input = singleReportInput(pg.resource, purpose, tier, userClass);
    const inputDigest = inputSha256(input);
    // key: the quote's random report id
    const id = purchaseId({ sku: SINGLE_REPORT_SKU, key_sha256: keySha256(rng.hex(32)), input_sha256: inputDigest });
    const claim = claimTokenFor(CLAIM_SECRET, id);
    const price = singleReportPrice(tier);
    clock = new Date(t0);
    const { signedQuote, expiresAt } = signQuote(deps, price, {
      purchase_id: id,
      sku: SINGLE_REPORT_SKU,
      resource: pg.resource,
      purpose,
      tier,
      user_class: userClass,
      input_sha256: inputDigest,
      decision_preview: { classification: pr.classification, decision: pr.decision },
    });
    s.run(
      {
        type: 'Quote',
        data: {
          purchase_id: id,
          sku: SINGLE_REPORT_SKU,
          input,
          input_sha256: inputDigest,
          max_total_micro: rng.pick(['50000', '100000', '150000', '250000', '1000000']),
          price_micro: price.toString(),
          decision_preview: { purpose, classification: pr.classification, decision: pr.decision },
          signed_quote: signedQuote,
          expires_at: expiresAt,
          claim_sha256: claimSha256(claim),
          reading: r,
        },
      },
      clock,
    );
    return { key: claim, source: 'x-service-claim' };
  }

  function quoteGate(s: Stream, t0: number): Binding {
    const count = rng.between(2, 6);
    const pages = [page(rng.pick(DECLARED))]; // at least one declaration, else the gate answers unavailable
    while (pages.length < count) {
      const pg = page(rng.chance(0.15) ? rng.pick(PUBLISHERS.filter((p) => p.via === 'none')) : rng.pick(DECLARED));
      if (!pages.some((x) => x.resource === pg.resource)) pages.push(pg);
    }
    const purpose = rng.weighted(GATE_PURPOSE_WEIGHTS);
    const userClass = rng.weighted(USER_CLASS_WEIGHTS);
    const tier: Tier = rng.chance(0.85) ? 'fresh' : 'deep';
    const freshness = rng.weighted([
      [300, 80],
      [0, 10],
      [3600, 10],
    ] as const);
    const g = gateInput({
      resources: pages.map((p) => p.resource),
      purpose,
      user_class: userClass,
      geo: null,
      freshness_seconds: freshness,
      tier,
    });
    const key = rng.hex(32); // the buyer's X-Service-Request: the purchase's key and its claim
    const id = purchaseId({ sku: GATE_SKU, key_sha256: keySha256(key), input_sha256: g.input_sha256 });
    const readings = pages.map((pg) => reading(pg, purpose, userClass, t0 - rng.between(300, 4000), freshness));
    const entries = readings.map((r) => gateEntry(r, purpose));
    const combined = gatePreview(entries);
    const gateUrl = BASE_URL + GATE_PATH;
    const pinned = payer();
    clock = new Date(t0);
    const { signedQuote, expiresAt } = signQuote(deps, g.price_micro, {
      purchase_id: id,
      sku: GATE_SKU,
      resource: gateUrl,
      resources: g.body.resources,
      purpose,
      tier,
      user_class: userClass,
      geo: null,
      freshness_seconds: freshness,
      input_sha256: g.input_sha256,
      classifications: entries.map((e) => ({ resource: e.resource, classification: e.classification })),
      payer: pinned,
    });
    const input: IngestionGateInput = {
      sku: GATE_SKU,
      resource: gateUrl,
      purpose,
      tier,
      user_class: userClass,
      geo: null,
      freshness_seconds: freshness,
      resources: g.body.resources,
    };
    const gateReadings: GateReadings = { version: 'rsl-gate-readings-v1', readings };
    s.run(
      {
        type: 'Quote',
        data: {
          purchase_id: id,
          sku: GATE_SKU,
          input,
          input_sha256: g.input_sha256,
          max_total_micro: (g.price_micro + BigInt(rng.pick([0, 0, 20_000, 100_000]))).toString(),
          price_micro: g.price_micro.toString(),
          decision_preview: { purpose, classification: combined, decision: decisionFor(combined) },
          signed_quote: signedQuote,
          expires_at: expiresAt,
          claim_sha256: keySha256(key),
          reading: gateReadings,
          payer: pinned,
        },
      },
      clock,
    );
    return { key, source: 'x-service-request' };
  }

  /** The buyer signs the offer: the x402 PaymentPayload the service seals and checkpoints. */
  function checkpoint(s: Stream, at: number): void {
    const q = s.state.quoted!;
    const o = s.state.offered!;
    const from = q.payer ?? payer();
    const validBefore = String(Math.floor(at / 1000) + TERMS.maxTimeoutSeconds);
    const payload = {
      x402Version: 2,
      resource: o.payment_required.resource,
      accepted: o.requirements,
      payload: {
        signature: `0x${rng.hex(65)}`,
        authorization: {
          from,
          to: o.requirements.payTo,
          value: o.requirements.amount,
          validAfter: '0',
          validBefore,
          nonce: o.nonce,
        },
      },
      extensions: o.payment_required.extensions,
    };
    clock = new Date(at);
    s.run(
      {
        type: 'CheckpointAuthorization',
        data: {
          sealed_payment: sealSync(JSON.stringify(payload), checkpointAad(q.purchase_id), rng.bytes(12)),
          payment_sha256: createHash('sha256').update(canonicalJson(payload), 'utf8').digest('hex'),
          payer: from,
          nonce: o.nonce,
          amount: o.requirements.amount,
          valid_before: validBefore,
          at: clock.toISOString(),
          from_block: blockAt(at - 400),
        },
      },
      clock,
    );
  }

  const settlement = (s: Stream, at: number, transaction = tx()): PurchaseEventData<'Settled'> => ({
    network: TERMS.network,
    transaction,
    payer: s.state.checkpoint!.payer,
    amount: s.state.checkpoint!.amount,
    block: blockAt(at),
  });
  const settle = (s: Stream, at: number, transaction?: `0x${string}`) => {
    clock = new Date(at);
    s.run({ type: 'RecordSettlement', data: settlement(s, at, transaction) }, clock);
  };
  const deliver = (s: Stream, at: number) => {
    clock = new Date(at);
    if (s.state.status !== 'settled') throw new Error(`deliver from ${s.state.status}`);
    s.run({ type: 'Deliver', data: buildDelivery(deps, s.state) }, clock);
  };
  const submit = (s: Stream, at: number, transaction: `0x${string}` | null) => {
    clock = new Date(at);
    const reason = transaction
      ? rng.pick(['settlement_pending', 'receipt_without_transfer_log', 'submission_outcome_unknown:timeout'])
      : rng.pick([
          'facilitator_unavailable:TimeoutError',
          'settle_threw:HttpRequestError',
          'submission_outcome_unknown:unknown',
        ]);
    s.run({ type: 'RecordSubmission', data: { transaction, reason, at: clock.toISOString() } }, clock);
  };
  const operatorMove = (
    s: Stream,
    at: number,
    target: PurchaseEventData<'OperatorMoved'>['target'],
    note: string,
    extra: Partial<PurchaseEventData<'OperatorMoved'>> = {},
  ) => {
    clock = new Date(at);
    s.run(
      {
        type: 'OperatorMove',
        data: { target, note, operator: rng.pick(OPERATORS), at: clock.toISOString(), ...extra },
      },
      clock,
    );
  };
  const stuck = (s: Stream, at: number, reason: string, details: Record<string, unknown>, thisPass: string[]) => {
    clock = new Date(at);
    const tried = [...Array.from({ length: s.state.submissions }, () => 'submit_settlement'), ...thisPass];
    s.run(
      {
        type: 'MarkLockStuck',
        data: {
          reason,
          details,
          last_step: s.state.status,
          tried,
          at: clock.toISOString(),
          since: s.state.checkpoint!.at,
        },
      },
      clock,
    );
  };

  function refund(s: Stream, binding: Binding, at: number): PurchaseHistory {
    let state: RefundState = initialRefundState;
    const events: NewEvent[] = [];
    const step = (command: RefundCommandBody, ms: number) => {
      const decided = decideRefund({ ...command, metadata: { now: new Date(ms) } }, state);
      for (const e of decided) state = evolveRefund(state, e);
      events.push(...toNewEvents(decided, newId));
    };
    const st = s.state;
    const reason: RefundReason = rng.weighted([
      ['VERIFICATION_FAILED', 30],
      ['CHARGED_INCORRECTLY', 25],
      ['OTHER', 45],
    ] as const);
    const message = rng.pick([
      'The report came back but our verifier rejected the evidence signature; ' +
        'please check and refund if the delivery was faulty.',
      'We were charged for this report, but the same resource was already covered ' +
        'by an earlier purchase made by our pipeline minutes before.',
      'Our ingestion job was cancelled before the report was used. Requesting a refund as a courtesy; no urgency.',
      'Charged twice according to our ledger (see our second transaction on the same day). Please review.',
      '',
    ]);
    step(
      {
        type: 'RequestRefund',
        data: {
          purchase_id: st.quoted!.purchase_id,
          reason,
          message,
          claim: binding.key,
          purchase: {
            status: st.status,
            closedWithoutCharge: false,
            authorization: { amount: st.checkpoint!.amount, payer: st.checkpoint!.payer },
            settlement: { amount: st.settled!.amount, payer: st.settled!.payer, transaction: st.settled!.transaction },
          },
        },
      },
      at,
    );
    if (rng.chance(0.7)) {
      const approved = rng.chance(0.55);
      const reviewed = at + rng.between(2, 72) * 3_600_000;
      step(
        {
          type: 'ReviewRefund',
          data: {
            decision: approved ? 'approved' : 'rejected',
            note: approved
              ? 'confirmed on chain; refund goodwill'
              : 'report verified against the published key; delivered as sold',
            operator: rng.pick(OPERATORS),
            at: new Date(reviewed).toISOString(),
          },
        },
        reviewed,
      );
      if (approved && rng.chance(0.5)) {
        const paid = reviewed + rng.between(1, 48) * 3_600_000;
        const transaction = tx();
        step(
          {
            type: 'RecordRefundPayment',
            data: {
              transaction,
              amount_micro: st.settled!.amount,
              note: 'refunded in full from the recipient wallet',
              operator: rng.pick(OPERATORS),
              at: new Date(paid).toISOString(),
              // What the chain would say of a refund sent from the recipient wallet.
              onChain: {
                transaction,
                receipt: 'success',
                transfers: [{ from: TERMS.payTo, to: st.settled!.payer, value: st.settled!.amount }],
              },
              senders: 'any',
            },
          },
          paid,
        );
      }
    }
    return { stream: refundStream(st.quoted!.purchase_id), events, path: 'refund' };
  }

  /** What happens after the checkpoint, per path; each returns the time of its last event. */
  const afterCheckpoint: Record<Exclude<PurchasePath, 'abandoned'>, (s: Stream, t: number) => number> = {
    delivered(s, t) {
      settle(s, (t += rng.between(1500, 6000)));
      deliver(s, (t += rng.between(20, 400)));
      return t;
    },
    submitted(s, t) {
      const transaction = rng.chance(0.7) ? tx() : null;
      submit(s, (t += rng.between(10_000, 30_000)), transaction);
      settle(s, (t += rng.between(20_000, 120_000)), transaction ?? undefined); // the recovery pass finds it
      deliver(s, (t += rng.between(20, 400)));
      return t;
    },
    /** ~40% settlement refused, ~25% settled to other terms, ~35% held after delivery; some resolved. */
    held(s, t) {
      const kind = rng.weighted(HELD_WEIGHTS);
      if (kind === 'failed') {
        clock = new Date((t += rng.between(1500, 6000)));
        const settleReason = rng.pick([
          'invalid_exact_evm_insufficient_balance',
          'invalid_exact_evm_payload_authorization_valid_before',
          'invalid_exact_evm_transaction_failed',
          'invalid_exact_evm_nonce_already_used',
        ]);
        s.run(
          {
            type: 'Hold',
            data: { reason: 'SETTLEMENT_FAILED', details: { settle_reason: settleReason }, at: clock.toISOString() },
          },
          clock,
        );
        if (rng.chance(0.4))
          operatorMove(
            s,
            (t += rng.between(1, 48) * 3_600_000),
            'closed_no_charge',
            'settlement refused before broadcast; no transfer on chain',
          );
      } else if (kind === 'mismatch') {
        // The transfer found on chain differs from the offer: the decider itself answers Held.
        const good = settlement(s, (t += rng.between(1500, 6000)));
        const bad = rng.chance(0.5)
          ? { ...good, amount: String(BigInt(good.amount) - 1n) }
          : { ...good, payer: getAddress(`0x${rng.hex(20)}`) };
        clock = new Date(t);
        s.run({ type: 'RecordSettlement', data: bad }, clock);
      } else {
        t = afterCheckpoint.delivered(s, t);
        clock = new Date((t += rng.between(1, 96) * 3_600_000));
        const details = {
          field: rng.pick(['evidence', 'delivery_proof', 'report']),
          reported_by: 'buyer',
          note: 'buyer verifier rejected the delivered report',
        };
        s.run({ type: 'Hold', data: { reason: 'BUYER_REPORTED_MISMATCH', details, at: clock.toISOString() } }, clock);
        if (rng.chance(0.5))
          operatorMove(
            s,
            (t += rng.between(1, 48) * 3_600_000),
            'closed_settled_delivered',
            'report re-verified against the published key; delivery stands',
          );
      }
      return t;
    },
    lock_stuck(s, t) {
      const [reason, details, thisPass] = rng.pick([
        [
          'WINDOW_PASSED_UNSETTLED',
          { valid_before: s.state.checkpoint!.valid_before },
          ['read_authorization_state', 'check_validity_window'],
        ],
        ['AUTHORIZATION_USED_TRANSFER_NOT_FOUND', {}, ['read_authorization_state', 'find_transfer']],
        ['CHAIN_UNREACHABLE', {}, ['read_authorization_state']],
      ] as const);
      return stuckAfterSubmissions(s, t, reason, details, [...thisPass]);
    },
    /** Stuck, then an operator: resubmit (→ settled, delivered), accept a transfer found by hand, or close. */
    operator_moved(s, t) {
      const target = rng.weighted(OPERATOR_MOVE_WEIGHTS);
      if (target === 'closed_no_charge') {
        t = stuckAfterSubmissions(s, t, 'WINDOW_PASSED_UNSETTLED', { valid_before: s.state.checkpoint!.valid_before }, [
          'read_authorization_state',
          'check_validity_window',
        ]);
        operatorMove(
          s,
          (t += rng.between(1, 72) * 3_600_000),
          target,
          'authorization expired unused (authorizationState false after validBefore); nothing was charged',
        );
        return t;
      }
      if (target === 'retry_settlement') {
        t = stuckAfterSubmissions(s, t, 'CHAIN_UNREACHABLE', {}, ['read_authorization_state']);
        operatorMove(
          s,
          (t += rng.between(1, 72) * 3_600_000),
          target,
          'chain reachable again; resubmitting the sealed authorization',
        );
        settle(s, (t += rng.between(2000, 20_000)));
      } else {
        t = stuckAfterSubmissions(s, t, 'AUTHORIZATION_USED_TRANSFER_NOT_FOUND', {}, [
          'read_authorization_state',
          'find_transfer',
        ]);
        const found = settlement(s, t - rng.between(60_000, 600_000));
        operatorMove(
          s,
          (t += rng.between(1, 72) * 3_600_000),
          target,
          'found the transfer on the block explorer; accepting it',
          { settlement: found },
        );
      }
      deliver(s, (t += rng.between(20, 400)));
      return t;
    },
  };
  function stuckAfterSubmissions(
    s: Stream,
    t: number,
    reason: string,
    details: Record<string, unknown>,
    thisPass: string[],
  ): number {
    for (
      let k = rng.weighted([
        [0, 50],
        [1, 30],
        [2, 20],
      ] as const);
      k > 0;
      k--
    )
      submit(s, (t += rng.between(10_000, 60_000)), rng.chance(0.5) ? tx() : null);
    stuck(s, (t += rng.between(60_000, 900_000)), reason, details, thisPass);
    return t;
  }

  /** The whole way: the transaction written ahead, an ambiguous submission, the recovery pass finds it mined. */
  const full = (s: Stream, t: number): number => {
    const transaction = tx();
    clock = new Date((t += rng.between(1500, 6000)));
    s.run(
      {
        type: 'RecordBroadcast',
        data: {
          transaction,
          relayer: getAddress(`0x${rng.hex(20)}`),
          account_nonce: String(rng.int(100_000)),
          gas: String(rng.between(60_000, 90_000)),
          max_fee_per_gas: String(rng.between(1_000_000, 9_000_000)),
          max_priority_fee_per_gas: '1000000',
          at: clock.toISOString(),
        },
      },
      clock,
    );
    submit(s, (t += rng.between(10_000, 30_000)), transaction);
    settle(s, (t += rng.between(20_000, 120_000)), transaction);
    deliver(s, (t += rng.between(20, 400)));
    return t;
  };

  const shape = opts.shape ?? 'mix';
  const mixTable = PURCHASE_MIX.map((m) => [m.path, m.share] as const);
  for (let i = 0; i < n; i++) {
    while (pending.length > 0 && pending[0]!.due <= i) yield pending.shift()!.history;
    const path = shape === 'quoted' ? 'abandoned' : shape === 'full' ? 'submitted' : rng.weighted(mixTable);
    const s = new Stream(newId);
    let t = start + Math.floor(((i + rng.next()) * span) / n);
    const binding = rng.chance(GATE_SHARE) ? quoteGate(s, t) : quoteSingle(s, t);
    if (path !== 'abandoned') {
      clock = new Date((t += rng.between(80, 4000)));
      s.run({ type: 'Offer', data: buildOffer(deps, s.state.quoted!, binding) }, clock);
      checkpoint(s, (t += rng.between(300, 6000)));
      t = shape === 'full' ? full(s, t) : afterCheckpoint[path](s, t);
    }
    yield { stream: streamName(s.state.quoted!.purchase_id), events: s.events, path };
    if (shape === 'mix' && s.state.status === 'delivered' && rng.chance(REFUND_SHARE)) {
      // Filed days later: yielded after the purchases quoted in between.
      const at = t + rng.between(1, 5 * 24) * 3_600_000;
      pending.push({ due: i + 1 + Math.ceil((at - t) / (span / n)), history: refund(s, binding, at) });
      pending.sort((a, b) => a.due - b.due);
    }
  }
  for (const p of pending) yield p.history;
}

// ---------------------------------------------------------------------------------------------
// The same histories from a worker thread. Generating costs about a third of what the embedded
// database spends inserting them; in a worker the two overlap instead of adding up.

const WORKER_TAG = 'purchase-histories-worker';
const CHUNK = 256;
interface Reply {
  chunk: PurchaseHistory[];
  done: boolean;
  error?: unknown;
}

/** purchaseHistories(n, opts), made in a worker thread; same histories, same order. */
export async function* purchaseHistoriesInWorker(
  n: number,
  opts: HistoryOptions = {},
): AsyncGenerator<PurchaseHistory> {
  // Node 20 does not carry tsx's loader into workers: the worker registers it, then imports this module.
  const boot =
    `const { register } = await import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}); ` +
    `register(); await import(${JSON.stringify(import.meta.url)});`;
  const worker = new Worker(new URL(`data:text/javascript,${encodeURIComponent(boot)}`), {
    workerData: { tag: WORKER_TAG, n, seed: opts.seed, start: opts.start?.toISOString(), shape: opts.shape },
  });
  const waiting: ((r: Reply) => void)[] = [];
  let failure: unknown;
  const fail = (error: unknown) => {
    failure ??= error;
    for (const w of waiting.splice(0)) w({ chunk: [], done: true, error });
  };
  worker.on('message', (r: Reply) => waiting.shift()?.(r));
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`purchase-histories worker exited (${code}) before it was done`)));
  const ask = () =>
    new Promise<Reply>((resolve) => {
      if (failure !== undefined) return resolve({ chunk: [], done: true, error: failure });
      waiting.push(resolve);
      worker.postMessage(CHUNK);
    });
  try {
    let next = ask();
    for (;;) {
      const reply = await next;
      if (reply.error !== undefined) throw reply.error;
      if (!reply.done) next = ask(); // the worker makes the next chunk while this one is consumed
      yield* reply.chunk;
      if (reply.done) return;
    }
  } finally {
    worker.removeAllListeners('exit');
    await worker.terminate();
  }
}

if (!isMainThread && parentPort && (workerData as { tag?: unknown } | null)?.tag === WORKER_TAG) {
  const d = workerData as { n: number; seed?: number; start?: string; shape?: HistoryOptions['shape'] };
  const source = purchaseHistories(d.n, {
    ...(d.seed !== undefined ? { seed: d.seed } : {}),
    ...(d.start ? { start: new Date(d.start) } : {}),
    ...(d.shape ? { shape: d.shape } : {}),
  });
  const port = parentPort;
  port.on('message', (size: number) => {
    const chunk: PurchaseHistory[] = [];
    let done = false;
    while (chunk.length < size) {
      const r = source.next();
      if (r.done) {
        done = true;
        break;
      }
      chunk.push(r.value);
    }
    port.postMessage({ chunk, done } satisfies Reply);
  });
}

/** AES-256-GCM as the wire package's crypto/aes-gcm.ts seals (iv ‖ ciphertext ‖ tag, base64url), but synchronous. */
function sealSync(plaintext: string, aad: string, iv: Buffer): SealedBox {
  const cipher = createCipheriv('aes-256-gcm', BENCH_CHECKPOINT_KEY, iv);
  cipher.setAAD(Buffer.from(aad, 'utf8'));
  const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return { alg: 'A256GCM', iv: iv.toString('base64url'), ciphertext: ct.toString('base64url') };
}

/** The shares of a generated set by path, for a benchmark's printout. */
export function summarizeMix(histories: Iterable<Pick<PurchaseHistory, 'path' | 'events'>>): {
  purchases: number;
  refunds: number;
  events: number;
  byPath: Record<string, number>;
} {
  const byPath: Record<string, number> = {};
  let purchases = 0;
  let refunds = 0;
  let events = 0;
  for (const h of histories) {
    events += h.events.length;
    if (h.path === 'refund') refunds++;
    else {
      purchases++;
      byPath[h.path] = (byPath[h.path] ?? 0) + 1;
    }
  }
  return { purchases, refunds, events, byPath };
}
