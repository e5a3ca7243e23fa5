import { readFile } from 'node:fs/promises';
import { localServiceEnv, startLocalParts } from '../../ops/world/local-world.js';
import { rslDocument } from '../../src/devnet/https-origin.js';
import { REPORT_ENTRY_MAX_BYTES } from '../../src/rsl/bounded-reading.js';
import { signPayment } from '../../test/support/pay.js';
import { startServiceProcess } from '../../test/support/service-process.js';

// The report-inflation case of `npm run bench:hostile`: a publisher whose robots.txt holds one
// `Content-Signal:` line of ~480 KB (its unknown entries were once listed in full in every reading's rules)
// and a hundred long reserving lines. One report is bought on each of its two resources from a real service
// process; the sizes of the paid answer, its report entry and its evidence are recorded against the
// documented maximum of a report entry (docs/wire.md §16), with the service's resident memory around the
// quotes. Self-contained (its own publishers and service), so it runs beside the other cases unchanged.

const junk = (n: number, width: number) =>
  Array.from({ length: n }, (_, i) => `junk-${i}=${'m'.repeat(width)}`).join(', ');
const ONE_LINE = `Content-Signal: ai-train=no, ${junk(16_500, 14)}`;
const MANY_LINES = Array.from(
  { length: 100 },
  (_, i) => `Content-Signal: search=yes, ai-input=no, ai-train=no, ${junk(100, 20 + (i % 7))}`,
).join('\n');
const LICENSE = rslDocument({ url: '/', permits: ['ai-input', 'ai-index', 'search'] });
const page = { body: '<html><head></head><body>article</body></html>' };

const rssBytes = async (pid: number | undefined): Promise<number> => {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN) * 1024;
};

export interface ReportInflation {
  max_entry_bytes: number;
  cases: Record<string, { answer_bytes: number; entry_bytes: number; evidence_bytes: number; truncated: boolean }>;
  service_rss_growth_bytes: number;
  met: boolean;
}

export async function measureReportInflation(): Promise<ReportInflation> {
  const parts = await startLocalParts(
    {
      'one-line.example': {
        '/robots.txt': {
          type: 'text/plain',
          body: `User-agent: *\nAllow: /\nLicense: https://one-line.example/l.xml\n${ONE_LINE}\n`,
        },
        '/l.xml': { type: 'application/rsl+xml', body: LICENSE },
        '/a': page,
      },
      'many-lines.example': {
        '/robots.txt': {
          type: 'text/plain',
          body: `User-agent: *\nAllow: /\nLicense: https://many-lines.example/l.xml\n${MANY_LINES}\n`,
        },
        '/l.xml': { type: 'application/rsl+xml', body: LICENSE },
        '/a': page,
      },
    },
    'rights-bench-inflation-',
  );
  const service = await startServiceProcess(localServiceEnv({ ...parts, logLevel: 'info' }), undefined, {
    compiled: true,
    dropOutputAfterStart: true,
  });
  try {
    const buyer = parts.devnet.buyers[0]!;
    const rssBefore = await rssBytes(service.child.pid);
    const cases: ReportInflation['cases'] = {};
    for (const origin of ['one-line.example', 'many-lines.example']) {
      const quoted = await fetch(`${service.url}/v1/rights/quote`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          resource: `https://${origin}/a`,
          purpose: 'ai-input',
          tier: 'fresh',
          max_total_micro: '200000',
        }),
      });
      const quote = (await quoted.json()) as { claim_token: string; report_url: string };
      const claim = { 'x-service-claim': quote.claim_token };
      const offer = await fetch(`${service.url}${quote.report_url}`, { headers: claim });
      const payment = await signPayment(buyer.privateKey, offer.headers.get('payment-required')!);
      const paid = await fetch(`${service.url}${quote.report_url}`, {
        headers: { ...claim, 'payment-signature': payment },
      });
      const text = await paid.text();
      if (paid.status !== 200) throw new Error(`${origin}: the report answered ${paid.status}`);
      const body = JSON.parse(text) as { report: { resources: { truncated?: boolean }[] }; evidence: unknown };
      const entry = body.report.resources[0]!;
      cases[origin] = {
        answer_bytes: Buffer.byteLength(text),
        entry_bytes: Buffer.byteLength(JSON.stringify(entry)),
        evidence_bytes: Buffer.byteLength(JSON.stringify(body.evidence)),
        truncated: entry.truncated === true,
      };
    }
    const growth = (await rssBytes(service.child.pid)) - rssBefore;
    return {
      max_entry_bytes: REPORT_ENTRY_MAX_BYTES,
      cases,
      service_rss_growth_bytes: growth,
      met: Object.values(cases).every((c) => c.entry_bytes <= REPORT_ENTRY_MAX_BYTES),
    };
  } finally {
    await service.stop();
    await parts.closeAll();
  }
}
