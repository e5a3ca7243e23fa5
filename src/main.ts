import { loadConfig, ConfigError, serviceConfig } from './config.js';
import { createLogger } from './log.js';
import { startService } from './service.js';
import { loadEnvFileArgument } from './env-file.js';
import { stopOnSignals } from './stop-on-signals.js';

// Process entry: decode configuration, start (in development without RPC_URL, the devnet first, as a
// child process), and stop cleanly on signals: the service, then the devnet.
async function main() {
  let config;
  loadEnvFileArgument(process.argv.slice(2));
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(2);
    }
    throw err;
  }
  const log = createLogger(config.logLevel);
  // Test-only crash points for the SIGKILL recovery tests (never honoured outside NODE_ENV=test).
  const crashPoint = process.env.NODE_ENV === 'test' ? process.env.TEST_CRASH_AT : undefined;
  const devnet =
    config.devnet === 'auto'
      ? await (await import('./devnet-child.js')).startDevnetChild(log, config.devnetBlockMs)
      : undefined;
  const service = await startService(
    serviceConfig(config, devnet?.chain),
    log,
    crashPoint
      ? {
          crashAt: (point) => {
            if (point === crashPoint) process.kill(process.pid, 'SIGKILL');
          },
        }
      : {},
  ).catch(async (err) => {
    await devnet?.stop();
    throw err;
  });
  log.info(
    { url: service.url, store: service.storeKind, metrics: service.metricsUrl, pid: process.pid },
    'rights preflight service listening',
  );
  stopOnSignals(async () => {
    await service.stop();
    await devnet?.stop();
  }, log);
}

main().catch((err) => {
  if (err instanceof ConfigError) {
    console.error(err.message);
    process.exit(2);
  }
  console.error('fatal:', err instanceof Error ? err.message : err);
  process.exit(1);
});
