import { ConfigError, serviceConfig } from '../config/config.js';
import { startupProblems } from './startup-problems.js';
import { createLogger } from '../runtime/log.js';
import { crashAtFromEnv } from '../runtime/crash-points.js';
import { loadEnvFileArgument } from '../config/env-file.js';
import { stopOnSignals } from './stop-on-signals.js';
import path from 'node:path';

// Process entry: decode configuration, start (in development without RPC_URL, the devnet first, as a
// child process), and stop cleanly on signals: the service, then the devnet. Every configuration
// problem is reported at once, one line each, and exits CONFIG_EXIT (docs/decisions.md). The service's
// modules are imported only once the start is known to go ahead, so a refused start is quick.
const CONFIG_EXIT = 2;

function refuseConfiguration(problems: ConfigError['problems']): never {
  for (const p of problems) console.error(`configuration: ${p.variable} ${p.problem}`);
  // The last line names every setting to change: it is the one a terminal or a supervisor's log shows.
  const settings = [...new Set(problems.map((p) => p.variable))].join(', ');
  console.error(`${problems.length} configuration problem(s) (${settings}); nothing was started`);
  process.exit(CONFIG_EXIT);
}

async function main() {
  try {
    loadEnvFileArgument(process.argv.slice(2));
  } catch (err) {
    refuseConfiguration([{ variable: '--env-file', problem: `cannot be read (${(err as Error).message})` }]);
  }
  const { config, problems } = await startupProblems(process.env);
  if (problems.length > 0) refuseConfiguration(problems);
  const log = createLogger(config.logLevel);
  // Loaded while the devnet starts (a few seconds of module loading on a busy machine).
  const serviceModule = import('./service.js');
  serviceModule.catch(() => {}); // awaited below; a failure is reported there
  // Test-only crash points for the SIGKILL recovery tests (never honoured outside NODE_ENV=test).
  const crashAt = crashAtFromEnv(process.env);
  const devnet =
    config.devnet === 'auto'
      ? await (await import('../devnet/devnet-child.js')).startDevnetChild(
          log,
          config.devnetBlockMs,
          path.join(config.dataDir, 'dev-publishers'),
        )
      : undefined;
  const running = serviceConfig(config, devnet?.chain);
  const { startService } = await serviceModule;
  const { noticeChainChange } = await import('../devnet/chain-notice.js');
  const { purchaseTotals } = await import('../../projections/queries/purchases.js');
  const { EMPTY_COVERAGE, startupSummary } = await import('./startup-summary.js');
  const { writeBuyerEnv } = await import('../devnet/buyer-env.js');
  const service = await startService(running, log, crashAt ? { crashAt } : {}).catch(async (err) => {
    await devnet?.stop();
    throw err;
  });
  // A new chain under an old data directory is said before the summary (docs/decisions.md, "The first hour").
  await noticeChainChange(running, log, async () => {
    await service.readModels.caughtUp(5_000);
    return (await purchaseTotals(service.readModels.db)).paid;
  });
  // The summary first: whoever waits for the listening record has already been told it. Coverage is the
  // ledger's (COVERED_ORIGINS only seeded an empty one): the summary counts what the service serves.
  const covered = { ...running, coveredOrigins: [...service.coveredOrigins()] };
  if (covered.coveredOrigins.length === 0) log.warn(EMPTY_COVERAGE);
  const facts = { url: service.url, storeKind: service.storeKind, metricsUrl: service.metricsUrl };
  process.stderr.write(`${startupSummary(covered, { ...facts, devnet: devnet !== undefined })}\n`);
  if (devnet?.chain.buyer) {
    const file = await writeBuyerEnv(running.dataDir, {
      serviceUrl: service.url,
      network: running.network,
      asset: running.usdcAsset,
      payTo: running.payTo,
      evidencePublicKey: service.evidenceKey.public_key,
      privateKey: devnet.chain.buyer.privateKey,
    });
    process.stderr.write(
      `development buyer settings: ${file}  (npx rights-preflight buy <url> --purpose ai-input --env-file ${file})\n`,
    );
  }
  log.info(
    {
      url: service.url,
      store: service.storeKind,
      metrics: service.metricsUrl,
      pid: process.pid,
      network: running.network,
      settlement: running.settlement,
      coverage: covered.coveredOrigins.length,
    },
    'rights preflight service listening',
  );
  stopOnSignals(async () => {
    await service.stop();
    await devnet?.stop();
  }, log);
}

main().catch((err) => {
  if (err instanceof ConfigError) refuseConfiguration(err.problems);
  console.error('fatal:', err instanceof Error ? err.message : err);
  process.exit(1);
});
