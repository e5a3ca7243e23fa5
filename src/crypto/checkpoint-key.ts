import { loadOrCreateSecret } from '../secrets/secret-file.js';

// The AES-256-GCM key sealing payment authorizations at rest: CHECKPOINT_KEY (64 hex), else
// `<dataDir>/checkpoint-key.hex` (mode 0600, generated on first start in development). The same file
// name the first money-path version used, so existing development checkpoints still open.

export const CHECKPOINT_KEY_FILE = 'checkpoint-key.hex';

export async function loadCheckpointKey(
  config: { checkpointKeyHex: string | undefined; dataDir: string },
  opts: { generate?: boolean } = {},
): Promise<Uint8Array> {
  const secret = await loadOrCreateSecret(config.checkpointKeyHex, config.dataDir, CHECKPOINT_KEY_FILE, {
    ...opts,
    variable: 'CHECKPOINT_KEY',
  });
  return new Uint8Array(secret);
}
