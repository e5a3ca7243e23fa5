import { access } from 'node:fs/promises';
import path from 'node:path';
import { checkConfig, serviceConfigProblems, type Config, type ConfigProblem } from '../config/config.js';
import { CHECKPOINT_KEY_FILE, loadCheckpointKey } from '../crypto/checkpoint-key.js';
import { EVIDENCE_KEY_FILE, LEGACY_EVIDENCE_KEY_FILE, loadEvidenceKey } from '../evidence/keys.js';
import { CLAIM_SECRET_FILE, loadClaimSecret } from '../money-path/claim.js';
import { addressProblem } from '../config/address-free.js';
import { dataDirInUse } from './data-dir-in-use.js';
import { storeUrlProblems } from '../config/store-host.js';

// Everything wrong with a start's configuration, found before anything starts, so one run reports every
// problem and exits with one code (docs/decisions.md, "Configuration errors at once"): each variable, the
// chain settings when no devnet will supply them, each secret's file in DATA_DIR that is damaged, and in
// production each secret neither set nor present there (production never generates one). Then what the
// machine can answer without starting anything (docs/decisions.md, "Start-up checks before anything
// starts"): the data directory not held by another service, the listen addresses free, the store's host
// known. main.ts asks all of this before the devnet, the keys and the store, so a refused start creates
// nothing.

export async function startupProblems(env: NodeJS.ProcessEnv): Promise<{ config: Config; problems: ConfigProblem[] }> {
  const { config, problems } = checkConfig(env);
  const add = (more: readonly ConfigProblem[]) => {
    for (const p of more) if (!problems.some((q) => q.variable === p.variable)) problems.push(p);
  };
  if (config.devnet === 'off') add(serviceConfigProblems(config));
  add(await secretProblems(config));
  if (config.production) add(examplePlaceholders(config));
  const inUse = await dataDirInUse(config.eventStoreUrl, config.dataDir, env);
  if (inUse) problems.push(inUse);
  add(await addressProblems(config));
  problems.push(...(await storeUrlProblems('EVENT_STORE_URL', env.EVENT_STORE_URL)));
  problems.push(...(await storeUrlProblems('READ_STORE_URL', env.READ_STORE_URL)));
  return { config, problems };
}

const exists = (file: string) =>
  access(file).then(
    () => true,
    () => false,
  );

/**
 * Each secret not set in the environment: its file in DATA_DIR must be readable and well formed (in
 * development too: a damaged file is found before the devnet, not after it), and in production it must
 * be there at all. The loaders read only (generate: false); no message repeats a secret's value.
 */
async function secretProblems(config: Config): Promise<ConfigProblem[]> {
  const secrets: [string, string | undefined, string[], () => Promise<unknown>][] = [
    [
      'EVIDENCE_KEY',
      config.evidenceKeyHex,
      [EVIDENCE_KEY_FILE, LEGACY_EVIDENCE_KEY_FILE],
      () => loadEvidenceKey(undefined, config.dataDir, { generate: false }),
    ],
    [
      'CHECKPOINT_KEY',
      config.checkpointKeyHex,
      [CHECKPOINT_KEY_FILE],
      () => loadCheckpointKey({ checkpointKeyHex: undefined, dataDir: config.dataDir }, { generate: false }),
    ],
    [
      'CLAIM_SECRET',
      config.claimSecretHex,
      [CLAIM_SECRET_FILE],
      () => loadClaimSecret(undefined, config.dataDir, { generate: false }),
    ],
  ];
  const problems: ConfigProblem[] = [];
  for (const [variable, configured, files, load] of secrets) {
    if (configured) continue;
    const present = await Promise.all(files.map((f) => exists(path.join(config.dataDir, f))));
    if (present.some(Boolean)) {
      const failed = await load().then(
        () => undefined,
        (err: Error) => err.message,
      );
      if (failed)
        problems.push({ variable, problem: `is not set, and its file in DATA_DIR cannot be used: ${failed}` });
    } else if (config.production)
      problems.push({
        variable,
        problem:
          `is required in production (64 hex characters; or ${path.join(config.dataDir, files[0]!)}): ` +
          'secrets are never generated in production',
      });
  }
  return problems;
}

/** The public port, the operator's TCP port and the metrics port (unless development may pick another),
 *  one after another: two settings naming one port must not refuse each other's probe. */
async function addressProblems(config: Config): Promise<ConfigProblem[]> {
  const wanted: [string, number, string, string][] = [[config.host, config.port, 'PORT', 'HOST']];
  if (config.operatorListen)
    wanted.push([config.operatorListen.host, config.operatorListen.port, 'OPERATOR_LISTEN', 'OPERATOR_LISTEN']);
  if (config.metricsListen !== 'off' && !config.metricsListenFallback)
    wanted.push([config.metricsListen.host, config.metricsListen.port, 'METRICS_LISTEN', 'METRICS_LISTEN']);
  const problems: ConfigProblem[] = [];
  for (const [host, port, setting, hostSetting] of wanted) {
    const problem = await addressProblem(host, port, setting, hostSetting);
    if (problem) problems.push(problem);
  }
  return problems;
}

/** RFC 2606's example names: .env.example's PUBLIC_BASE_URL left as shipped names nobody's service. */
function examplePlaceholders(config: Config): ConfigProblem[] {
  const host = config.publicBaseUrl ? new URL(config.publicBaseUrl).hostname : undefined;
  if (!host || !/(^|\.)(example\.(com|net|org)|example)$/i.test(host)) return [];
  return [
    { variable: 'PUBLIC_BASE_URL', problem: `names ${host}, an example domain (RFC 2606): set the URL buyers use` },
  ];
}
