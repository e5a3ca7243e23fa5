// The buyer's Node-only part (`@rights-preflight/buyer/node`): encrypted checkpoints in files.
// The browser-safe core is `@rights-preflight/buyer` (../index.ts).
export { fileBoxStore, fileCheckpointStore } from './file-checkpoint-store.js';
export { checkFiles } from './check-files.js';
