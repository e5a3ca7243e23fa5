import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { sha256Hex } from '@rights-preflight/wire/evidence/digest.js';
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { Sha256Hex } from '@rights-preflight/wire/contract/primitives.js';

// The claim token of the quote flow (spec §5.2). It is derived, not random-and-stored:
// claim = HMAC-SHA256(server claim secret, "service-claim-v1\0" + purchase_id). The purchase id already
// contains 256 random bits (the quote's report id) unless the buyer chose an Idempotency-Key, so the
// claim is unguessable without the server secret, only sha256(claim) is written to the stream, and an
// Idempotency-Key retry can hand back the very same claim without the service ever storing it.

const CLAIM_DOMAIN = 'service-claim-v1\0';

export const claimTokenFor = (secret: Uint8Array, purchaseId: string): string =>
  createHmac('sha256', secret)
    .update(CLAIM_DOMAIN + purchaseId)
    .digest('hex');

export const claimSha256 = (claim: string): string => sha256Hex(claim);

/**
 * Constant-time comparison of sha256(presented claim) with the stored digest; false on any malformed
 * input, and when nothing is stored (no purchase, or one that accepts no claim).
 */
export function claimMatches(presented: string | undefined, storedSha256: string | null | undefined): boolean {
  if (typeof storedSha256 !== 'string') return false;
  if (typeof presented !== 'string' || presented.length === 0 || presented.length > 256) return false;
  const a = Buffer.from(claimSha256(presented), 'hex');
  const b = Buffer.from(storedSha256, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

// What a presented claim is compared with when the store holds no digest (no such purchase): random per
// process, so no claim matches it, and the comparison is the same one as for a purchase that exists.
const NO_STORED_CLAIM = randomBytes(32);

/**
 * The report URL's claim check, the same work whatever the purchase's state (docs/decisions.md,
 * "Constant-work 404"): sha256 of what was presented (of '' when nothing usable was) and one
 * constant-time comparison of equal-length digests, against the stored digest or NO_STORED_CLAIM.
 */
export function claimDigestMatches(presented: string | undefined, stored: unknown): boolean {
  const usable = typeof presented === 'string' && presented.length > 0 && presented.length <= 256;
  const digest = createHash('sha256')
    .update(usable ? presented : '', 'utf8')
    .digest();
  const known = typeof stored === 'string' && Sha256Hex.is(stored);
  const equal = timingSafeEqual(digest, known ? Buffer.from(stored, 'hex') : NO_STORED_CLAIM);
  return equal && known && usable;
}

export const CLAIM_SECRET_FILE = 'claim-secret.hex';

/**
 * CLAIM_SECRET from configuration, else `<dataDir>/claim-secret.hex`, generated (0600) on first start
 * unless `generate: false` (production), where a missing secret is a start-up error naming CLAIM_SECRET.
 */
export async function loadClaimSecret(
  configured: string | undefined,
  dataDir: string,
  opts: { generate?: boolean } = {},
): Promise<Uint8Array> {
  if (configured) return Buffer.from(configured, 'hex');
  const file = path.join(dataDir, CLAIM_SECRET_FILE);
  try {
    const hex = (await readFile(file, 'utf8')).trim();
    if (Sha256Hex.is(hex)) return Buffer.from(hex, 'hex');
    throw new Error(`${file} does not hold 64 hex characters`);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  if (opts.generate === false)
    throw new Error(
      `no CLAIM_SECRET: set CLAIM_SECRET (64 hex characters) or provide ${file}; ` +
        'secrets are never generated in production',
    );
  await mkdir(dataDir, { recursive: true });
  const secret = randomBytes(32);
  await writeFile(file, secret.toString('hex') + '\n', { mode: 0o600, flag: 'wx' }).catch(async (err) => {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err; // another process won: use its secret
  });
  return Buffer.from((await readFile(file, 'utf8')).trim(), 'hex');
}
