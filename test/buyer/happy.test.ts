import test from 'ava';
import { BuyerRefused } from '@rights-preflight/buyer';
import { DEMO_RESOURCES } from '../../src/devnet/demo-site.js';
import { demoWorld, useWorld } from '../support/world.js';
import { buyerFor } from './support/buyer-world.js';

const w = useWorld(demoWorld({ logLevel: 'debug' }));

test.serial(
  'buyReport: quote → checked offer → bound payment → verified report; exactly the price moves once',
  async (t) => {
    const b = buyerFor(w, { buyerIndex: 0 });
    const before = await w.devnet.balanceOf(b.address);
    const payToBefore = await w.devnet.balanceOf(w.devnet.payTo);
    const r = await b.buyer.buyReport({ resource: DEMO_RESOURCES.permitted, purpose: 'ai-input', tier: 'fresh' });
    if (r.status !== 'delivered') return t.fail(JSON.stringify(r));
    t.is(r.classifications[0]!.classification, 'PERMITTED_BY_OBSERVED_DECLARATION');
    t.is(r.amount_micro, '20000');
    t.false(r.resumed);
    t.is(r.payer.toLowerCase(), b.address.toLowerCase());
    t.is(await w.devnet.balanceOf(b.address), before - 20_000n);
    t.is(await w.devnet.balanceOf(w.devnet.payTo), payToBefore + 20_000n);
    const transfers = await w.devnet.transfers(b.address, w.devnet.payTo);
    t.is(transfers.length, 1);
    t.is(transfers[0]!.transaction as string, r.transaction);
    // The checkpoint was saved (encrypted) before sending and removed after the verified delivery.
    t.deepEqual(
      b.calls.map((c) => c.op),
      ['save', 'remove'],
    );
    t.is(b.boxes.size, 0);
    const steps = b.events.map((e) => e.step);
    t.true(steps.indexOf('checkpoint.saved') < steps.indexOf('send'));
    t.is(b.buyer.spentMicro, 20_000n);
    // Nothing secret in the buyer's own log events: no claim, no signature, no header.
    const logged = JSON.stringify(b.events);
    t.false(logged.includes(b.calls[0]!.header!.slice(0, 40)));
    t.false(/claim|signature|"key"/i.test(Object.keys(Object.assign({}, ...b.events)).join(',')));
  },
);

test.serial(
  'prohibited and license-required declarations are bought and verified; no declaration is available:false and free',
  async (t) => {
    const b = buyerFor(w, { buyerIndex: 1 });
    const before = await w.devnet.balanceOf(b.address);
    const p = await b.buyer.buyReport({ resource: DEMO_RESOURCES.prohibited, purpose: 'ai-input', tier: 'fresh' });
    const l = await b.buyer.buyReport({ resource: DEMO_RESOURCES.licenseRequired, purpose: 'ai-input', tier: 'deep' });
    const u = await b.buyer.buyReport({ resource: DEMO_RESOURCES.undeclared, purpose: 'ai-input', tier: 'fresh' });
    t.is(p.status === 'delivered' && p.classifications[0]!.classification, 'PROHIBITED_BY_OBSERVED_DECLARATION');
    t.is(l.status === 'delivered' && l.classifications[0]!.classification, 'LICENSE_REQUIRED');
    t.is(l.status === 'delivered' && l.amount_micro, '50000');
    t.deepEqual(u, {
      status: 'unavailable',
      reason: 'NO_VERIFIABLE_DECLARATION',
      resource: DEMO_RESOURCES.undeclared,
      charge_micro: '0',
      // The quote's free preview of the other AI-use signals (docs/wire.md §15): the demo's bare page states none.
      signals_preview: { standards: [], restricts_purpose: false, summary: 'NONE_OBSERVED' },
    });
    t.is(await w.devnet.balanceOf(b.address), before - 70_000n);
    t.is((await w.devnet.transfers(b.address, w.devnet.payTo)).length, 2);
  },
);

test.serial("preflight: the buyer's own X-Service-Request key binds the nonce; the paid report verifies", async (t) => {
  const b = buyerFor(w, { buyerIndex: 2 });
  const before = await w.devnet.balanceOf(b.address);
  const r = await b.buyer.preflight({
    resource: 'https://open.demo.example/articles/weather',
    purpose: 'ai-train',
    tier: 'fresh',
  });
  if (r.status !== 'delivered') return t.fail(JSON.stringify(r));
  t.is(r.classifications[0]!.classification, 'PROHIBITED_BY_OBSERVED_DECLARATION');
  t.is(r.saved.binding.key_source, 'x-service-request');
  t.is(await w.devnet.balanceOf(b.address), before - 20_000n);
  const u = await b.buyer.preflight({ resource: DEMO_RESOURCES.undeclared, purpose: 'ai-input', tier: 'fresh' });
  t.is(u.status, 'unavailable');
});

test.serial(
  'the task budget is a running total per buyer: a purchase that would exceed it is refused before signing',
  async (t) => {
    const b = buyerFor(w, { buyerIndex: 3, maxPerTaskMicro: 30_000n });
    const before = await w.devnet.balanceOf(b.address);
    const first = await b.buyer.buyReport({
      resource: 'https://open.demo.example/articles/oceans',
      purpose: 'ai-input',
      tier: 'fresh',
    });
    t.is(first.status, 'delivered');
    const err = await t.throwsAsync(
      b.buyer.buyReport({ resource: 'https://open.demo.example/articles/forests', purpose: 'ai-input', tier: 'fresh' }),
      { instanceOf: BuyerRefused },
    );
    t.is(err?.code, 'TASK_BUDGET_EXHAUSTED');
    t.is(await w.devnet.balanceOf(b.address), before - 20_000n);
    t.is(b.calls.filter((c) => c.op === 'save').length, 1);
  },
);

test.serial('a pinned evidence key the service does not sign with is refused before signing', async (t) => {
  const b = buyerFor(w, { buyerIndex: 3 });
  const { createBuyer, memoryCheckpointStore } = await import('@rights-preflight/buyer');
  const { privateKeyToAccount } = await import('viem/accounts');
  const store = memoryCheckpointStore();
  const other = createBuyer({
    baseUrl: w.url,
    account: privateKeyToAccount(w.devnet.buyers[3]!.privateKey),
    pins: { network: w.devnet.network, asset: w.devnet.usdc, recipient: w.devnet.payTo, evidenceKey: 'ab'.repeat(32) },
    maxPerReportMicro: 50_000n,
    maxPerTaskMicro: 50_000n,
    checkpointStore: store,
  });
  const before = await w.devnet.balanceOf(b.address);
  const err = await t.throwsAsync(
    other.buyReport({ resource: 'https://open.demo.example/articles/rivers', purpose: 'ai-input', tier: 'fresh' }),
    { instanceOf: BuyerRefused },
  );
  t.is(err?.code, 'EVIDENCE_KEY_MISMATCH');
  t.is(store.boxes.size, 0);
  t.is(await w.devnet.balanceOf(b.address), before);
});
