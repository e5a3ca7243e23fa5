import { privateKeyToAccount } from 'viem/accounts';
import {
  createBuyer,
  memoryCheckpointStore,
  type BuyerCheckpoint,
  type BuyerLogEvent,
  type CheckpointStore,
} from '@rights-preflight/buyer';
import type { DemoWorld } from '../../../ops/demo/world.js';

/** A checkpoint store that records every call, around the real encrypted in-memory store. */
export function recordingStore() {
  const inner = memoryCheckpointStore();
  const calls: { op: 'save' | 'remove'; id: string; header?: string }[] = [];
  const store: CheckpointStore = {
    async save(cp: BuyerCheckpoint) {
      calls.push({ op: 'save', id: cp.purchase_id, header: cp.payment_signature });
      await inner.save(cp);
    },
    load: (id) => inner.load(id),
    async remove(id) {
      calls.push({ op: 'remove', id });
      await inner.remove(id);
    },
    ids: () => inner.ids(),
  };
  return { store, calls, boxes: inner.boxes };
}

export function buyerFor(
  w: DemoWorld,
  o: {
    baseUrl?: string;
    publicUrl?: string;
    buyerIndex?: number;
    maxPerReportMicro?: bigint;
    maxPerTaskMicro?: bigint;
    store?: CheckpointStore;
  } = {},
) {
  const events: BuyerLogEvent[] = [];
  const rec = recordingStore();
  const buyer = createBuyer({
    baseUrl: o.baseUrl ?? w.url,
    ...(o.publicUrl ? { publicUrl: o.publicUrl } : {}),
    account: privateKeyToAccount(w.devnet.buyers[o.buyerIndex ?? 0]!.privateKey),
    pins: {
      network: w.devnet.network,
      asset: w.devnet.usdc,
      recipient: w.devnet.payTo,
      evidenceKey: w.service.evidenceKey,
    },
    maxPerReportMicro: o.maxPerReportMicro ?? 50_000n,
    maxPerTaskMicro: o.maxPerTaskMicro ?? 1_000_000n,
    checkpointStore: o.store ?? rec.store,
    log: (e) => events.push(e),
    resume: { attempts: 5, delayMs: 100 },
  });
  return {
    buyer,
    events,
    ...rec,
    address: privateKeyToAccount(w.devnet.buyers[o.buyerIndex ?? 0]!.privateKey).address,
  };
}
