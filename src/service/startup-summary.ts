import type { ServiceConfig } from '../config/config.js';

// What a start says about itself in one line (docs/decisions.md, "The first hour"): where it
// listens, which network it is paid on, how it settles, which store it writes, how many origins it
// covers and where its metrics are. A coverage of zero is said outright: every quote would be refused.
//
//   rights preflight: http://127.0.0.1:8402 · network eip155:8453 (development devnet) · settlement self ·
//   store embedded (/srv/data/events) · coverage 4 origins · metrics http://127.0.0.1:9464/metrics

export interface StartupFacts {
  url: string;
  storeKind: string;
  metricsUrl: string | undefined;
  devnet: boolean;
}

/** The store's location without credentials: a file path, or a URL's host and database. */
export function storeLocation(url: string): string {
  const embedded = /^(file|sqlite|pglite):/.exec(url);
  if (embedded) return url.slice(embedded[0].length);
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return 'unparsable URL';
  }
}

export const EMPTY_COVERAGE =
  'coverage is empty: every quote is refused RESOURCE_NOT_COVERED; set COVERED_ORIGINS on a new store, ' +
  'or add origins with npm run ops -- coverage review|add (README, Troubleshooting)';

export function startupSummary(config: ServiceConfig, facts: StartupFacts): string {
  const n = config.coveredOrigins.length;
  return [
    `rights preflight: ${facts.url}`,
    `network ${config.network}${facts.devnet ? ' (development devnet)' : ''}`,
    `settlement ${config.settlement}`,
    `store ${facts.storeKind} (${storeLocation(config.eventStoreUrl)})`,
    n === 0 ? 'coverage 0 origins (nothing to sell)' : `coverage ${n} origin${n === 1 ? '' : 's'}`,
    `metrics ${facts.metricsUrl ?? 'off'}`,
  ].join(' · ');
}
