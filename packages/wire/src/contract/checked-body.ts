import type * as t from 'io-ts';

// A route never sends a body its published codec rejects (docs/decisions.md, "Hard inputs"). Such a body is a bug of
// ours; a buyer would trust it, so it is refused here and answered as a logged 500 rather than sent. `is` walks the
// value once; the bodies are small next to the work that built them.

export function checkedBody<C extends t.Any>(codec: C, body: unknown): t.OutputOf<C> {
  if (!codec.is(body)) throw new Error(`response body does not satisfy ${codec.name}`);
  return codec.encode(body);
}
