// Public face of the purchase stream for the application layer (src/purchase/stream.ts).
export * from './events.js';
export * from './state.js';
export * from './evolve.js';
export * from './commands.js';
export * from './refusals.js';
export * from './purchase-id.js';
export * from './decider.js';
export { toNewEvents, decideToAppend } from './append.js';
// `decide` here is decide-and-stamp-ids (NewEvent[], ready to append), which is what the application
// layer calls; the pure decider returning PurchaseEvent[] is `./decide.js` (and purchaseDecider.decide).
export { decideToAppend as decide } from './append.js';
