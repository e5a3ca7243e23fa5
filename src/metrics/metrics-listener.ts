import type { Registry } from 'prom-client';
import type { DeployConfig } from '../config/deploy-config.js';
import type { Logger } from '../runtime/log.js';
import { namedListenError } from '../http/listen-error.js';
import { startMetricsServer, type MetricsServer } from './server.js';

// The metrics listener as configured: none with METRICS_LISTEN=off; in development without METRICS_LISTEN
// a free port when the default one is taken (the startup summary prints where it went); otherwise a bind
// failure names METRICS_LISTEN (docs/decisions.md, "The first hour").

export async function startMetricsListener(
  registry: Registry,
  config: Pick<DeployConfig, 'metricsListen' | 'metricsListenFallback'>,
  log: Logger,
): Promise<MetricsServer | undefined> {
  const listen = config.metricsListen;
  if (listen === 'off') return undefined;
  const setting = config.metricsListenFallback ? 'METRICS_LISTEN (unset: its default)' : 'METRICS_LISTEN';
  try {
    return await startMetricsServer(registry, listen);
  } catch (err) {
    if (!config.metricsListenFallback || (err as NodeJS.ErrnoException).code !== 'EADDRINUSE')
      throw namedListenError(err, setting, `${listen.host}:${listen.port}`);
    const server = await startMetricsServer(registry, { host: listen.host, port: 0 }).catch((again: unknown) => {
      throw namedListenError(again, setting, `${listen.host}:0`);
    });
    log.warn(
      { taken: `${listen.host}:${listen.port}`, metrics: server.url },
      'the default metrics port is taken: serving /metrics on a free port (set METRICS_LISTEN to choose)',
    );
    return server;
  }
}
