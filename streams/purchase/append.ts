import { randomUUID } from 'node:crypto';
import type { NewEvent } from '../../src/store/port.js';
import type { PurchaseCommand } from './commands.js';
import { decide } from './decide.js';
import type { PurchaseState } from './state.js';

// The impure edge of the decider: fresh event ids so the store can recognise a re-append of the same
// events (idempotent retry). Kept out of decide.ts so decide stays pure and testable without mocks.

export const toNewEvents = (events: readonly { type: string; data: unknown }[], newId: () => string = randomUUID): NewEvent[] =>
  events.map((e) => ({ id: newId(), type: e.type, data: e.data }));

/** decide, then stamp ids: what an application service appends at the state's revision. */
export const decideToAppend = (command: PurchaseCommand, state: PurchaseState, now: Date): NewEvent[] =>
  toNewEvents(decide(command, state, now));
