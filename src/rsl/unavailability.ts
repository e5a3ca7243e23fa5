import type { Observation, ResourceReading } from './reading.js';
import type { FetchFailure, FetchFailureKind, Unavailability } from '@rights-preflight/wire/rsl/unavailable-reason.js';

// Why a reading offers nothing to buy. "Nothing declared" and "we could not look" are different
// answers for a buyer: NO_VERIFIABLE_DECLARATION when every discovery channel answered and none
// carried an association; FETCH_FAILED when no association was seen because a channel (robots.txt,
// the resource itself) could not be read — refused by the address policy, TLS, a timeout, or an
// HTTP status we do not read through (3xx, 403, 5xx). Both charge nothing. Pure.

const KIND_OF: Record<string, FetchFailureKind> = {
  FETCH_ADDRESS_REFUSED: 'address-policy',
  FETCH_TLS_FAILED: 'tls',
  FETCH_CONNECT_TIMEOUT: 'timeout',
  FETCH_READ_TIMEOUT: 'timeout',
  FETCH_DNS_FAILED: 'dns',
  FETCH_CONNECTION_FAILED: 'connection',
  FETCH_TOO_LARGE: 'too-large',
};

/** The channel failures of a reading, as discovery.ts judged them (robots: 3xx/5xx, or longer than read;
 *  resource: 3xx/403/5xx). */
export function fetchFailures(reading: ResourceReading): FetchFailure[] {
  return reading.observations
    .filter((o) => o.channel === 'robots' || o.channel === 'resource')
    .flatMap((o): FetchFailure[] => {
      if (o.error)
        return [
          {
            channel: o.channel,
            url: o.url,
            kind: KIND_OF[o.error.code] ?? 'not-fetchable',
            code: o.error.code,
            status: o.status,
          },
        ];
      // robots.txt read only in part (RFC 9309 §2.5 parse limit): what follows was not looked at.
      if (o.channel === 'robots' && o.truncated_at_bytes !== undefined)
        return [
          { channel: o.channel, url: o.url, kind: 'too-large', code: 'ROBOTS_BEYOND_PARSE_LIMIT', status: o.status },
        ];
      if (o.status !== null && unreadable(o))
        return [{ channel: o.channel, url: o.url, kind: 'http-status', code: `HTTP_${o.status}`, status: o.status }];
      return [];
    });
}

const unreadable = (o: Observation) =>
  (o.status! >= 300 && o.status! < 400) || o.status! >= 500 || (o.channel === 'resource' && o.status === 403);

/** null when the reading is purchasable (some association was seen, even an unreadable one). */
export function unavailability(reading: ResourceReading): Unavailability | null {
  if (reading.declaration_found) return null;
  const failures = reading.discovery_complete ? [] : fetchFailures(reading);
  return failures.length ? { reason: 'FETCH_FAILED', details: { failures } } : { reason: 'NO_VERIFIABLE_DECLARATION' };
}
