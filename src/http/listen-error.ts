// A listener that cannot bind says which setting chose its address, so the operator knows what to change
// (docs/decisions.md, "The first hour"): `listen EADDRINUSE 127.0.0.1:9464` alone names no variable.
//
//   throw namedListenError(err, 'METRICS_LISTEN', '127.0.0.1:9464');
//   // listen EADDRINUSE 127.0.0.1:9464: set by METRICS_LISTEN (address in use: choose another or stop…)

const ADVICE: Record<string, string> = {
  EADDRINUSE: 'the address is in use: choose another, or stop what holds it',
  EACCES: 'no permission to bind it: choose a port above 1023',
  EADDRNOTAVAIL: 'no such local address on this machine',
};

export class ListenError extends Error {
  readonly setting: string;
  readonly code: string | undefined;
  constructor(message: string, setting: string, code: string | undefined) {
    super(message);
    this.name = 'ListenError';
    this.setting = setting;
    this.code = code;
  }
}

/** The bind error `err` of `address`, naming `setting` (e.g. "METRICS_LISTEN", "HOST/PORT"). */
export function namedListenError(err: unknown, setting: string, address: string): ListenError {
  const code = (err as NodeJS.ErrnoException)?.code;
  const advice = (code && ADVICE[code]) ?? (err as Error)?.message ?? String(err);
  return new ListenError(`listen ${code ?? 'failed'} ${address}: set by ${setting} (${advice})`, setting, code);
}
