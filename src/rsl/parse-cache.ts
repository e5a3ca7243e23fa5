import type { ParseResult } from './parse/model.js';
import { parseRsl } from './parse/parse.js';

// Parsed documents by their sha256, least recently used first out, bounded by the documents' total
// size. The same RSL document is read again and again: inspected (a publisher checking a draft), and
// fetched by every quote on a site (discovery on a warm fetch cache parsed it again each time:
// docs/decisions.md "A quote's own CPU"). Parsing is pure, so a parse kept by the
// digest of its input is the parse of those bytes whoever asks; changed bytes have another digest and
// are parsed. Evaluating a question against a parse is cheap and never changes it. A parse that ran out
// of time is not kept: on a quieter moment it may finish.
//
// One cache holds one kind of input (text for an inspection, fetched bytes for discovery): the digest
// of a text is of its UTF-8, and bytes are decoded by the parser's own rules (byte order mark, UTF-8
// only), so the two are never mixed in one cache. Its size is counted in the input's own length
// (characters of a text, bytes of bytes).

export interface ParseCache {
  /** The parse of `input`, whose sha256 the caller has computed: from the cache, or parsed now and kept. */
  parsed(sha256: string, input: string | Uint8Array): ParseResult;
  /** Documents parsed so far (not answered from memory): counted work for tests and profiles. */
  readonly parses: number;
}

export function createParseCache(maxSize: number): ParseCache {
  const entries = new Map<string, { size: number; parse: ParseResult }>();
  let size = 0;
  let parses = 0;
  return {
    get parses() {
      return parses;
    },
    parsed(sha256, input) {
      const hit = entries.get(sha256);
      if (hit) {
        entries.delete(sha256); // re-inserted below: Map order is the recency order
        entries.set(sha256, hit);
        return hit.parse;
      }
      const parse = parseRsl(input);
      parses++;
      if (input.length > maxSize || (!parse.ok && parse.code === 'PARSE_TIME_LIMIT')) return parse;
      entries.set(sha256, { size: input.length, parse });
      size += input.length;
      for (const [key, e] of entries) {
        if (size <= maxSize) break;
        entries.delete(key);
        size -= e.size;
      }
      return parse;
    },
  };
}
