// What discovery hands to the signal readers (docs/wire.md §15): the bytes it already fetched, plus the
// origin's /.well-known/tdmrep.json. Pure data; readSignals never fetches.

import type { HtmlMeta } from './html-meta.js';

export interface FetchedText {
  url: string;
  /** sha256 (lowercase hex) of the exact bytes received. */
  sha256: string;
  status: number;
  text: string;
}

export interface SignalSources {
  /** The canonical resource URL asked about (TDMRep location patterns match its path). */
  resource: string;
  /** robots.txt as read (absent when it could not be read). */
  robots?: FetchedText;
  /** The resource's response: its headers (lower-case names, repeated fields joined with ", ") and its
   *  decoded HTML when it was read as HTML (null otherwise). */
  page?: FetchedText & {
    headers: Readonly<Record<string, string>>;
    html: string | null;
    /** The page's metas as `readHtmlMetas(html)` read them (html-meta.ts), when the caller already
     *  scanned the page off the event loop's critical path; absent, readSignals scans `html` itself. */
    metas?: readonly HtmlMeta[];
  };
  /** /.well-known/tdmrep.json: the file, or why it could not be used (404, too big, redirect, timeout...). */
  tdmrep?: FetchedText | { url: string; failure: { code: string; message: string } };
}
