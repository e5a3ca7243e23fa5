import Koa from 'koa';
import { timingSafeEqual } from 'node:crypto';
import { chmod, unlink } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { UsageError } from '../usage-error.js';
import { STATUS_OF } from '../../http/status-of.js';
import { Refusal } from '@rights-preflight/wire/refusal.js';
import { operatorApi } from './api.js';
import { operatorConsole } from './console-router.js';
import type { OperatorDeps } from '../operator-deps.js';
import { OperatorRefused } from '../operator-refused.js';
import { namedListenError } from '../../http/listen-error.js';

// The operator listener: the operator API and console, on their own servers and never on the public
// app. Always a Unix socket in DATA_DIR with mode 0600 (the file's permissions are the access
// control: only the service's user connects); and, with OPERATOR_LISTEN=127.0.0.1:PORT, loopback TCP
// where every request needs `Authorization: Bearer $OPERATOR_TOKEN` (401 otherwise).
//
//   const operator = await startOperatorListener(deps);   // operator.socketPath, operator.tcpUrl
//   await operator.stop();

export interface OperatorListenerHandle {
  socketPath: string | undefined;
  tcpUrl: string | undefined;
  stop(): Promise<void>;
}

/** Unix socket paths are limited to about 107 bytes (sun_path). */
const MAX_SOCKET_PATH = 100;

/** Refusals as `{refused: {code, message, details?}}` (the CLI's --json shape); logs without bodies. */
function refusals(deps: OperatorDeps): Koa.Middleware {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined)
        throw new OperatorRefused('NOT_FOUND', 'no such operator endpoint');
    } catch (err) {
      const r =
        err instanceof OperatorRefused
          ? err
          : err instanceof Refusal
            ? new OperatorRefused(err.code, err.message, err.details, STATUS_OF[err.code] ?? 400)
            : err instanceof UsageError
              ? new OperatorRefused('USAGE', err.message)
              : undefined;
      if (r) {
        ctx.status = r.status;
        ctx.body = { refused: { code: r.code, message: r.message, ...(r.details ? { details: r.details } : {}) } };
      } else {
        deps.log.error(
          { err: { message: (err as Error)?.message, name: (err as Error)?.name } },
          'operator request failed',
        );
        ctx.status = 500;
        ctx.body = { refused: { code: 'INTERNAL', message: 'internal error' } };
      }
    } finally {
      deps.log.info({ method: ctx.method, path: ctx.path, status: ctx.status }, 'operator request');
    }
  };
}

function bearer(token: string): Koa.Middleware {
  const expected = Buffer.from(`Bearer ${token}`);
  return async (ctx, next) => {
    const given = Buffer.from(ctx.get('authorization'));
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      ctx.status = 401;
      ctx.set('www-authenticate', 'Bearer realm="operator"');
      ctx.body = {
        refused: {
          code: 'UNAUTHORIZED',
          message: 'the operator API on TCP needs Authorization: Bearer $OPERATOR_TOKEN',
        },
      };
      return;
    }
    await next();
  };
}

function operatorApp(deps: OperatorDeps, token: string | undefined): Koa {
  const app = new Koa();
  app.proxy = false;
  app.use(refusals(deps));
  if (token !== undefined) app.use(bearer(token));
  for (const router of [operatorApi(deps), operatorConsole(deps)]) {
    app.use(router.routes());
    app.use(router.allowedMethods());
  }
  return app;
}

/** Whether something answers on the socket (another service on this DATA_DIR) or it is a leftover file. */
function socketAnswers(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect(socketPath);
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

/** Binds `server`; a failure names the setting that chose the address (`setting`, `address`). */
async function listen(server: http.Server, named: { setting: string; address: string }, ...args: unknown[]) {
  (server.listen as (...a: unknown[]) => void)(...args);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', (err) => reject(namedListenError(err, named.setting, named.address)));
  });
}

const closeServer = (server: http.Server) =>
  new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });

export async function startOperatorListener(deps: OperatorDeps): Promise<OperatorListenerHandle> {
  const servers: http.Server[] = [];
  let socketPath: string | undefined = deps.config.operatorSocket;
  if (socketPath.length > MAX_SOCKET_PATH) {
    deps.log.warn(
      { socket: socketPath },
      'DATA_DIR is too long a path for the operator socket: no socket; set OPERATOR_LISTEN for the operator API',
    );
    socketPath = undefined;
  } else if (await socketAnswers(socketPath)) {
    // PostgreSQL lets several instances share a DATA_DIR; the first one's socket serves the operators.
    deps.log.warn({ socket: socketPath }, 'another service answers on the operator socket: this instance serves none');
    socketPath = undefined;
  } else {
    await unlink(socketPath).catch(() => {}); // left by a killed service
    const server = http.createServer(operatorApp(deps, undefined).callback());
    await listen(
      server,
      { setting: 'DATA_DIR (the operator socket is DATA_DIR/operator.sock)', address: socketPath },
      socketPath,
    );
    await chmod(socketPath, 0o600);
    servers.push(server);
  }
  let tcpUrl: string | undefined;
  if (deps.config.operatorListen) {
    const server = http.createServer(operatorApp(deps, deps.config.operatorToken!).callback());
    const { host, port } = deps.config.operatorListen;
    await listen(server, { setting: 'OPERATOR_LISTEN', address: `${host}:${port}` }, port, host);
    const bound = server.address() as AddressInfo;
    tcpUrl = `http://${bound.address.includes(':') ? `[${bound.address}]` : bound.address}:${bound.port}`;
    servers.push(server);
  }
  deps.log.info({ socket: socketPath ?? null, tcp: tcpUrl ?? null }, 'operator listener ready');
  return {
    socketPath,
    tcpUrl,
    async stop() {
      for (const s of servers) await closeServer(s);
    },
  };
}
