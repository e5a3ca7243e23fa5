import type {
  SignalObservation,
  SignalToken,
  SignalVerdict,
} from '@rights-preflight/wire/signals/signal-observation.js';
import type { FetchedText, SignalSources } from '../../src/signals/signal-sources.js';

// Builders for the pure signal tests: sources as discovery would hand them over, and a compact view of
// an observation's readings.

export const RESOURCE = 'https://pub.test/articles/one.html?x=1';

export function fetched(url: string, text: string, status = 200): FetchedText {
  return { url, sha256: `sha-of-${url}`, status, text };
}

export const robots = (text: string, status = 200) => fetched('https://pub.test/robots.txt', text, status);

export function page(headers: Record<string, string>, html: string | null = null): NonNullable<SignalSources['page']> {
  return { ...fetched(RESOURCE, html ?? ''), headers, html };
}

/** token → verdict, for asserting a whole observation in one line. */
export function verdicts(o: SignalObservation | undefined): Record<SignalToken, SignalVerdict> {
  if (!o) throw new Error('no observation');
  return Object.fromEntries(o.readings.map((r) => [r.token, r.verdict])) as Record<SignalToken, SignalVerdict>;
}

export const ALL_SILENT = { 'ai-input': 'silent', 'ai-index': 'silent', 'ai-train': 'silent', search: 'silent' };
