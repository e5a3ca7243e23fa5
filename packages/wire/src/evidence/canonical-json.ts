import canonicalizeImpl from 'canonicalize';

// RFC 8785 (JCS). Every signature and digest in the service is over this form, so it lives in one place.
//
// The `canonicalize` package is the reference. Its one dear step is the lone-surrogate check, a loop in
// JavaScript over every character of every string and key: signing a report's evidence spent most of its
// time there (docs/decisions.md, "Receipt watcher and a leaner JSON-RPC fetch"). The walk below does what
// the package does, in the same order, with the engine's String.prototype.isWellFormed for that check,
// and hands anything else (a non-finite number, a bigint, toJSON, a function, a lone surrogate, a runtime
// without isWellFormed) to the package, so the text and the errors are the package's
// (packages/wire/test/canonical-json.test.ts holds them equal on generated values).
const canonicalize = canonicalizeImpl as unknown as (value: unknown) => string | undefined;

const wellFormed = (s: string): boolean | undefined => (s as { isWellFormed?: () => boolean }).isWellFormed?.call(s);

function walk(value: unknown, seen: Set<object>): string | undefined {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      return Number.isFinite(value) ? JSON.stringify(value) : canonicalize(value);
    case 'string':
      return wellFormed(value) ? JSON.stringify(value) : canonicalize(value);
    case 'object':
      break;
    default:
      return canonicalize(value);
  }
  const object = value as Record<string, unknown>;
  if (typeof object.toJSON === 'function' || seen.has(object)) return canonicalize(value);
  seen.add(object);
  let result: string;
  if (Array.isArray(object)) {
    const values = object.map((v) => walk(v === undefined || typeof v === 'symbol' ? null : v, seen));
    result = `[${values.join(',')}]`;
  } else {
    const parts: string[] = [];
    for (const key of Object.keys(object).sort()) {
      const v = object[key];
      if (v === undefined || typeof v === 'symbol') continue;
      parts.push(`${walk(key, seen)}:${walk(v, seen)}`);
    }
    result = `{${parts.join(',')}}`;
  }
  seen.delete(object);
  return result;
}

export function canonicalJson(value: unknown): string {
  const out = walk(value, new Set());
  if (out === undefined) throw new TypeError('value has no JSON form');
  return out;
}

export const canonicalBytes = (value: unknown): Uint8Array => new TextEncoder().encode(canonicalJson(value));
