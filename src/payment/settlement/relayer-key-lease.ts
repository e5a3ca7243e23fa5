import { privateKeyToAccount } from 'viem/accounts';
import type { Hex } from 'viem';
import type { Logger } from '../../runtime/log.js';

// Many instances, no shared nonce (docs/decisions.md, "Relayer health and a pool of relayer keys"):
// with RELAYER_PRIVATE_KEYS each instance leases one key of the pool in the store and signs only with
// it, so no two processes ever assign the same relayer account's nonces. The lease is the store's
// (a PostgreSQL session advisory lock, src/store/postgres/advisory-lease.ts): released on exit, and
// by the server the moment a killed process's session ends, so a restarted or new instance takes the
// key over. A lost lease (database connection gone) stops signing until it is taken again.

/** What the store offers: a lease only one process on this database holds at a time. */
export type TryLease = (name: string) => Promise<{ lost: Promise<void>; release(): Promise<void> } | undefined>;

export interface LeasedRelayerKey {
  privateKey: Hex;
  address: Hex;
  /** False from the moment the lease is lost until it is taken again. */
  holds(): boolean;
  release(): Promise<void>;
}

export class RelayerPoolExhausted extends Error {}

export const relayerLeaseName = (address: Hex) => `relayer-key:${address.toLowerCase()}`;

/**
 * Leases the first free key of `pool` (keys as 64 hex characters, with or without 0x), trying again
 * every `retryMs` for up to `waitMs` while every key is held (a rolling restart: the old instance is
 * still exiting). Throws RelayerPoolExhausted after that. `variable` names where the pool came from:
 * RELAYER_PRIVATE_KEYS, or a lone RELAYER_PRIVATE_KEY (a pool of one).
 */
export async function leaseRelayerKey(
  pool: readonly string[],
  tryLease: TryLease,
  opts: {
    log?: Logger;
    retryMs?: number;
    waitMs?: number;
    variable?: 'RELAYER_PRIVATE_KEYS' | 'RELAYER_PRIVATE_KEY';
  } = {},
): Promise<LeasedRelayerKey> {
  const retryMs = opts.retryMs ?? 1_000;
  const deadline = Date.now() + (opts.waitMs ?? 30_000);
  const keys = pool.map((k) => `0x${k.replace(/^0x/, '')}` as Hex);
  for (;;) {
    for (const privateKey of keys) {
      const address = privateKeyToAccount(privateKey).address;
      const lease = await tryLease(relayerLeaseName(address));
      if (lease) return held(privateKey, address, lease, tryLease, retryMs, opts.log);
    }
    if (Date.now() >= deadline)
      throw new RelayerPoolExhausted(
        opts.variable === 'RELAYER_PRIVATE_KEY'
          ? 'RELAYER_PRIVATE_KEY is leased by another instance, and two processes must never sign with one ' +
              'relayer account; give each instance its own key with RELAYER_PRIVATE_KEYS'
          : `every relayer key of the pool (${keys.length}) is leased by another instance; ` +
              'add a key to RELAYER_PRIVATE_KEYS for each instance',
      );
    await new Promise((resolve) => setTimeout(resolve, retryMs));
  }
}

function held(
  privateKey: Hex,
  address: Hex,
  first: { lost: Promise<void>; release(): Promise<void> },
  tryLease: TryLease,
  retryMs: number,
  log?: Logger,
): LeasedRelayerKey {
  let lease: typeof first | undefined = first;
  let released = false;
  let timer: NodeJS.Timeout | undefined;
  const watch = (l: typeof first) => {
    l.lost.then(() => {
      if (released || lease !== l) return;
      lease = undefined;
      log?.error({ relayer: address }, 'relayer key lease lost: not signing until it is taken again');
      retake();
    });
  };
  const retake = () => {
    timer = setTimeout(async () => {
      if (released) return;
      const again = await tryLease(relayerLeaseName(address)).catch(() => undefined);
      if (released) {
        await again?.release();
        return;
      }
      if (!again) return retake();
      lease = again;
      log?.info({ relayer: address }, 'relayer key lease taken again');
      watch(again);
    }, retryMs);
    timer.unref();
  };
  watch(first);
  log?.info({ relayer: address }, 'relayer key leased');
  return {
    privateKey,
    address,
    holds: () => lease !== undefined,
    async release() {
      released = true;
      if (timer) clearTimeout(timer);
      await lease?.release();
      lease = undefined;
    },
  };
}
