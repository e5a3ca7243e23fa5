import { pino, type Logger, type DestinationStream } from 'pino';

// Secrets that must never reach a log line, wherever they appear in a logged object.
export const REDACTED_PATHS = [
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
  'claim_token', '*.claim_token',
  'claimToken', '*.claimToken',
  'key', '*.retryKey', 'retryKey',
  'signature', '*.signature',
  'authorization', '*.authorization',
  'checkpoint', '*.checkpoint',
  'paymentPayload', '*.paymentPayload',
  'privateKey', '*.privateKey',
];

export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    { level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' }, base: { service: 'rights-preflight' } },
    destination,
  );
}

export type { Logger };
