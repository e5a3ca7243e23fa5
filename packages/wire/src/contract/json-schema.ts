import type * as t from 'io-ts';
import { toJsonSchema } from 'io-ts-to-json-schema';
import type { JsonSchema } from './constrained.js';

// JSON Schema (2020-12) generated from the io-ts codecs the routes decode with. io-ts-to-json-schema
// walks the built-in codecs (type, partial, keyof, literal, union, intersection, array); our own
// codecs are opaque to it, so the customizer reads what they carry:
//   strictProps  (decode.ts strictType)      → object, required, additionalProperties: false
//   pattern      (wire/common.ts primitives) → string + pattern (the same RegExp the codec tests)
//   jsonSchema   (schema/constrained.ts)     → the fragment stored next to the predicate
//   defaultValue (constrained.withDefault)   → the inner codec's schema + `default`
// Anything else opaque (a refinement we did not annotate) becomes {} — the agreement test
// (test/surfaces/schema.test.ts) would catch a rule the schema forgot.

export const JSON_SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema';

type Annotated = t.Mixed & {
  strictProps?: { required: t.Props; optional: t.Props };
  pattern?: unknown;
  jsonSchema?: JsonSchema;
  item?: t.Mixed;
  inner?: t.Mixed;
  defaultValue?: unknown;
  _tag?: string;
};

function customize(schema: JsonSchema, codec: Annotated): JsonSchema {
  if (codec.strictProps) {
    const { required, optional } = codec.strictProps;
    const properties: Record<string, JsonSchema> = {};
    for (const [k, c] of Object.entries({ ...required, ...optional })) properties[k] = generate(c);
    return {
      type: 'object',
      title: codec.name,
      properties,
      required: Object.keys(required),
      additionalProperties: false,
    };
  }
  if (codec.inner && 'defaultValue' in codec) return { ...generate(codec.inner), default: codec.defaultValue };
  if (codec.item && codec.jsonSchema) return { ...codec.jsonSchema, items: generate(codec.item) };
  if (codec.jsonSchema) return { ...codec.jsonSchema };
  if (codec.pattern instanceof RegExp) return { type: 'string', title: codec.name, pattern: codec.pattern.source };
  if (codec._tag === 'UnknownRecordType' || codec._tag === 'AnyDictionaryType') return { type: 'object' };
  return schema;
}

function generate(codec: t.Mixed): JsonSchema {
  return tidy(
    toJsonSchema(codec, { customizer: (s, c) => customize(s as JsonSchema, c as Annotated) as never }) as JsonSchema,
  );
}

/** The generator labels every node with the codec's synthesized name; keep only real (PascalCase) names, as titles.
 *  The keys of a `properties` map are property names, not keywords: a property called `description` stays. */
function tidy(node: unknown, propertyNames = false): JsonSchema {
  if (Array.isArray(node)) return node.map((n) => tidy(n)) as unknown as JsonSchema;
  if (typeof node !== 'object' || node === null) return node as JsonSchema;
  const out: JsonSchema = {};
  for (const [k, v] of Object.entries(node)) {
    if (propertyNames) {
      out[k] = tidy(v);
      continue;
    }
    if (k === 'properties') {
      out[k] = tidy(v, true);
      continue;
    }
    if (k === 'description') {
      if (typeof v === 'string' && /^[A-Z][A-Za-z0-9]+$/.test(v) && !('title' in node)) out.title = v;
      continue;
    }
    out[k] = k === 'const' || k === 'default' || k === 'enum' ? v : tidy(v);
  }
  return out;
}

/** The JSON Schema of a codec (no `$schema`: it is embedded, e.g. in OpenAPI components). */
export const jsonSchemaOf = (codec: t.Mixed): JsonSchema => generate(codec);

/** A standalone JSON Schema document of a codec, with `$schema` and an `$id`-free title. */
export const jsonSchemaDocument = (codec: t.Mixed, extra: JsonSchema = {}): JsonSchema => ({
  $schema: JSON_SCHEMA_DIALECT,
  ...jsonSchemaOf(codec),
  ...extra,
});
