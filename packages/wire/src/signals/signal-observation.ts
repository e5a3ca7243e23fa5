import * as t from 'io-ts';

// Machine-readable AI-use signals beside RSL (docs/wire.md §15): TDMRep, IETF AI preferences (aipref),
// Content Signals and the informal noai values. They never change the RSL classification (spec §2.5);
// each report entry carries them as `signals` and `signals_summary` inside the signed evidence.
// The vocabularies below are the wire contract; docs/wire.md and docs/reference/<standard>.md say
// what each standard's statements map to and why.

/** The standards read. */
export const SignalStandard = t.keyof({ tdmrep: null, aipref: null, 'content-signals': null, noai: null });
export type SignalStandard = t.TypeOf<typeof SignalStandard>;

/** Where the statement was met: an HTTP header of the resource, a robots.txt line, an HTML meta, a well-known file. */
export const SignalChannel = t.keyof({ header: null, robots: null, meta: null, 'well-known': null });
export type SignalChannel = t.TypeOf<typeof SignalChannel>;

/** A statement's reading for one usage token: it reserves (refuses) it, allows it, or says nothing about it. */
export const SignalVerdict = t.keyof({ reserved: null, allowed: null, silent: null });
export type SignalVerdict = t.TypeOf<typeof SignalVerdict>;

/** The RSL usage tokens signals are read for (the paid purposes; aliases map through tokensForPurpose). */
export const SignalToken = t.keyof({ 'ai-input': null, 'ai-index': null, 'ai-train': null, search: null });
export type SignalToken = t.TypeOf<typeof SignalToken>;

export const SignalReading = t.type({
  token: SignalToken,
  verdict: SignalVerdict,
  /** The clause or mapping that gave the verdict (or, for `silent`, why: unknown value, malformed, not covered). */
  rule: t.string,
});
export type SignalReading = t.TypeOf<typeof SignalReading>;

export const SignalObservation = t.type({
  standard: SignalStandard,
  channel: SignalChannel,
  /** The URL whose response carried it (robots.txt, the resource, /.well-known/tdmrep.json). */
  url: t.string,
  /**
   * sha256 (lowercase hex) of the bytes the statement came from: the robots.txt, page or tdmrep.json body, or
   * the header value as UTF-8. A tdmrep.json that could not be read has no bytes: the sha256 of nothing.
   */
  sha256: t.string,
  /**
   * The raw statement as met, at most 1024 chars (longer ones end in "…"): `name: value` for a header, the
   * robots.txt line, the `<meta>` element rebuilt from its name and content, the matched tdmrep.json rule as
   * JSON (the whole file when no rule matched; `code: message` when it could not be read).
   */
  statement: t.string,
  /** One reading per SignalToken, in SignalToken order. */
  readings: t.array(SignalReading),
});
export type SignalObservation = t.TypeOf<typeof SignalObservation>;

/**
 * For the asked purpose: nothing observed; observed and not restricting beyond RSL; or some observed
 * signal reserves what RSL permits (or RSL is silent/unknown and a signal reserves).
 */
export const SignalsSummary = t.keyof({ NONE_OBSERVED: null, CONSISTENT: null, RESTRICTED_BY_OTHER_SIGNAL: null });
export type SignalsSummary = t.TypeOf<typeof SignalsSummary>;

/** The free preview on a quote: which standards were observed and whether they restrict the asked purpose. */
export const SignalsPreview = t.type({
  standards: t.array(SignalStandard),
  restricts_purpose: t.boolean,
  summary: SignalsSummary,
});
export type SignalsPreview = t.TypeOf<typeof SignalsPreview>;

/** Standards and the versions read, as capabilities publish them. */
export const SIGNAL_STANDARDS_READ: ReadonlyArray<{ standard: SignalStandard; version: string }> = [
  { standard: 'tdmrep', version: 'W3C TDMRep CG final report 2024-05-10 (tdmrep.json, HTTP fields, HTML meta)' },
  {
    standard: 'aipref',
    version:
      'draft-ietf-aipref-vocab-07 (train-ai, search; refusals in the labels of -01 to -04 read too) / ' +
      'draft-ietf-aipref-attach-05 (Content-Usage field, robots.txt)',
  },
  { standard: 'content-signals', version: 'Content Signals Policy, contentsignals.org (robots.txt Content-Signal)' },
  { standard: 'noai', version: 'informal noai / noimageai in robots meta and X-Robots-Tag' },
];
