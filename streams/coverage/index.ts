// The coverage ledger (spec §1.4): which origins are covered, who changed it, when, why, and what the
// review observed. One stream, `coverage`.
export * from './events.js';
export * from './state.js';
export * from './evolve.js';
export * from './decide.js';
export * from './covered-days.js';
