// What a document may cost before the parser gives up on it (DOCUMENT_TOO_LARGE, XML_TOO_DEEP,
// XML_TOO_MANY_ELEMENTS, XML_TOO_MANY_ATTRIBUTES, PARSE_TIME_LIMIT): no document is a permission.

export interface ParseLimits {
  maxBytes: number;
  maxDepth: number;
  maxElements: number;
  /** CPU time of the parsing thread (wall time where there is no thread clock: thread-cpu-clock.ts). */
  maxMillis: number;

  /** Attributes on one element (namespace declarations included) and in the whole document. */
  maxAttributesPerElement: number;
  maxAttributes: number;
}

export const DEFAULT_PARSE_LIMITS: ParseLimits = {
  maxBytes: 512 * 1024,
  maxDepth: 32,
  maxElements: 20_000,
  maxMillis: 500,
  maxAttributesPerElement: 64,
  maxAttributes: 20_000,
};
