import { isLeft } from 'fp-ts/lib/Either.js';
import type * as t from 'io-ts';
import type Koa from 'koa';
import { OperatorRefused } from '../operator-refused.js';

// An operator route's query string, decoded with the route's own io-ts codec (unknown parameters are
// ignored, as they always were). A refusal is USAGE 400 with the route's words for the first
// parameter that does not decode; a parameter given twice is said to be so.
//
//   const { from, to } = decodeQuery(ExportQuery, ctx.query, { from: 'from must be a day (YYYY-MM-DD)' });

export function decodeQuery<C extends t.Mixed>(
  codec: C,
  query: Koa.Context['query'],
  problems: Readonly<Record<string, string>> = {},
): t.TypeOf<C> {
  const decoded = codec.decode(query);
  if (!isLeft(decoded)) return decoded.right;
  const name = decoded.left[0]?.context.find((c) => c.key !== '')?.key ?? '';
  if (Array.isArray(query[name])) throw new OperatorRefused('USAGE', `${name} given more than once`);
  throw new OperatorRefused('USAGE', problems[name] ?? `${name || 'the query'} is not valid`);
}
