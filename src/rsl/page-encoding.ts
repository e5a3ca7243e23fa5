import * as t from 'io-ts';

// The evidence's record of how a page's bytes became text (see html-encoding.ts). A codec of its own so the
// reading's wire shape, which the buyer imports, does not pull in the sniffer and its dependencies.

export const EncodingSource = t.keyof({ bom: null, 'http-charset': null, meta: null, default: null });
export type EncodingSource = t.TypeOf<typeof EncodingSource>;

export const PageEncoding = t.type({
  /** The WHATWG encoding name used (`UTF-8`, `UTF-16LE`, `windows-1252`, `Shift_JIS`…). */
  name: t.string,
  source: EncodingSource,
});
export type PageEncoding = t.TypeOf<typeof PageEncoding>;
