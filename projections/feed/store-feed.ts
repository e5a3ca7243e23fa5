import type { EventStore } from '../../src/store/port.js';
import { deliveredFactsFromData, incompleteDelivered } from './delivered-digests.js';
import { factsOf } from './event-facts.js';
import type { RawFactEvent } from './fact-event.js';
import type { FactFeed } from './feed.js';

// The feed of a store whose events arrive whole (EventStoreDB): the same facts, computed here.

export function storeFactFeed(store: EventStore): FactFeed {
  let newest = 0n;
  return {
    async read(from, limit) {
      const page = await store.readAll(from, limit);
      const events = page.map((e): RawFactEvent => {
        const facts = factsOf(e.stream, e.type, e.data);
        return {
          position: e.position,
          stream: e.stream,
          type: e.type,
          created: e.created.toISOString(),
          facts: facts !== null && incompleteDelivered(e.type, facts) ? deliveredFactsFromData(e.data) : facts,
        };
      });
      if (events.length > 0 && events.at(-1)!.position > newest) newest = events.at(-1)!.position;
      return events;
    },
    async head() {
      // The port has no "last position": page forward from the newest position seen.
      for (;;) {
        const page = await store.readAll(newest, 1000);
        if (page.length === 0) return newest;
        newest = page.at(-1)!.position;
      }
    },
  };
}
