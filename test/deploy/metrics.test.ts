import test from 'ava';
import { spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { signPayment } from '../support/pay.js';
import { getReport, quoteAndOffer } from '../support/money-env.js';
import { requiredTool } from '../support/required-tool.js';
import { useWorld } from '../support/world.js';

// GET /metrics on METRICS_LISTEN after a real purchase: the exposition passes `promtool check
// metrics`, carries each series the operator watches with the numbers this purchase produced, is not
// served on the public port, and holds no secret of the purchase.

const w = useWorld();
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** A series the README names: `rights_x{a,b}`, `rights_x{a=~"p|q"}`, `rights_lag_{p50,p99}_seconds` (two names). */
interface Shown {
  text: string;
  names: string[];
  labels: { name: string; values: string[] }[];
}

/** Every metric the README shows in backticks, with the labels and label values it names. */
function readmeMetrics(readme: string): Shown[] {
  const shown: Shown[] = [];
  for (const [, text] of readme.matchAll(/`((?:rights|nodejs|process)_[^`]*)`/g)) {
    const m = /^([a-z0-9_]*(?:\{[a-z0-9,]+\}[a-z0-9_]+)?)(?:\{([^}]*)\})?$/.exec(text!);
    if (!m) throw new Error(`the README shows a metric this test cannot read: ${text}`);
    const [name, labelText] = [m[1]!, m[2]];
    const expansion = /\{([a-z0-9,]+)\}/.exec(name);
    const names = expansion ? expansion[1]!.split(',').map((part) => name.replace(expansion[0], part)) : [name];
    const labels = (labelText ? labelText.split(',') : []).map((item) => {
      const l = /^([a-z_]+)(?:(=~|!~|!=|=)"([^"]*)")?$/.exec(item.trim());
      if (!l) throw new Error(`the README shows a label this test cannot read: ${text}`);
      return { name: l[1]!, values: l[3] === undefined ? [] : l[3].split('|') };
    });
    shown.push({ text: text!, names, labels });
  }
  return shown;
}

/** The label sets of every sample of the family `name` (a histogram's _bucket, _count and _sum included). */
function familySamples(exposition: string, name: string): Record<string, string>[] {
  const out: Record<string, string>[] = [];
  for (const line of exposition.split('\n')) {
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? /.exec(line);
    if (!m || ![name, `${name}_bucket`, `${name}_count`, `${name}_sum`].includes(m[1]!)) continue;
    out.push(
      Object.fromEntries([...(m[2] ?? '').matchAll(/([a-zA-Z_]+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1]!, l[2]!])),
    );
  }
  return out;
}

const sample = (text: string, series: string): number | undefined => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

test.serial(
  'after one paid report /metrics counts it, carries every metric and label the README shows, passes promtool, ' +
    'and is only on the metrics listener',
  async (t) => {
    const { q, claim, paymentRequired } = await quoteAndOffer(w.url);
    const signature = await signPayment(w.devnet.buyers[0]!.privateKey, paymentRequired);
    const paid = await getReport(w.url, q.report_url, { ...claim, 'payment-signature': signature });
    t.is(paid.status, 200, paid.text);
    await w.service!.readModels.caughtUp(10_000);
    await w.service!.recover();

    const metricsUrl = w.service!.metricsUrl!;
    t.regex(metricsUrl, /^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    t.not(new URL(metricsUrl).port, new URL(w.url).port);
    t.is((await fetch(`${w.url}/metrics`)).status, 404, 'not on the public port');
    const res = await fetch(metricsUrl);
    t.is(res.status, 200);
    t.regex(res.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
    const text = await res.text();

    t.is(sample(text, 'rights_purchases{status="delivered"}'), 1);
    t.is(sample(text, 'rights_settlements_total{outcome="success"}'), 1);
    t.true((sample(text, 'rights_recovery_passes_total{result="ok"}') ?? 0) >= 1);
    t.is(sample(text, 'rights_recovery_resumes_total'), 0);
    t.is(sample(text, 'rights_investigation_queue_size'), 0);
    t.is(sample(text, 'rights_refund_backlog'), 0);
    t.is(sample(text, 'rights_projection_lag_events'), 0);
    t.true(
      (sample(text, 'rights_rsl_fetches_total{channel="robots",outcome="2xx"}') ?? 0) >= 1,
      text
        .split('\n')
        .filter((l) => l.startsWith('rights_rsl'))
        .join('\n'),
    );
    t.is(
      sample(
        text,
        'rights_http_request_duration_seconds_count{method="GET",route="/v1/rights/reports/:id",status="200"}',
      ),
      1,
    );
    t.is(
      sample(
        text,
        'rights_http_request_duration_seconds_count{method="GET",route="/v1/rights/reports/:id",status="402"}',
      ),
      1,
    );
    t.true((sample(text, 'rights_event_loop_lag_max_seconds') ?? -1) >= 0);
    // The process and runtime (prom-client's defaults): memory, CPU, file descriptors, event-loop lag.
    t.true((sample(text, 'process_resident_memory_bytes') ?? 0) > 10_000_000);
    t.true((sample(text, 'process_cpu_seconds_total') ?? 0) > 0);
    t.true((sample(text, 'process_open_fds') ?? 0) > 0);
    t.true((sample(text, 'process_max_fds') ?? 0) > 0);
    t.true((sample(text, 'nodejs_eventloop_lag_p99_seconds') ?? -1) >= 0);
    t.true((sample(text, 'nodejs_heap_size_used_bytes') ?? 0) > 0);
    // Relayer health (SETTLEMENT=self): funded, nothing pending after the settle answered, no replacement.
    t.true(
      (sample(text, 'rights_relayer_balance_eth') ?? 0) > (sample(text, 'rights_relayer_min_settlements_eth') ?? 1),
    );
    t.true((sample(text, 'rights_relayer_min_settlements_eth') ?? 0) > 0);
    t.is(sample(text, 'rights_relayer_pending_transactions'), 0);
    t.is(sample(text, 'rights_relayer_oldest_pending_seconds'), 0);
    t.is(sample(text, 'rights_relayer_replacements_total'), 0);
    t.is(sample(text, 'rights_settlement_duration_seconds_count{outcome="success"}'), 1);
    for (const secret of [q.claim_token, q.purchase_id, signature.slice(0, 40)])
      t.false(text.includes(secret), 'no purchase id, claim or payment in the metrics');

    // Every metric, label and label value the README shows is on this running service's /metrics
    // (the README's alerts and lists are what an operator copies into Prometheus).
    const shown = readmeMetrics(await readFile(path.join(ROOT, 'README.md'), 'utf8'));
    t.true(shown.length >= 25, `the README's metrics were read (${shown.length})`);
    for (const s of shown)
      for (const name of s.names) {
        t.regex(text, new RegExp(`^# TYPE ${name} `, 'm'), `${s.text}: ${name} is exported`);
        const samples = familySamples(text, name);
        for (const label of s.labels) {
          t.true(
            samples.length > 0 && samples.every((l) => label.name in l),
            `${s.text}: every ${name} has ${label.name}`,
          );
          for (const value of label.values)
            t.true(
              samples.some((l) => l[label.name] === value),
              `${s.text}: ${label.name}="${value}" is one of ` +
                [...new Set(samples.map((l) => l[label.name]))].join(', '),
            );
        }
      }

    const promtool = requiredTool(t, 'promtool', 'Debian: apt-get install prometheus');
    if (!promtool) return;
    const check = spawnSync(promtool, ['check', 'metrics'], { input: text, encoding: 'utf8' });
    t.is(check.status, 0, `${check.stdout}${check.stderr}`);
    // promtool does fail on a broken exposition (the check can fail).
    const broken = spawnSync(promtool, ['check', 'metrics'], { input: 'rights_x{a="1" 1\n', encoding: 'utf8' });
    t.not(broken.status, 0);
  },
);
