import { checkpointAad, type SealedBox } from '@rights-preflight/wire/crypto/aes-gcm.js';
import { openNode, sealNode } from './aes-gcm-node.js';
import { LEGACY_CHECKPOINT_AAD, sealedBoxOfCompact } from './seal.js';

// The money path's sealer for `AuthorizationCheckpointed.sealed_payment`: AES-256-GCM (aes-gcm-node.ts,
// the sealed form of aes-gcm.ts) bound to one purchase by AAD = checkpointAad(purchaseId), so a sealed
// authorization copied into another purchase's stream does not open. Streams written by the first
// money-path version hold the legacy compact "v1.<iv>.<tag>.<ct>" string under its one fixed AAD; those
// still open (never written).

export interface CheckpointSealer {
  seal(plaintext: string, purchaseId: string): Promise<SealedBox>;
  unseal(sealed: SealedBox | string, purchaseId: string): Promise<string>;
}

const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder('utf-8', { fatal: true });

export function checkpointSealer(key32: Uint8Array): CheckpointSealer {
  const key = new Uint8Array(key32);
  return {
    // Async in the port's shape (a sealer may live elsewhere); the work itself is synchronous.
    seal: async (plaintext, purchaseId) =>
      sealNode(key, utf8.encode(plaintext), utf8.encode(checkpointAad(purchaseId))),
    unseal: async (sealed, purchaseId) =>
      fromUtf8.decode(
        typeof sealed === 'string'
          ? openNode(key, sealedBoxOfCompact(sealed), utf8.encode(LEGACY_CHECKPOINT_AAD))
          : openNode(key, sealed, utf8.encode(checkpointAad(purchaseId))),
      ),
  };
}
