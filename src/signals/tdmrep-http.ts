import type { SignalObservation } from '@rights-preflight/wire/signals/signal-observation.js';
import { observation, silentObservation, sha256OfText } from './observation.js';
import type { SignalSources } from './signal-sources.js';
import { reservationOfText, verdictsOfReservation } from './tdmrep-reservation.js';

// The `tdm-reservation` and `tdm-policy` HTTP response fields (W3C TDMRep CG final report 2024-05-10,
// #sec-tdm-header). Pure. One observation when `tdm-reservation` is present (the statement is the field as met;
// the digest is of its value). A repeated field arrives joined with ", " (signal-sources.ts): the same
// value repeated is that value; different values are a protocol error. `tdm-policy` alone says
// nothing about reservation and gives no observation.

export function readTdmrepHeaders(page: NonNullable<SignalSources['page']>): SignalObservation[] {
  const value = page.headers['tdm-reservation'];
  if (value === undefined) return [];
  const policy = page.headers['tdm-policy']?.trim() || null;
  const statement = `tdm-reservation: ${value}${policy ? `\ntdm-policy: ${policy}` : ''}`;
  const source = {
    standard: 'tdmrep',
    channel: 'header',
    url: page.url,
    sha256: sha256OfText(value),
    statement,
  } as const;
  const parts = [...new Set(value.split(',').map((p) => p.trim()))];
  const reservation = reservationOfText(parts.length === 1 ? parts[0]! : value);
  if (!reservation.ok) return [silentObservation(source, reservation.reason)];
  return [observation(source, verdictsOfReservation(reservation.value, policy), 'tdm-reservation header')];
}
