import { createHash } from 'node:crypto';
import {
  SignalToken,
  type SignalChannel,
  type SignalObservation,
  type SignalReading,
  type SignalStandard,
  type SignalVerdict,
} from '@rights-preflight/wire/signals/signal-observation.js';

// Building one observation (docs/wire.md §15): every reader goes through here, so every observation has one
// reading per token in SignalToken order and a statement no longer than STATEMENT_MAX_CHARS.
// See docs/decisions.md "Reading other AI-use signals".

/** The tokens in the order every observation lists its readings. */
export const SIGNAL_TOKENS = Object.keys(SignalToken.keys) as readonly SignalToken[];

/** A statement longer than this is cut (the sha256 still names the whole source). */
export const STATEMENT_MAX_CHARS = 1024;

/** What a statement says about some tokens; the tokens it leaves out are `silent` with `silentRule`. */
export type TokenVerdicts = Partial<Record<SignalToken, { verdict: SignalVerdict; rule: string }>>;

export interface ObservationSource {
  standard: SignalStandard;
  channel: SignalChannel;
  url: string;
  sha256: string;
  statement: string;
}

export function observation(source: ObservationSource, verdicts: TokenVerdicts, silentRule: string): SignalObservation {
  const readings: SignalReading[] = SIGNAL_TOKENS.map((token) => {
    const said = verdicts[token];
    return said ? { token, verdict: said.verdict, rule: said.rule } : { token, verdict: 'silent', rule: silentRule };
  });
  return { ...source, statement: capStatement(source.statement), readings };
}

/** An observation that says nothing about any token, and why (malformed, unknown, not applicable). */
export function silentObservation(source: ObservationSource, why: string): SignalObservation {
  return observation(source, {}, why);
}

function capStatement(statement: string): string {
  if (statement.length <= STATEMENT_MAX_CHARS) return statement;
  // Cut on a code point boundary so the stored statement stays well-formed UTF-16.
  const cut = statement.slice(0, STATEMENT_MAX_CHARS - 1);
  return `${/[\ud800-\udbff]$/.test(cut) ? cut.slice(0, -1) : cut}…`;
}

/** sha256 (lowercase hex) of a header value as UTF-8: the bytes a header statement came from. */
export function sha256OfText(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
