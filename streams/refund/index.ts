// The refund-request stream: operator-reviewed records, never a transfer (spec §3).
export * from './events.js';
export * from './state.js';
export * from './evolve.js';
export * from './decide.js';
export * from './refund-transfer.js';
