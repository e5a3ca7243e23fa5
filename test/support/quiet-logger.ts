import { Writable } from 'node:stream';
import { createLogger } from '../../src/runtime/log.js';

// A service logger that writes nowhere, for tests that start the service or the app in this process and
// look at its answers, not its log (a test that greps the log uses ops/world's capturedLogger).
export const quietLogger = () =>
  createLogger(
    'silent',
    new Writable({
      write(_c, _e, cb) {
        cb();
      },
    }),
  );
