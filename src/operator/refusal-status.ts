// The operator API's one table from a refusal code to its HTTP status. The operator functions
// (ops/operator/) refuse with stable codes and no status; only this file picks one.
//
//   NO_SUCH_PURCHASE, NO_SUCH_REFUND_REQUEST   404  nothing by that id
//   USAGE, AMBIGUOUS_PREFIX, INVALID_REQUEST…  400  the request names nothing definite or is malformed
//   CONCURRENT_CHANGE                          409  the stream moved on since the expected revision
//   REFUND_CHAIN_UNAVAILABLE                   503  the refund transfer cannot be read on the chain now
//   any decider refusal (NOT_LOCKED, …)        409  the purchase's or request's state does not allow it

const STATUS: Readonly<Record<string, number>> = {
  NO_SUCH_PURCHASE: 404,
  NO_SUCH_REFUND_REQUEST: 404,
  NOT_FOUND: 404,
  USAGE: 400,
  AMBIGUOUS_PREFIX: 400,
  CONCURRENT_CHANGE: 409,
  REFUND_CHAIN_UNAVAILABLE: 503,
  UNAUTHORIZED: 401,
};

export const refusalStatus = (code: string): number => STATUS[code] ?? 409;
