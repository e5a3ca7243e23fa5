// A turn of the event loop between two heavy steps of one request. A fetch that completes, or an embedded
// store's query (PGlite answers synchronously inside a promise), continues the request in microtasks, so
// several requests' steps can chain into one long task that a /healthz probe waits behind; resolving on
// setImmediate lets pending I/O run first (docs/decisions.md, "Signal readers under one work budget").
export const nextTurn = (): Promise<void> => new Promise<void>((resolve) => setImmediate(resolve));
