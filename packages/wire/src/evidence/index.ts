// Browser-safe surface of the evidence module (what the buyer client bundles). Node-only parts —
// keys.ts (files, node:crypto) and sign-node.ts — are imported by path on the service side.
export * from './canonical-json.js';
export * from './digest.js';
export * from './public-key.js';
export * from './envelope.js';
export * from './verify.js';
export * from './sign-noble.js';
export * from './payloads.js';
