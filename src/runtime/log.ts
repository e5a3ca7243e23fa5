import { pino, type Logger, type DestinationStream } from 'pino';

// Secrets that must never reach a log line, wherever they appear in a logged object.
const REDACTED_PATHS = [
  'req.headers["x-service-claim"]',
  'req.headers["x-service-request"]',
  'req.headers["payment-signature"]',
  'req.headers["x-service-payment-intent"]',
  'req.headers["sign-in-with-x"]',
  'req.headers.authorization',
  'req.headers.cookie',
  'headers["x-service-claim"]',
  'headers["x-service-request"]',
  'headers["payment-signature"]',
  'headers["sign-in-with-x"]',
  'claim_token',
  '*.claim_token',
  'claimToken',
  '*.claimToken',
  'key',
  '*.retryKey',
  'retryKey',
  'signature',
  '*.signature',
  'authorization',
  '*.authorization',
  'checkpoint',
  '*.checkpoint',
  'paymentPayload',
  '*.paymentPayload',
  'privateKey',
  '*.privateKey',
];

/**
 * The service's logger. By default it writes to stdout asynchronously: a line is handed to the
 * kernel while the next request runs instead of a synchronous write per line (a third of the CPU of
 * a capabilities request went to that write). Nothing waits in a buffer (minLength 0), and pino
 * flushes what is pending when the process exits and on every fatal line.
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    { level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' }, base: { service: 'rights-preflight' } },
    destination ?? pino.destination({ dest: 1, sync: false, minLength: 0 }),
  );
}

/**
 * A logger for lines whose fields are fixed and never secret (the access log: request id, method,
 * path, status, duration): it skips the redaction pass that every line of the main logger pays.
 */
export function unredactedChild(log: Logger): Logger {
  return log.child({}, { redact: [] });
}

export type { Logger };
