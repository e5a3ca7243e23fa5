import { Gauge, type Registry } from 'prom-client';
import type { PayerFailures } from '../money-path/payer-failures.js';

// How many payers are refused PAYER_SETTLEMENTS_FAILING right now (docs/decisions.md, "Authorizations the
// relayer can settle in time"), read at each scrape: more than a handful is a wallet farm, not bad luck.
export function registerPayerFailureGauge(registry: Registry, failures: PayerFailures, now: () => Date): void {
  new Gauge({
    name: 'rights_payers_refused',
    help: 'Payers whose payments are refused now because their transfers kept reverting',
    registers: [registry],
    collect() {
      this.set(failures.refusedCount(now()));
    },
  });
}
