import type { ParseResult } from './model.js';
import { parseRsl } from './parse/parse.js';

// Parsed documents by their sha256, least recently used first out, bounded by the documents' total
// size. The same RSL document is inspected again and again (a publisher checking a draft, every buyer
// of one site), and parsing is most of an inspection's work; evaluating a question against a parse is
// cheap and never changes it. A parse that ran out of time is not kept: on a quieter moment it may finish.

export interface ParseCache {
  /** The parse of `xml`, whose sha256 the caller has computed: from the cache, or parsed now and kept. */
  parsed(sha256: string, xml: string): ParseResult;
}

export function createParseCache(maxChars: number): ParseCache {
  const entries = new Map<string, { chars: number; parse: ParseResult }>();
  let chars = 0;
  return {
    parsed(sha256, xml) {
      const hit = entries.get(sha256);
      if (hit) {
        entries.delete(sha256); // re-inserted below: Map order is the recency order
        entries.set(sha256, hit);
        return hit.parse;
      }
      const parse = parseRsl(xml);
      if (xml.length > maxChars || (!parse.ok && parse.code === 'PARSE_TIME_LIMIT')) return parse;
      entries.set(sha256, { chars: xml.length, parse });
      chars += xml.length;
      for (const [key, e] of entries) {
        if (chars <= maxChars) break;
        entries.delete(key);
        chars -= e.chars;
      }
      return parse;
    },
  };
}
