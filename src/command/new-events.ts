import { randomUUID } from 'node:crypto';
import type { NewEvent } from '../store/port.js';

// Decided events with fresh ids, ready to append: the store recognises a re-append of the same ids
// (idempotent retry). Kept out of the deciders so they stay pure; a generator passes seeded ids.
export const toNewEvents = (
  events: readonly { type: string; data: unknown }[],
  newId: () => string = randomUUID,
): NewEvent[] => events.map((e) => ({ id: newId(), type: e.type, data: e.data }));
