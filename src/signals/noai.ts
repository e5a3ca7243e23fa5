import type { SignalObservation } from '@rights-preflight/wire/signals/signal-observation.js';
import type { HtmlMeta } from './html-meta.js';
import { type ObservationSource, observation, sha256OfText, type TokenVerdicts } from './observation.js';
import type { SignalSources } from './signal-sources.js';

// The informal `noai` and `noimageai` robots directives (DeviantArt, 2022; no standard text), in
// `<meta name="robots" content>` and the `X-Robots-Tag` response field. Pure.
//
// Only the `robots` meta name is read, not per-crawler names (`<meta name="googlebot">`): noai is
// addressed to AI dataset builders at large. In X-Robots-Tag a directive may follow a user-agent
// prefix (`otherbot: noai`, Google's syntax); such a directive is read as well, for everyone, and the
// rule names the agent it was written for: a publisher who refused one AI crawler did not permit the
// others. Mapping (docs/reference/noai.md): noai / noimageai → ai-train, ai-input and ai-index
// reserved — "noai" refuses use of the content by AI; the directive predates the split between
// training and input, so it is read as refusing every AI use; noimageai refuses it for images, and a
// resource URL may be an image or embed them, so it is read the same way. search is silent (noindex
// governs search, not noai). A robots value without noai or noimageai is not a noai statement: no
// observation.

const DIRECTIVES = new Set(['noai', 'noimageai']);
// Google's directives that carry a value after a colon; anything else before a colon is a user agent.
const VALUED = new Set(['unavailable_after', 'max-snippet', 'max-image-preview', 'max-video-preview']);
const ORIGIN = 'informal robots directive (DeviantArt 2022)';

interface Hit {
  directive: string;
  agent: string | null;
}

/** The noai / noimageai directives of a robots value, with the user agent each was written for. */
export function noaiDirectives(value: string): Hit[] {
  const hits: Hit[] = [];
  let agent: string | null = null;
  for (const raw of value.split(',')) {
    let part = raw.trim().toLowerCase();
    const prefixed = /^([^:]+):(.*)$/.exec(part);
    if (prefixed && !VALUED.has(prefixed[1]!.trim())) {
      agent = prefixed[1]!.trim();
      part = prefixed[2]!.trim();
    }
    for (const word of part.split(/[ \t]+/)) if (DIRECTIVES.has(word)) hits.push({ directive: word, agent });
  }
  return hits;
}

export function readNoaiHeader(page: NonNullable<SignalSources['page']>): SignalObservation[] {
  const value = page.headers['x-robots-tag'];
  if (value === undefined) return [];
  const hits = noaiDirectives(value);
  if (hits.length === 0) return [];
  const source = { standard: 'noai', channel: 'header', url: page.url, sha256: sha256OfText(value) } as const;
  return [noaiObservation({ ...source, statement: `x-robots-tag: ${value}` }, hits, 'X-Robots-Tag')];
}

export function readNoaiMetas(
  page: NonNullable<SignalSources['page']>,
  metas: readonly HtmlMeta[],
): SignalObservation[] {
  const out: SignalObservation[] = [];
  for (const meta of metas) {
    if (meta.name !== 'robots') continue;
    const hits = noaiDirectives(meta.content);
    if (hits.length === 0) continue;
    const statement = `<meta name="robots" content="${meta.content}">`;
    const source = { standard: 'noai', channel: 'meta', url: page.url, sha256: page.sha256, statement } as const;
    out.push(noaiObservation(source, hits, 'robots meta'));
  }
  return out;
}

function noaiObservation(source: ObservationSource, hits: readonly Hit[], where: string): SignalObservation {
  const said = hits
    .map((h) =>
      h.agent ? `${h.directive} (written for "${h.agent.slice(0, 64)}", read for every agent)` : h.directive,
    )
    .join(', ');
  const rule = `${where} ${said}: AI use refused (${ORIGIN}; read as every AI use)`;
  const verdicts: TokenVerdicts = {
    'ai-train': { verdict: 'reserved', rule },
    'ai-input': { verdict: 'reserved', rule },
    'ai-index': { verdict: 'reserved', rule },
  };
  return observation(source, verdicts, `search is governed by noindex, not noai (${ORIGIN})`);
}
