import test from 'ava';
import { readFileSync } from 'node:fs';
import { createRslEngine, type RslEngine } from '../../src/rsl/engine.js';
import type { ResourceReading } from '../../src/rsl/reading.js';
import { summarizeSignals } from '../../src/signals/summarize.js';
import type { SignalToken, SignalsSummary } from '@rights-preflight/wire/signals/signal-observation.js';
import { makeCerts, send, startOrigins, type TestCerts, type TestOrigins } from './tls-origins.js';

// The team's corpus of pages whose standards' careful readers differ from a hasty one (test/fixtures/readings/
// cases.json: late charsets, <noscript>, tdmrep.json redirects, string values and disagreeing rules, earlier
// aipref vocabularies). Each case names the standard's sentence that decides it and the reason code of the
// reading that did; each is served by its own HTTPS publisher on loopback and read end to end.

interface Route {
  status?: number;
  type?: string;
  body?: string | string[];
  file?: string;
  headers?: Record<string, string>;
}
interface Case {
  id: string;
  class: number;
  variant: string;
  decides: string | string[];
  reading: string;
  resource: string;
  routes: Record<string, Route>;
  expect: {
    rsl?: Record<string, string[]>;
    signals?: Partial<Record<SignalToken, SignalsSummary>>;
    diagnostic?: string;
    no_diagnostic?: string;
    signal_rule?: string;
  };
}

const DIR = new URL('../fixtures/readings/', import.meta.url);
const CASES = JSON.parse(readFileSync(new URL('cases.json', DIR), 'utf8')) as Case[];
/** A long `body` or `decides` is written as an array of pieces (lines stay under 120 characters): one string. */
const whole = (s: string | string[] | undefined) => (Array.isArray(s) ? s.join('') : s);
const hostOf = (c: Case) => `${c.id}.corpus.test`;

let certs: TestCerts;
let origins: TestOrigins;
let engine: RslEngine;

test.before(async () => {
  const hosts = CASES.map(hostOf);
  certs = makeCerts(hosts);
  origins = await startOrigins(certs);
  for (const c of CASES) {
    const host = hostOf(c);
    const at = (s: string) => s.replaceAll('{host}', host);
    for (const [path, r] of Object.entries(c.routes)) {
      const body = r.file ? readFileSync(new URL(r.file, DIR)) : at(whole(r.body) ?? '');
      const headers = Object.fromEntries(Object.entries(r.headers ?? {}).map(([k, v]) => [k, at(v)]));
      origins.route(host, path, send(r.status ?? 200, r.type ?? 'text/plain', body, headers));
    }
  }
  engine = createRslEngine(
    {
      coveredOrigins: hosts.map((h) => `https://${h}`),
      fetchAllowLoopback: true,
      fetchExtraCaFile: certs.caFile,
      fetchConnectTo: Object.fromEntries(hosts.map((h) => [h, { address: '127.0.0.1', port: origins.port }])),
    },
    { connectTimeoutMs: 15_000, readTimeoutMs: 15_000, totalTimeoutMs: 30_000 },
  );
});
test.after.always(async () => {
  engine?.close();
  await origins?.close();
});

const classification = (r: ResourceReading, purpose: string) =>
  r.purposes.find((p) => p.purpose === purpose)!.classification;

for (const c of CASES) {
  test.serial(`class ${c.class}, ${c.id}: ${c.variant} (${c.reading})`, async (t) => {
    t.true(whole(c.decides)!.length > 40, 'every case names the sentence that decides it');
    const r = await engine.observe(`https://${hostOf(c)}${c.resource}`, ['ai-train', 'ai-input', 'search'], {
      userClass: 'commercial',
      geo: null,
      freshnessSeconds: 0,
    });
    for (const [purpose, allowed] of Object.entries(c.expect.rsl ?? {}))
      t.true(allowed.includes(classification(r, purpose)), `${purpose}: ${classification(r, purpose)}`);
    for (const [token, summary] of Object.entries(c.expect.signals ?? {}) as [SignalToken, SignalsSummary][])
      t.is(summarizeSignals(r.signals ?? [], [token], classification(r, token)), summary, token);
    if (c.expect.diagnostic)
      t.true(
        r.diagnostics.some((d) => d.includes(c.expect.diagnostic!)),
        r.diagnostics.join('\n'),
      );
    if (c.expect.no_diagnostic) t.false(r.diagnostics.some((d) => d.includes(c.expect.no_diagnostic!)));
    if (c.expect.signal_rule)
      t.true(
        (r.signals ?? []).some((o) => o.readings.some((x) => x.rule.includes(c.expect.signal_rule!))),
        JSON.stringify(r.signals),
      );
  });
}
