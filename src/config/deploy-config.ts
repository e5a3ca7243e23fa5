import * as t from 'io-ts';
import { originListCodec } from './origin-list-codec.js';

// The settings of running the service in a deployment (not of what it sells): the metrics listener,
// browser origins allowed by CORS, and the shutdown grace period. Decoded as part of src/config/config.ts.

const Listen = new t.Type<{ host: string; port: number } | 'off', string, unknown>(
  'Listen',
  (u): u is { host: string; port: number } | 'off' => u === 'off' || (typeof u === 'object' && u !== null),
  (u, c) => {
    if (u === 'off') return t.success('off');
    const m = typeof u === 'string' ? /^(\[[0-9a-fA-F:]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/.exec(u) : null;
    if (!m || Number(m[2]) > 65535) return t.failure(u, c, 'must be host:port (e.g. 127.0.0.1:9464) or off');
    return t.success({ host: m[1]!.replace(/^\[|\]$/g, ''), port: Number(m[2]) });
  },
  (a) => (a === 'off' ? 'off' : `${a.host}:${a.port}`),
);

const BrowserOrigins = originListCodec('BrowserOrigins', 'http or https', 'https://app.example');

const Milliseconds = new t.Type<number, string, unknown>(
  'Milliseconds',
  (u): u is number => typeof u === 'number',
  (u, c) =>
    typeof u === 'string' && /^(0|[1-9][0-9]{0,6})$/.test(u)
      ? t.success(Number(u))
      : t.failure(u, c, 'must be milliseconds 0..9999999'),
  String,
);

export const DeployEnv = t.partial({
  METRICS_LISTEN: Listen,
  CORS_ORIGINS: BrowserOrigins,
  SHUTDOWN_GRACE_MS: Milliseconds,
});

export interface DeployConfig {
  /** Where GET /metrics is served; never the public port. */
  metricsListen: { host: string; port: number } | 'off';
  /** Development without METRICS_LISTEN: when the default port is taken, a free one is used instead
   *  (another program on 9464 must not stop a first `npm start`; docs/decisions.md, "The first hour"). */
  metricsListenFallback: boolean;
  /** Browser origins allowed to call the API and read its payment headers; none: no CORS headers at all. */
  corsOrigins: string[];
  /** How long SIGTERM lets in-flight requests finish before their connections are closed. */
  shutdownGraceMs: number;
}

export function deployConfig(e: t.TypeOf<typeof DeployEnv>, o: { development?: boolean } = {}): DeployConfig {
  return {
    metricsListen: e.METRICS_LISTEN ?? { host: '127.0.0.1', port: 9464 },
    metricsListenFallback: e.METRICS_LISTEN === undefined && o.development === true,
    corsOrigins: e.CORS_ORIGINS ?? [],
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS ?? 10_000,
  };
}
