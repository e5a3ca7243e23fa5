// What a JSON value from a buyer must be before it is hashed, canonicalized, decoded or stored, whatever
// way it came in (a request body of the public or operator API, an MCP message, a base64 JSON header
// such as PAYMENT-SIGNATURE, SIGN-IN-WITH-X or X-Service-Payment-Intent): numbers that survived
// JSON.parse as finite values (`1e400` parses to Infinity, which RFC 8785 cannot write), strings and keys
// that are well-formed UTF-16 (a lone surrogate has no UTF-8 form, so two different inputs would hash
// alike), and at most 32 levels of nesting (a deep value would exhaust the stack of every recursive reader
// after us). The one guard of the service (docs/wire.md §6, MALFORMED_JSON); returns the first problem, or
// undefined.

export const MAX_JSON_DEPTH = 32;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function plainJsonProblem(value: unknown, depth = 0): string | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : 'a number is not finite';
  if (typeof value === 'string') return LONE_SURROGATE.test(value) ? 'a string holds a lone surrogate' : undefined;
  if (typeof value !== 'object' || value === null) return undefined;
  if (depth >= MAX_JSON_DEPTH) return `nesting deeper than ${MAX_JSON_DEPTH}`;
  const entries = Array.isArray(value) ? value.map((v) => ['', v] as const) : Object.entries(value);
  for (const [key, v] of entries) {
    if (LONE_SURROGATE.test(key)) return 'a key holds a lone surrogate';
    const problem = plainJsonProblem(v, depth + 1);
    if (problem) return problem;
  }
  return undefined;
}
