import { plainJsonProblem } from '@rights-preflight/wire/contract/plain-json.js';

// The gate's two unsigned-transport headers, X-Service-Payment-Intent and SIGN-IN-WITH-X, are base64
// (standard alphabet, padded) of JSON, and plain JSON before anything is formatted or verified, as for
// every structure a buyer signs (docs/wire.md §6). Each header answers a failure with its own refusal.

/** The plain JSON value `header` carries; throws when it is not base64 of plain JSON. */
export function base64PlainJson(header: string): unknown {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(header)) throw new Error('not base64');
  const parsed: unknown = JSON.parse(Buffer.from(header, 'base64').toString('utf8'));
  if (plainJsonProblem(parsed)) throw new Error('not plain JSON');
  return parsed;
}
