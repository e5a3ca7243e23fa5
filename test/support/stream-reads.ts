import type { EventStore } from '../../src/store/port.js';

export interface StreamReads {
  /** The reads noted so far: all of them, or those of the streams whose name contains `part`. */
  count(part?: string): number;
  /** Gives the store its own `readStream` back. */
  restore(): void;
}

/**
 * Notes every stream `store` reads from now until `restore()`, so a test counts the reads one step makes. A store
 * shared by a file's concurrent tests is noted by one of them at a time (`test.serial`): a second wrap restored
 * out of order would undo the first.
 */
export function noteStreamReads(store: Pick<EventStore, 'readStream'>): StreamReads {
  const read: string[] = [];
  const readStream = store.readStream;
  store.readStream = (stream) => {
    read.push(stream);
    return readStream.call(store, stream);
  };
  return {
    count: (part) => (part === undefined ? read.length : read.filter((s) => s.includes(part)).length),
    restore: () => {
      store.readStream = readStream;
    },
  };
}
