// What the CLI prints when a request cannot be made: the URL asked for and the cause. Node's fetch
// throws `TypeError: fetch failed` and keeps the reason (ECONNREFUSED, ENOTFOUND, a TLS error) in
// err.cause; neither names the URL. The CLI's fetch remembers the URL of the request that failed and
// rethrows the same error, so the buyer's own handling of it (a timeout resumes) is unchanged.

const failedUrl = new WeakMap<object, string>();

/** `fetch` that remembers, for an error it throws, the URL it was asked for. */
export function urlNamingFetch(f: typeof globalThis.fetch = globalThis.fetch.bind(globalThis)): typeof fetch {
  return async (input, init) => {
    try {
      return await f(input, init);
    } catch (e) {
      if (e !== null && typeof e === 'object') {
        failedUrl.set(e, input instanceof Request ? input.url : String(input));
      }
      throw e;
    }
  };
}

/** The cause of a failed request in a few words: the innermost message, or its error code. */
function causeOf(e: unknown): string {
  let cause: unknown = e;
  while ((cause as { cause?: unknown } | null)?.cause !== undefined) cause = (cause as { cause: unknown }).cause;
  const c = cause as { message?: unknown; code?: unknown; errors?: { message?: unknown }[] } | null;
  // Happy eyeballs reports one AggregateError (no message) for every address tried.
  const message = typeof c?.message === 'string' && c.message !== '' ? c.message : c?.errors?.[0]?.message;
  if (typeof message === 'string' && message !== '') return message;
  return typeof c?.code === 'string' ? c.code : String(cause);
}

/** The line an unexpected error is printed as: the URL and the cause when it was a request. */
export function describeError(e: unknown): string {
  const url = e !== null && typeof e === 'object' ? failedUrl.get(e) : undefined;
  if (url !== undefined) return `cannot reach ${url}: ${causeOf(e)}`;
  return e instanceof Error ? e.message : String(e);
}
