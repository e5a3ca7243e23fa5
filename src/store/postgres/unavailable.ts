import { StoreUnavailable } from '../port.js';

// Errors that mean "the PostgreSQL server cannot be reached or went away", as opposed to errors in
// what we asked it to do. Only these become StoreUnavailable (the HTTP layer answers 503 and the
// subscription loop retries); everything else is a bug or a conflict and passes through.
const NODE_NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
]);
// Connection exception, admin/crash shutdown, cannot connect now, too many connections.
const SQLSTATE_UNAVAILABLE = /^(08|57P0[1-3]|53300)/;

export function translatePgError(err: unknown): unknown {
  if (!(err instanceof Error) || err instanceof StoreUnavailable) return err;
  const code = (err as { code?: unknown }).code;
  const unreachable =
    (typeof code === 'string' && (NODE_NETWORK_CODES.has(code) || SQLSTATE_UNAVAILABLE.test(code))) ||
    /Connection terminated|connection timeout|Client has encountered a connection error/i.test(err.message);
  return unreachable ? new StoreUnavailable(`PostgreSQL unavailable: ${err.message}`, { cause: err }) : err;
}
