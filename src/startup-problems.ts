import { access } from 'node:fs/promises';
import path from 'node:path';
import { checkConfig, serviceConfigProblems, type Config, type ConfigProblem } from './config.js';
import { CHECKPOINT_KEY_FILE } from './crypto/checkpoint-key.js';
import { EVIDENCE_KEY_FILE, LEGACY_EVIDENCE_KEY_FILE } from './evidence/keys.js';
import { CLAIM_SECRET_FILE } from './money-path/claim.js';

// Everything wrong with a start's configuration, found before anything starts, so one run reports
// every problem and exits with one code (docs/decisions.md, "Configuration errors at once"): each
// variable, the chain settings when no devnet will supply them, and in production each secret that is
// neither set nor present in DATA_DIR (production never generates one).

export async function startupProblems(env: NodeJS.ProcessEnv): Promise<{ config: Config; problems: ConfigProblem[] }> {
  const { config, problems } = checkConfig(env);
  const add = (more: readonly ConfigProblem[]) => {
    for (const p of more) if (!problems.some((q) => q.variable === p.variable)) problems.push(p);
  };
  if (config.devnet === 'off') add(serviceConfigProblems(config));
  if (config.production) add(await missingSecrets(config));
  return { config, problems };
}

const exists = (file: string) =>
  access(file).then(
    () => true,
    () => false,
  );

async function missingSecrets(config: Config): Promise<ConfigProblem[]> {
  const secrets: [string, string | undefined, string[]][] = [
    ['EVIDENCE_KEY', config.evidenceKeyHex, [EVIDENCE_KEY_FILE, LEGACY_EVIDENCE_KEY_FILE]],
    ['CHECKPOINT_KEY', config.checkpointKeyHex, [CHECKPOINT_KEY_FILE]],
    ['CLAIM_SECRET', config.claimSecretHex, [CLAIM_SECRET_FILE]],
  ];
  const problems: ConfigProblem[] = [];
  for (const [variable, configured, files] of secrets) {
    if (configured) continue;
    const present = await Promise.all(files.map((f) => exists(path.join(config.dataDir, f))));
    if (!present.some(Boolean))
      problems.push({
        variable,
        problem:
          `is required in production (64 hex characters; or ${path.join(config.dataDir, files[0]!)}): ` +
          'secrets are never generated in production',
      });
  }
  return problems;
}
