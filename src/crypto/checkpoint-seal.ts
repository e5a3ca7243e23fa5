import { checkpointAad, openText, sealText, type SealedBox } from '../../packages/buyer/src/wire/crypto/aes-gcm.js';
import { LEGACY_CHECKPOINT_AAD, sealedBoxOfCompact } from './seal.js';

// The money path's sealer for `AuthorizationCheckpointed.sealed_payment`: AES-256-GCM (aes-gcm.ts)
// bound to one purchase by AAD = checkpointAad(purchaseId), so a sealed authorization copied into
// another purchase's stream does not open. Streams written by the first money-path version hold the
// legacy compact "v1.<iv>.<tag>.<ct>" string under its one fixed AAD; those still open (never written).

export interface CheckpointSealer {
  seal(plaintext: string, purchaseId: string): Promise<SealedBox>;
  unseal(sealed: SealedBox | string, purchaseId: string): Promise<string>;
}

export function checkpointSealer(key32: Uint8Array): CheckpointSealer {
  return {
    seal: (plaintext, purchaseId) => sealText(key32, plaintext, checkpointAad(purchaseId)),
    unseal: (sealed, purchaseId) =>
      typeof sealed === 'string'
        ? openText(key32, sealedBoxOfCompact(sealed), LEGACY_CHECKPOINT_AAD)
        : openText(key32, sealed, checkpointAad(purchaseId)),
  };
}
