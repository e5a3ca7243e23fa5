import crypto, { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { syncBuiltinESMExports } from 'node:module';
import test from 'ava';
import { redeemReport, type PaidOnlyAt } from '../../src/money-path/redeem-report.js';
import type { ResumeDeps } from '../../src/money-path/resume.js';
import { Refusal } from '@rights-preflight/wire/refusal.js';
import { openStore } from '../../src/store/open/open.js';
import type { EventStore } from '../../src/store/port.js';
import type { EventStoreWithProjections } from '../../src/store/store-with-projections.js';
import { purchaseIdOfStream } from '../../streams/purchase/purchase-id.js';
import { purchaseHistories } from '../bench/support/purchase-histories.js';
import { SINGLE_REPORT_SKU } from '@rights-preflight/wire/contract/common.js';
import { claimTokenFor } from '../../src/money-path/claim.js';
import { freshEmbeddedDir } from '../store/fixtures/store-under-test.js';

const HISTORIES_CLAIM_SECRET = new Uint8Array(32).fill(0x3a); // test/bench/support/purchase-histories.ts

// The wrong-claim 404 does the same work whatever the purchase's state (docs/decisions.md
// "Constant-work 404"): an unknown, a quoted, an offered and a delivered purchase asked for with a
// wrong claim take the same steps — the same store reads, with the same arguments but the stream, and
// exactly one constant-time comparison (node:crypto's timingSafeEqual, counted through the builtin's
// live ESM bindings). Purchases are real streams (the benchmark histories, built by the deciders) in a
// real embedded store.

let dir: string;
let store: EventStoreWithProjections;
const ids: Record<'unknown' | 'quoted' | 'offered' | 'delivered', string> = {
  unknown: randomBytes(32).toString('hex'),
  quoted: '',
  offered: '',
  delivered: '',
};

test.before(async () => {
  dir = await freshEmbeddedDir();
  store = await openStore(`file:${dir}`);
  for (const h of purchaseHistories(40, { seed: 22 })) {
    const id = purchaseIdOfStream(h.stream);
    // Single reports (the quote flow's claim is the HMAC of the id under the histories' secret).
    if (!id || (h.events[0]!.data as { sku: string }).sku !== SINGLE_REPORT_SKU) continue;
    if (h.path === 'abandoned' && !ids.quoted) {
      ids.quoted = id;
      await store.append(h.stream, h.events, 'no_stream');
    } else if (h.path === 'delivered' && !ids.offered) {
      ids.offered = id;
      await store.append(h.stream, h.events.slice(0, 2), 'no_stream'); // Quoted, Offered: not paid yet
    } else if (h.path === 'delivered' && !ids.delivered) {
      ids.delivered = id;
      await store.append(h.stream, h.events, 'no_stream');
    }
  }
});
test.after.always(async () => {
  await store?.close();
  await rm(dir, { recursive: true, force: true });
});

type Step = string;

/** The store, every call of it recorded as a step (method and arguments, the stream name's id masked). */
function countingStore(inner: EventStore, steps: Step[]): EventStore {
  return new Proxy(inner, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        steps.push(`store.${String(prop)}(${args.map((a) => String(a).replace(/[0-9a-f]{64}/, '<id>')).join(', ')})`);
        return value.apply(target, args);
      };
    },
  });
}

async function stepsOf(id: string, claim: string | undefined): Promise<Step[]> {
  const steps: Step[] = [];
  const original = crypto.timingSafeEqual;
  crypto.timingSafeEqual = (a, b) => {
    steps.push(`timingSafeEqual(${a.byteLength}, ${b.byteLength})`);
    return original(a, b);
  };
  syncBuiltinESMExports();
  try {
    const deps = { store: countingStore(store, steps), paidOnlyAt: () => undefined } as unknown as ResumeDeps & {
      paidOnlyAt: PaidOnlyAt;
    };
    const outcome = await redeemReport(deps, { id, claim, paymentSignature: undefined }).then(
      (r) => `answered ${r.redemption.kind}`,
      (e: unknown) => (e instanceof Refusal ? `refused ${e.code}` : `failed ${String(e)}`),
    );
    steps.push(outcome);
  } finally {
    crypto.timingSafeEqual = original;
    syncBuiltinESMExports();
  }
  return steps;
}

test.serial('unknown, quoted, offered and delivered purchases take the same steps to a wrong-claim 404', async (t) => {
  t.truthy(ids.quoted && ids.offered && ids.delivered, 'the histories hold one purchase of each state');
  const statuses = await Promise.all(
    [ids.quoted, ids.offered, ids.delivered].map(async (id) => (await store.readStream(`purchase-${id}`)).length),
  );
  t.deepEqual(statuses, [1, 2, 5], 'quoted, offered and delivered streams as named');
  const expected = [
    'store.readFirstField(purchase-<id>, claim_sha256)',
    'timingSafeEqual(32, 32)',
    'refused REPORT_NOT_FOUND',
  ];
  for (const claim of [randomBytes(32).toString('hex'), undefined, 'x'.repeat(300)]) {
    for (const [state, id] of Object.entries(ids)) {
      t.deepEqual(await stepsOf(id, claim), expected, `${state}, claim ${claim?.slice(0, 8)}`);
    }
  }
});

test.serial('the claim holder is the only one whose request reads and folds the stream', async (t) => {
  const steps = await stepsOf(ids.delivered, claimTokenFor(HISTORIES_CLAIM_SECRET, ids.delivered));
  t.deepEqual(steps, [
    'store.readFirstField(purchase-<id>, claim_sha256)',
    'timingSafeEqual(32, 32)',
    'store.readStream(purchase-<id>)',
    'answered delivered',
  ]);
});
