import * as t from 'io-ts';

// io-ts codecs that carry their JSON Schema constraint next to the rule they enforce, so the
// published schemas (json-schema.ts) are generated from the very predicate the routes run — never
// from a second, hand-written copy. Each builder returns an ordinary io-ts codec plus a `jsonSchema`
// fragment (or, for defaults, the default value itself) that the generator reads.

/** A JSON Schema node (2020-12 vocabulary). */
export type JsonSchema = Record<string, unknown>;
export type WithSchema<C> = C & { jsonSchema: JsonSchema };

const withSchema = <C extends t.Mixed>(codec: C, jsonSchema: JsonSchema): WithSchema<C> =>
  Object.assign(codec, { jsonSchema });

/** A string matching `re` (and at most `maxLength` characters, when given). */
export function patternString(
  name: string,
  re: RegExp,
  what: string,
  opts: { maxLength?: number; format?: string } = {},
) {
  const ok = (u: unknown): u is string =>
    typeof u === 'string' && (opts.maxLength === undefined || u.length <= opts.maxLength) && re.test(u);
  return withSchema(
    new t.Type<string, string, unknown>(name, ok, (u, c) => (ok(u) ? t.success(u) : t.failure(u, c, what)), t.identity),
    {
      type: 'string',
      pattern: re.source,
      ...(opts.maxLength !== undefined ? { maxLength: opts.maxLength } : {}),
      ...(opts.format ? { format: opts.format } : {}),
    },
  );
}

/** A JSON integer (no fraction, no exponent beyond an integer value) in [min, max]. */
export function intRange(name: string, min: number, max: number) {
  const ok = (u: unknown): u is number => typeof u === 'number' && Number.isInteger(u) && u >= min && u <= max;
  return withSchema(
    new t.Type<number, number, unknown>(
      name,
      ok,
      (u, c) => (ok(u) ? t.success(u) : t.failure(u, c, `must be an integer from ${min} to ${max}`)),
      t.identity,
    ),
    { type: 'integer', minimum: min, maximum: max },
  );
}

/** An array of `item` with min..max entries. Items are decoded by `item` (its errors keep their index). */
export function boundedArray<C extends t.Mixed>(name: string, item: C, min: number, max: number) {
  const base = t.array(item);
  return Object.assign(
    new t.Type<t.TypeOf<C>[], t.OutputOf<C>[], unknown>(
      name,
      (u): u is t.TypeOf<C>[] => base.is(u) && u.length >= min && u.length <= max,
      (u, c) => {
        if (Array.isArray(u) && (u.length < min || u.length > max))
          return t.failure(u, c, `must have ${min} to ${max} items`);
        // a non-array is a wrong type, reported as the array's
        return base.validate(u, t.appendContext(c, '', base, u));
      },
      (a) => base.encode(a),
    ),
    { item, jsonSchema: { type: 'array', minItems: min, maxItems: max } as JsonSchema },
  );
}

/**
 * An optional field's codec with its default. The default is documented in the schema and applied by
 * the normalization (which reads `defaultValue` from here), so the two cannot disagree.
 */
export function withDefault<C extends t.Mixed>(codec: C, defaultValue: t.TypeOf<C>) {
  return Object.assign(
    new t.Type<t.TypeOf<C>, t.OutputOf<C>, unknown>(codec.name, codec.is, codec.validate, codec.encode),
    { inner: codec, defaultValue },
  );
}
