import type { SignalObservation } from '@rights-preflight/wire/signals/signal-observation.js';
import type { HtmlMeta } from './html-meta.js';
import { observation, silentObservation } from './observation.js';
import type { SignalSources } from './signal-sources.js';
import { reservationOfText, verdictsOfReservation } from './tdmrep-reservation.js';

// `<meta name="tdm-reservation" content>` and `<meta name="tdm-policy" content>` (W3C TDMRep CG final
// report 2024-05-10, #sec-tdm-html-meta). Pure. Each tdm-reservation meta is an observation (the digest is the
// page's); the first tdm-policy meta is the policy. Several tdm-reservation metas that disagree are
// all kept: the summary then sees the reservation.

export function readTdmrepMetas(
  page: NonNullable<SignalSources['page']>,
  metas: readonly HtmlMeta[],
): SignalObservation[] {
  const policy = metas.find((m) => m.name === 'tdm-policy')?.content.trim() || null;
  const out: SignalObservation[] = [];
  for (const meta of metas) {
    if (meta.name !== 'tdm-reservation') continue;
    const policyMeta = policy ? `\n<meta name="tdm-policy" content="${policy}">` : '';
    const statement = `<meta name="tdm-reservation" content="${meta.content}">${policyMeta}`;
    const source = { standard: 'tdmrep', channel: 'meta', url: page.url, sha256: page.sha256, statement } as const;
    const reservation = reservationOfText(meta.content);
    out.push(
      reservation.ok
        ? observation(source, verdictsOfReservation(reservation.value, policy), 'tdm-reservation meta')
        : silentObservation(source, reservation.reason),
    );
  }
  return out;
}
