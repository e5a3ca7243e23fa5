import { existsSync } from 'node:fs';
import http from 'node:http';
import type { Config } from '../../src/config/config.js';
import { OPERATOR_API } from '../../src/operator/contract.js';

// Where the running service's operator API answers, as the CLI finds it: the Unix socket in DATA_DIR
// (mode 0600, so only the service's user gets here), else OPERATOR_LISTEN with OPERATOR_TOKEN. Nothing
// answering means the service is not running and the CLI opens the store itself.
//
//   const listener = await reachOperatorListener(config);
//   if (listener) await operatorRequest(listener, { method: 'GET', path: '/operator/v1/queue' });

export type OperatorListener =
  | { kind: 'socket'; socketPath: string }
  | { kind: 'tcp'; host: string; port: number; token: string };

const PROBE_MS = 2_000;

export async function reachOperatorListener(config: Config): Promise<OperatorListener | undefined> {
  const candidates: OperatorListener[] = [];
  if (existsSync(config.operatorSocket)) candidates.push({ kind: 'socket', socketPath: config.operatorSocket });
  if (config.operatorListen && config.operatorToken)
    candidates.push({ kind: 'tcp', ...config.operatorListen, token: config.operatorToken });
  for (const listener of candidates) {
    // A socket file left by a killed service refuses the connection: then the store is free.
    const res = await operatorRequest(listener, {
      method: 'GET',
      path: `${OPERATOR_API}/health`,
      timeoutMs: PROBE_MS,
    }).catch(() => undefined);
    if (res) {
      res.resume();
      if (res.statusCode === 200) return listener;
    }
  }
  return undefined;
}

export interface OperatorRequest {
  method: string;
  path: string;
  headers?: http.OutgoingHttpHeaders;
  body?: string | Buffer;
  timeoutMs?: number;
}

/** One request to the listener; resolves with the response (its body still to be read). */
export function operatorRequest(listener: OperatorListener, r: OperatorRequest): Promise<http.IncomingMessage> {
  const where =
    listener.kind === 'socket' ? { socketPath: listener.socketPath } : { host: listener.host, port: listener.port };
  const auth = listener.kind === 'tcp' ? { authorization: `Bearer ${listener.token}` } : {};
  return new Promise((resolve, reject) => {
    const req = http.request(
      { ...where, method: r.method, path: r.path, headers: { ...r.headers, ...auth, host: 'operator.local' } },
      resolve,
    );
    req.once('error', reject);
    if (r.timeoutMs)
      req.setTimeout(r.timeoutMs, () =>
        req.destroy(new Error(`the operator listener did not answer within ${r.timeoutMs} ms`)),
      );
    req.end(r.body);
  });
}
