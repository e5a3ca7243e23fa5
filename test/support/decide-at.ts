import { toNewEvents } from '../../src/command/new-events.js';
import type { NewEvent } from '../../src/store/port.js';
import { decide } from '../../streams/purchase/decide.js';
import type { PurchaseCommandBody } from '../../streams/purchase/commands.js';
import type { PurchaseEvent } from '../../streams/purchase/events.js';
import type { PurchaseState } from '../../streams/purchase/state.js';

// Test fixtures build command bodies; these decide one at a given time (the command's metadata.now),
// and stamp ids for an append, exactly as src/command/handle-command.ts does.
export const decideAt = (body: PurchaseCommandBody, state: PurchaseState, now: Date): PurchaseEvent[] =>
  decide({ ...body, metadata: { now } }, state);

export const decideToAppend = (
  body: PurchaseCommandBody,
  state: PurchaseState,
  now: Date,
  newId?: () => string,
): NewEvent[] => toNewEvents(decideAt(body, state, now), newId);
