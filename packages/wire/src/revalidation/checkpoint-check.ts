import { isLeft } from 'fp-ts/lib/Either.js';
import { CheckpointPayload } from '../contract/checkpoint.js';
import { digestOf } from '../evidence/digest.js';
import { SignedEnvelope } from '../evidence/envelope.js';
import { type SignatureCheck, verifyEnvelope } from '../evidence/verify.js';

// Is this a checkpoint we signed, unaltered? Shared by the service (before anything is offered) and the
// buyer library (offline). Pure and browser-safe. Each failure has its own stable code
// (docs/wire.md §14): a key we never published, a signature that does not verify (a field was changed),
// or a signed payload that is not a checkpoint (another of our envelopes, such as a quote).

export interface PublishedKey {
  key_id: string;
  public_key: string;
  /** How the signature is checked: the portable check by default; the service hands in the native one,
   *  as a revalidation checks up to four checkpoints on the event loop (docs/decisions.md). */
  check?: SignatureCheck;
}

export type CheckpointCheck =
  | { ok: true; payload: CheckpointPayload; checkpoint_sha256: string }
  | { ok: false; code: 'CHECKPOINT_MALFORMED' | 'CHECKPOINT_KEY_UNKNOWN' | 'CHECKPOINT_ALTERED'; message: string };

export function checkCheckpoint(envelope: unknown, keys: readonly PublishedKey[]): CheckpointCheck {
  const decoded = SignedEnvelope.decode(envelope);
  if (isLeft(decoded))
    return {
      ok: false,
      code: 'CHECKPOINT_MALFORMED',
      message: 'a checkpoint is an envelope {algorithm, format, payload, signature} as delivered in a report',
    };
  const keyId = decoded.right.payload.key_id;
  const key = keys.find((k) => k.key_id === keyId);
  if (!key)
    return {
      ok: false,
      code: 'CHECKPOINT_KEY_UNKNOWN',
      message: 'the checkpoint names a key this service does not publish (see /v1/capabilities evidence.keys)',
    };
  if (!verifyEnvelope(decoded.right, key.public_key, key.check))
    return {
      ok: false,
      code: 'CHECKPOINT_ALTERED',
      message: "the checkpoint's signature does not verify: it is not as the service signed it",
    };
  const payload = CheckpointPayload.decode(decoded.right.payload);
  if (isLeft(payload))
    return {
      ok: false,
      code: 'CHECKPOINT_MALFORMED',
      message: 'the envelope is signed by the service but is not a checkpoint',
    };
  return { ok: true, payload: payload.right, checkpoint_sha256: digestOf(decoded.right) };
}
