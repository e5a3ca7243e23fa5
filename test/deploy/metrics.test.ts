import test from 'ava';
import { spawnSync } from 'node:child_process';
import { signPayment } from '../support/pay.js';
import { getReport, quoteAndOffer } from '../support/money-env.js';
import { requiredTool } from '../support/required-tool.js';
import { useWorld } from '../support/world.js';

// GET /metrics on METRICS_LISTEN after a real purchase: the exposition passes `promtool check
// metrics`, carries each series the operator watches with the numbers this purchase produced, is not
// served on the public port, and holds no secret of the purchase.

const w = useWorld();

const sample = (text: string, series: string): number | undefined => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

test.serial(
  'after one paid report /metrics counts it, passes promtool, and is only on the metrics listener',
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

    const promtool = requiredTool(t, 'promtool', 'Debian: apt-get install prometheus');
    if (!promtool) return;
    const check = spawnSync(promtool, ['check', 'metrics'], { input: text, encoding: 'utf8' });
    t.is(check.status, 0, `${check.stdout}${check.stderr}`);
    // promtool does fail on a broken exposition (the check can fail).
    const broken = spawnSync(promtool, ['check', 'metrics'], { input: 'rights_x{a="1" 1\n', encoding: 'utf8' });
    t.not(broken.status, 0);
  },
);
