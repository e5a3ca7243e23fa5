import { Gauge, type Registry } from 'prom-client';
import type { ReadModels } from '../../projections/read-models.js';
import { purchaseCountsByStatus, queueSize, refundBacklog } from '../../projections/queries/operations.js';
import { readCheckpoint } from '../../projections/schema.js';

// Gauges read from the read models when Prometheus scrapes (a few indexed counts), so every instance
// reports the same database-wide numbers, whichever of them leads the projector.
export function registerReadModelGauges(registry: Registry, readModels: ReadModels): void {
  const registers = [registry];
  new Gauge({
    name: 'rights_purchases',
    help: 'Purchases in the report view by status',
    labelNames: ['status'],
    registers,
    async collect() {
      this.reset();
      for (const { status, count } of await purchaseCountsByStatus(readModels.db)) this.set({ status }, count);
    },
  });
  new Gauge({
    name: 'rights_investigation_queue_size',
    help: 'Held and stuck purchases waiting for an operator',
    registers,
    async collect() {
      this.set(await queueSize(readModels.db));
    },
  });
  new Gauge({
    name: 'rights_refund_backlog',
    help: 'Refund requests not yet reviewed (status requested)',
    registers,
    async collect() {
      this.set(await refundBacklog(readModels.db));
    },
  });
  new Gauge({
    name: 'rights_projection_lag_events',
    help: 'Events in the store not yet applied to the read models (store head minus rm_checkpoint position)',
    registers,
    async collect() {
      const [head, checkpoint] = await Promise.all([readModels.feed.head(), readCheckpoint(readModels.db)]);
      const lag = head - checkpoint.position;
      this.set(Number(lag > 0n ? lag : 0n));
    },
  });
}
