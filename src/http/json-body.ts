import type Koa from 'koa';
import { Refusal } from '@rights-preflight/wire/refusal.js';
import { plainJsonProblem } from '@rights-preflight/wire/contract/plain-json.js';

// Reading a JSON request body, for every route of the service. One place enforces the body cap
// (413 BODY_TOO_LARGE, decided from Content-Length before reading when possible, and while
// streaming otherwise), the media type (415 UNSUPPORTED_MEDIA_TYPE: only application/json, UTF-8),
// and well-formedness (400 MALFORMED_JSON), plain JSON included (no non-finite number, lone surrogate or
// nesting past 32: the wire package's contract/plain-json.ts, the guard every header the service digests passes
// too), so no route digests, canonicalizes or stores a value RFC 8785 cannot write. The parsed value is
// `unknown`: decode it with an io-ts
// codec through decode.ts.

export const DEFAULT_JSON_BODY_LIMIT = 64 * 1024;

export interface JsonBodyOptions {
  /** Maximum body size in bytes (default 64 KiB). */
  limitBytes?: number;
  /** When true, an empty body (no bytes at all) returns `undefined` instead of an error (e.g. discovery-only POSTs). */
  allowEmpty?: boolean;
}

export async function readJsonBody(ctx: Koa.Context, opts: JsonBodyOptions = {}): Promise<unknown> {
  const limit = opts.limitBytes ?? DEFAULT_JSON_BODY_LIMIT;
  const headers = ctx.req.headers;
  const declared = headers['content-length'] !== undefined ? Number(headers['content-length']) : null;
  const chunked = headers['transfer-encoding'] !== undefined;
  if (declared !== null && declared > limit) throw tooLarge(limit);
  const noBody = !chunked && (declared === null || declared === 0);
  if (noBody) {
    if (opts.allowEmpty) return undefined;
    throw new Refusal('MALFORMED_JSON', 'a JSON request body is required');
  }
  // ctx.is() is null without a body and false on a mismatch; parameters such as charset are allowed.
  if (ctx.is('application/json') === false || !headers['content-type']) {
    throw new Refusal('UNSUPPORTED_MEDIA_TYPE', 'send the body as Content-Type: application/json', {
      content_type: headers['content-type'] ?? null,
    });
  }
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(headers['content-type'])?.[1];
  if (charset && !/^utf-?8$/i.test(charset)) {
    throw new Refusal('UNSUPPORTED_MEDIA_TYPE', 'JSON bodies must be UTF-8', { charset });
  }

  const raw = await readCapped(ctx.req, limit);
  if (raw.length === 0) {
    if (opts.allowEmpty) return undefined;
    throw new Refusal('MALFORMED_JSON', 'a JSON request body is required');
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(raw);
  } catch {
    throw new Refusal('MALFORMED_JSON', 'the body is not valid UTF-8');
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new Refusal('MALFORMED_JSON', 'the body is not valid JSON', { parser: (err as Error).message.slice(0, 200) });
  }
  const problem = plainJsonProblem(value);
  if (problem) throw new Refusal('MALFORMED_JSON', `the body is not plain JSON: ${problem}`, { problem });
  return value;
}

function tooLarge(limit: number): Refusal {
  // Connection: close — the client may still be sending the rest of an oversized body.
  return new Refusal('BODY_TOO_LARGE', `the body exceeds ${limit} bytes`, { limit_bytes: limit });
}

/** The raw body, refused with 413 BODY_TOO_LARGE once it passes `limit` bytes. */
export function readCapped(stream: NodeJS.ReadableStream, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const cleanup = () => {
      stream.removeListener('data', onData);
      stream.removeListener('end', onEnd);
      stream.removeListener('error', onError);
    };
    const onData = (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > limit) {
        done = true;
        cleanup();
        stream.pause();
        return reject(tooLarge(limit));
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      if (!done) {
        done = true;
        cleanup();
        resolve(Buffer.concat(chunks));
      }
    };
    const onError = (err: Error) => {
      if (!done) {
        done = true;
        cleanup();
        reject(new Refusal('MALFORMED_JSON', `the body could not be read: ${err.message}`));
      }
    };
    stream.on('data', onData);
    stream.on('end', onEnd);
    stream.on('error', onError);
  });
}
