import type { EventStore } from '../store/port.js';
import { STREAM_PREFIX, streamName } from '../../streams/purchase/purchase-id.js';

const PAGE = 1000;

/** Every stream whose name starts with `prefix`, in order of first appearance on `$all`. */
export async function streamsNamed(store: EventStore, prefix: string): Promise<string[]> {
  const seen = new Set<string>();
  let at = 0n;
  for (;;) {
    const page = await store.readAll(at, PAGE);
    for (const e of page) {
      if (e.stream.startsWith(prefix)) seen.add(e.stream);
      at = e.position;
    }
    if (page.length < PAGE) return [...seen];
  }
}

/** Every purchase stream in the store, in order of first appearance on `$all`. */
export const purchaseStreams = (store: EventStore): Promise<string[]> => streamsNamed(store, STREAM_PREFIX);

/** Accepts `<id>` or `purchase-<id>`. */
export const purchaseStream = (idOrStream: string): string =>
  idOrStream.startsWith(STREAM_PREFIX) ? idOrStream : streamName(idOrStream);

export const idOf = (stream: string): string => stream.slice(STREAM_PREFIX.length);
