// Public face of the purchase stream for the application layer (src/money-path/purchase-stream.ts).
export * from './events.js';
export * from './quoted-product.js';
export * from './state.js';
export * from './evolve.js';
export * from './progress.js';
export * from './commands.js';
export * from './refusals.js';
export * from './purchase-id.js';
export * from './decider.js';
// `decide` is the pure decider (command, state) → PurchaseEvent[]; the application layer runs it
// through src/command/handle-command.ts with `purchaseDecider`.
export { decide } from './decide.js';
export * from './facts.js';
