export * from './events.js';
export * from './state.js';
export * from './decide.js';
export * from './ids.js';
