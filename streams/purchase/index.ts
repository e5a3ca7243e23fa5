// Public face of the purchase stream for the application layer (src/purchase/stream.ts).
export * from './events.js';
export * from './state.js';
export * from './evolve.js';
export * from './progress.js';
export * from './commands.js';
export * from './refusals.js';
export * from './purchase-id.js';
export * from './decider.js';
// `decide` is the pure decider (command, state, now) → PurchaseEvent[]; `decideToAppend` is decide plus
// event ids (NewEvent[], ready to append), which is what the application layer calls.
export { decide } from './decide.js';
export { toNewEvents, decideToAppend } from './append.js';
export * from './facts.js';
