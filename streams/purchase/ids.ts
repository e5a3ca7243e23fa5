// Former name of purchase-id.ts, still imported by src/purchase/quote.ts and src/gate/gate.ts.
export { purchaseId, streamName, STREAM_PREFIX, purchaseIdOfStream } from './purchase-id.js';
