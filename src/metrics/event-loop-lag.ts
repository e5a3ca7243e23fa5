import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Gauge, type Registry } from 'prom-client';

// Event-loop lag since the previous scrape: how late timers ran because something held the loop
// (a long synchronous step shows here before it shows as slow requests). Returns the stop function.
export function registerEventLoopLag(registry: Registry): () => void {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const seconds = (ns: number) => (Number.isFinite(ns) ? ns / 1e9 : 0);
  let collected: { p50: number; p99: number; max: number } | undefined;
  // One snapshot per scrape, shared by the three gauges, then the monitor starts over.
  const snapshot = () => {
    collected ??= { p50: seconds(delay.percentile(50)), p99: seconds(delay.percentile(99)), max: seconds(delay.max) };
    return collected;
  };
  const gauge = (name: string, help: string, pick: (s: ReturnType<typeof snapshot>) => number, last = false) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(pick(snapshot()));
        if (last) {
          collected = undefined;
          delay.reset();
        }
      },
    });
  gauge('rights_event_loop_lag_p50_seconds', 'Median event-loop delay since the previous scrape', (s) => s.p50);
  gauge(
    'rights_event_loop_lag_p99_seconds',
    '99th percentile event-loop delay since the previous scrape',
    (s) => s.p99,
  );
  gauge('rights_event_loop_lag_max_seconds', 'Longest event-loop delay since the previous scrape', (s) => s.max, true);
  return () => delay.disable();
}
