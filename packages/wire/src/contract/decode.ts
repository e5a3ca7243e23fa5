import * as t from 'io-ts';
import { isLeft } from 'fp-ts/lib/Either.js';
import { Refusal } from '../refusal.js';

// Turning an io-ts decode failure into the service's error shape, for every route.
//   400 INVALID_REQUEST   — wrong shape: a missing field, or a value of the wrong JSON type
//   400 UNKNOWN_FIELD     — a property the contract does not define ("no extra properties")
//   422 VALIDATION_FAILED — the right JSON type that breaks a rule (enum, pattern, range)
// `details.field` is the failing path (e.g. "resources.2", "geo"), `details.expected` the codec
// name, `details.problem` the codec's own message when it has one.

const UNKNOWN_FIELD = 'UNKNOWN_FIELD';
const CODED = /^\[([A-Z][A-Z0-9_]*)\] (.*)$/s;

/**
 * A codec failure message that names its own error code (e.g. the URL rule's RESOURCE_*): the
 * answer is 422 with that code instead of the generic VALIDATION_FAILED.
 */
export const codedMessage = (code: string, message: string) => `[${code}] ${message}`;

export interface DecodeOptions {
  /** Prefix of the field path in messages, e.g. "body", "query", "header". */
  where?: string;
}

export function decodeOrThrow<C extends t.Mixed>(codec: C, value: unknown, opts: DecodeOptions = {}): t.TypeOf<C> {
  const result = codec.decode(value);
  if (!isLeft(result)) return result.right;
  const errors = result.left;
  const first = errors[0]!;
  const field = pathOf(first);
  const innermost = first.context[first.context.length - 1]?.type;
  const where = opts.where ?? 'body';
  const details: Record<string, unknown> = {
    field,
    expected: innermost?.name ?? codec.name,
    ...(first.message ? { problem: first.message } : {}),
    ...(errors.length > 1
      ? { other_fields: [...new Set(errors.slice(1).map(pathOf))].filter((f) => f !== field).slice(0, 5) }
      : {}),
  };
  const coded = first.message ? CODED.exec(first.message) : null;
  if (coded) throw new Refusal(coded[1]!, `${where}: "${field}" ${coded[2]!}`, { field });
  if (first.message === UNKNOWN_FIELD) {
    throw new Refusal('UNKNOWN_FIELD', `${where}: unknown field "${field}"`, { field });
  }
  if (first.value === undefined) {
    throw new Refusal('INVALID_REQUEST', `${where}: "${field}" is required`, details);
  }
  if (innermost && isStructural(innermost)) {
    throw new Refusal(
      'INVALID_REQUEST',
      `${where}: "${field || '(root)'}" has the wrong type; expected ${innermost.name}`,
      details,
    );
  }
  const primitive = ['string', 'number', 'boolean'].includes(typeof first.value);
  // A non-primitive value that reached a rule with its own message (e.g. "must have 1 to 4 items")
  // broke that rule rather than having the wrong type.
  if (!primitive && !first.message)
    throw new Refusal(
      'INVALID_REQUEST',
      `${where}: "${field}" has the wrong type; expected ${innermost?.name ?? codec.name}`,
      details,
    );
  throw new Refusal(
    'VALIDATION_FAILED',
    `${where}: "${field}" ${first.message ?? `must be ${innermost?.name ?? codec.name}`}`,
    details,
  );
}

/** Dotted path of an error, leaving out the indices io-ts adds for union/intersection members. */
function pathOf(e: t.ValidationError): string {
  const keys: string[] = [];
  for (let i = 1; i < e.context.length; i++) {
    const parent = e.context[i - 1]!.type;
    if (parent instanceof t.UnionType || parent instanceof t.IntersectionType) continue;
    keys.push(e.context[i]!.key);
  }
  return keys.filter(Boolean).join('.');
}

function isStructural(type: t.Decoder<unknown, unknown>): boolean {
  return (
    type instanceof t.StringType ||
    type instanceof t.NumberType ||
    type instanceof t.BooleanType ||
    type instanceof t.NullType ||
    type instanceof t.InterfaceType ||
    type instanceof t.PartialType ||
    type instanceof t.ExactType ||
    type instanceof t.ArrayType ||
    type instanceof t.DictionaryType ||
    type instanceof t.AnyDictionaryType ||
    type instanceof t.AnyArrayType
  );
}

/**
 * An object codec that refuses properties it does not define (the spec's "no extra
 * properties"); the failure carries the unknown key as its path and maps to 400 UNKNOWN_FIELD.
 */
export function strictType<R extends t.Props, O extends t.Props>(
  required: R,
  optional: O,
  name = 'Body',
): t.Type<t.TypeOfProps<R> & t.TypeOfPartialProps<O>, t.OutputOfProps<R> & t.OutputOfPartialProps<O>, unknown> & {
  strictProps: { required: R; optional: O };
} {
  const base = t.intersection([t.type(required), t.partial(optional)]);
  const allowed = new Set([...Object.keys(required), ...Object.keys(optional)]);
  // `required`/`optional` stay on the codec so the published JSON Schemas (src/http/schema/) can walk it.
  return Object.assign(
    new t.Type(
      name,
      (u): u is t.TypeOfProps<R> & t.TypeOfPartialProps<O> =>
        base.is(u) && Object.keys(u as object).every((k) => allowed.has(k)),
      (u, c) => {
        if (typeof u === 'object' && u !== null && !Array.isArray(u)) {
          const extra = Object.keys(u).find((k) => !allowed.has(k));
          if (extra !== undefined)
            return t.failure(
              (u as Record<string, unknown>)[extra],
              t.appendContext(c, extra, t.never, (u as Record<string, unknown>)[extra]),
              UNKNOWN_FIELD,
            );
        }
        return base.validate(u, t.appendContext(c, '', base, u));
      },
      (a) => base.encode(a),
    ),
    { strictProps: { required, optional } },
  );
}

/** The first failure of a decode as "path message" (`root` when it is the whole value). The offending
 *  value is never echoed: it may be part of a signed authorization. */
export function firstProblem(errors: t.Errors, root: string): string {
  const first = errors[0];
  if (!first) return `${root} is not valid`;
  return `${pathOf(first) || root} ${first.message ?? 'is not valid'}`;
}
