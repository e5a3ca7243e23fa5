import type { ServiceConfig } from '../config/config.js';
import { loadCheckpointKey } from '../crypto/checkpoint-key.js';
import { loadEvidenceKey } from '../evidence/keys.js';
import { loadClaimSecret } from '../money-path/claim.js';

export interface ServiceSecrets {
  evidenceKey: Awaited<ReturnType<typeof loadEvidenceKey>>;
  checkpointKey: Uint8Array;
  claimSecret: Awaited<ReturnType<typeof loadClaimSecret>>;
}

/**
 * Keys and secrets come first: in production (NODE_ENV=production) a missing one is a start-up error
 * naming its variable, never a silently generated key; development generates them into DATA_DIR.
 */
export async function loadSecrets(config: ServiceConfig): Promise<ServiceSecrets> {
  const generate = !config.production;
  const evidenceKey = await loadEvidenceKey(config.evidenceKeyHex, config.dataDir, { generate });
  const checkpointKey = await loadCheckpointKey(config, { generate });
  const claimSecret = await loadClaimSecret(config.claimSecretHex, config.dataDir, { generate });
  return { evidenceKey, checkpointKey, claimSecret };
}
