import { openText, sealText, type SealedBox } from '@rights-preflight/wire/crypto/aes-gcm.js';
import type { ExpectedSettlement } from './verify-report.js';

// The buyer's checkpoint: the exact signed PAYMENT-SIGNATURE header (plus what is needed to resend
// it), persisted ENCRYPTED before the payment leaves the process, so an ambiguous outcome is resumed
// with the same authorization and never re-signed. Stores only ever hold sealed boxes; the AAD binds a
// box to its purchase id, so a box copied under another id does not open.

export interface BuyerCheckpoint {
  version: 'buyer-checkpoint-v1';
  flow: 'quote' | 'preflight' | 'gate' | 'revalidate';
  purchase_id: string;
  /** Base URL of the service the payment was made for. */
  base_url: string;
  /** Quote flow: the report URL path; preflight and gate: their endpoint path. */
  path: string;
  /** The binding key: claim token (quote) or X-Service-Request value (preflight). Secret. */
  key: string;
  /** Preflight and gate: the exact request body to resend. */
  body?: Record<string, unknown>;
  /** The signed PAYMENT-SIGNATURE header value. Secret. */
  payment_signature: string;
  /** What the buyer expects the settlement to be (for verification after a resume). */
  expected: ExpectedSettlement & { resource: string; input_sha256: string };
  /** The offer receipt envelope the service signed (kept for offline verification). */
  offer_receipt: unknown;
  created_at: string;
}

/** Persistence of sealed boxes. `put` must be durable when it resolves. */
export interface SealedBoxStore {
  put(id: string, box: SealedBox): Promise<void>;
  get(id: string): Promise<SealedBox | undefined>;
  delete(id: string): Promise<void>;
  list(): Promise<string[]>;
}

export interface CheckpointStore {
  save(cp: BuyerCheckpoint): Promise<void>;
  load(purchaseId: string): Promise<BuyerCheckpoint | undefined>;
  remove(purchaseId: string): Promise<void>;
  ids(): Promise<string[]>;
}

export const buyerCheckpointAad = (purchaseId: string): string => `buyer-checkpoint-v1:${purchaseId}`;

/** A CheckpointStore that seals every checkpoint with AES-256-GCM under `key32` before handing it to `boxes`. */
export function encryptedCheckpointStore(key32: Uint8Array, boxes: SealedBoxStore): CheckpointStore {
  if (key32.length !== 32) throw new RangeError('the checkpoint key is 32 bytes');
  const key = new Uint8Array(key32);
  return {
    async save(cp) {
      await boxes.put(cp.purchase_id, await sealText(key, JSON.stringify(cp), buyerCheckpointAad(cp.purchase_id)));
    },
    async load(id) {
      const box = await boxes.get(id);
      if (!box) return undefined;
      return JSON.parse(await openText(key, box, buyerCheckpointAad(id))) as BuyerCheckpoint;
    },
    remove: (id) => boxes.delete(id),
    ids: () => boxes.list(),
  };
}

/** Sealed boxes in memory (browsers, tests). Still encrypted: a heap dump shows ciphertext only. */
export function memoryBoxStore(): SealedBoxStore & { boxes: Map<string, SealedBox> } {
  const boxes = new Map<string, SealedBox>();
  return {
    boxes,
    async put(id, box) {
      boxes.set(id, { ...box });
    },
    async get(id) {
      const b = boxes.get(id);
      return b ? { ...b } : undefined;
    },
    async delete(id) {
      boxes.delete(id);
    },
    async list() {
      return [...boxes.keys()];
    },
  };
}

/** In-memory encrypted checkpoint store; without a key a random one is drawn (lives as long as the page). */
export function memoryCheckpointStore(key32?: Uint8Array): CheckpointStore & { boxes: Map<string, SealedBox> } {
  const boxes = memoryBoxStore();
  const key = key32 ?? globalThis.crypto.getRandomValues(new Uint8Array(32));
  return { ...encryptedCheckpointStore(key, boxes), boxes: boxes.boxes };
}
