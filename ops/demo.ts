import { privateKeyToAccount } from 'viem/accounts';
import { formatUnits } from 'viem';
import { createBuyer, memoryCheckpointStore, type BuyerLogEvent, type BuyResult } from '@rights-preflight/buyer';
import { DEMO_RESOURCES, startDemoWorld } from './demo/world.js';
import { terminalProgress } from './progress.js';

// `npm run demo`: the whole purchase as a customer lives it, on a fresh local world. Starts the devnet,
// four RSL publishers over real HTTPS on loopback and the service; then a buyer (pinned network, asset,
// recipient and evidence key; per-report and per-task caps) buys a report for each, then one
// ingestion-gate report for all four, printing every step, the verified classifications and the
// on-chain transfers. Exits 0 when everything came out as expected. DEVNET_BLOCK_MS=2000 runs it on a
// devnet that mines like Base, and each purchase then shows how long its payment took to settle. On a
// terminal, each long step shows itself and its seconds so far while it runs (ops/progress.ts).

const usdc = (micro: bigint | string) => `${formatUnits(BigInt(micro), 6)} USDC`;
const progress = terminalProgress();
const say = (line = '') => {
  progress.interrupt();
  process.stdout.write(`${line}\n`);
};
const TASK_CAP = 300_000n;

async function main(): Promise<number> {
  say('Rights Preflight Service — demo');
  say('starting devnet, HTTPS publishers and the service …');
  const blockText = process.env.DEVNET_BLOCK_MS || undefined;
  const blockMs = blockText === undefined ? undefined : Number(blockText);
  if (blockMs !== undefined && !(Number.isInteger(blockMs) && blockMs > 0)) {
    say('DEVNET_BLOCK_MS must be a positive integer of milliseconds');
    return 2;
  }
  const w = await progress.during(
    'starting the devnet, the HTTPS publishers and the service',
    startDemoWorld(blockMs !== undefined ? { blockMs } : {}),
  );
  try {
    // biome-ignore lint/suspicious/noExplicitAny: the demo prints a few fields of the live capabilities document
    const caps = (await (await fetch(`${w.url}/v1/capabilities`)).json()) as any;
    const evidenceKey = caps.evidence.keys[0] as { key_id: string; public_key: string };
    say(`service     ${w.url}`);
    say(`devnet      ${w.devnet.rpcUrl} (${w.devnet.network}), USDC ${w.devnet.usdc}`);
    say(`recipient   ${w.devnet.payTo}`);
    say(`blocks      ${blockMs !== undefined ? `every ${blockMs} ms (DEVNET_BLOCK_MS)` : 'one per transaction'}`);
    say(`evidence    Ed25519 key ${evidenceKey.key_id}`);
    say(`publishers  ${w.origins.origins.join(', ')}`);

    const buyerKey = w.devnet.buyers[0]!;
    const account = privateKeyToAccount(buyerKey.privateKey);
    const buyer = createBuyer({
      baseUrl: w.url,
      account,
      pins: { network: w.devnet.network, asset: w.devnet.usdc, recipient: w.devnet.payTo, evidenceKey },
      maxPerReportMicro: 150_000n,
      maxPerTaskMicro: TASK_CAP,
      checkpointStore: memoryCheckpointStore(),
      log: (e: BuyerLogEvent) => {
        const { step, ...rest } = e;
        const fields = Object.entries(rest)
          .filter(([, v]) => v !== undefined)
          .map(([k, v]) => `${k}=${String(v).length > 20 && k === 'purchase_id' ? `${String(v).slice(0, 12)}…` : v}`);
        say(`    · ${step.padEnd(16)} ${fields.join(' ')}`);
      },
    });
    say(`buyer       ${account.address}  balance ${usdc(await w.devnet.balanceOf(account.address))}`);

    const cases: { label: string; resource: string; expect: string }[] = [
      { label: 'permitted', resource: DEMO_RESOURCES.permitted, expect: 'PERMITTED_BY_OBSERVED_DECLARATION' },
      { label: 'prohibited', resource: DEMO_RESOURCES.prohibited, expect: 'PROHIBITED_BY_OBSERVED_DECLARATION' },
      { label: 'license required', resource: DEMO_RESOURCES.licenseRequired, expect: 'LICENSE_REQUIRED' },
      { label: 'no declaration', resource: DEMO_RESOURCES.undeclared, expect: 'unavailable' },
    ];
    let failures = 0;
    const results: { label: string; result: BuyResult }[] = [];
    // The four single reports and the gate's one: how many are done, on the progress line.
    const purchasesDone = () => ({ unit: 'purchases', done: results.length, total: cases.length + 1 });
    for (const c of cases) {
      say();
      say(`▶ ${c.label}: ${c.resource} (purpose ai-input, tier fresh)`);
      const before = await w.devnet.balanceOf(account.address);
      const started = performance.now();
      const result = await progress.during(
        `buying the ${c.label} report`,
        buyer.buyReport({ resource: c.resource, purpose: 'ai-input', tier: 'fresh' }),
        purchasesDone,
      );
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      results.push({ label: c.label, result });
      const after = await w.devnet.balanceOf(account.address);
      if (result.status === 'delivered') {
        const r = result.classifications[0]!;
        say(`  ✔ verified report: ${r.classification} (${r.decision})`);
        say(`    transfer ${result.transaction}: ${usdc(result.amount_micro)} ${result.payer} → ${w.devnet.payTo}`);
        say(`    buyer balance ${usdc(before)} → ${usdc(after)}; quote to verified report in ${seconds} s`);
        if (r.classification !== c.expect || before - after !== BigInt(result.amount_micro)) failures++;
      } else if (result.status === 'unavailable') {
        say(
          `  ✔ available:false (${result.reason}), charged ${result.charge_micro}; ` +
            `buyer balance unchanged: ${before === after}`,
        );
        if (c.expect !== 'unavailable' || before !== after) failures++;
      } else {
        say(`  ✘ held: ${result.reason}`);
        failures++;
      }
    }

    // The ingestion gate: the same four URLs in one paid request (sign-in proof + payment intent first).
    say();
    const gateResources = cases.map((c) => c.resource);
    say(`▶ ingestion gate: ${gateResources.length} resources in one request (purpose rag-ingestion, tier fresh)`);
    const before = await w.devnet.balanceOf(account.address);
    const gate = await progress.during(
      'buying the ingestion-gate report',
      buyer.ingestionGate({ resources: gateResources, purpose: 'rag-ingestion' }),
      purchasesDone,
    );
    const after = await w.devnet.balanceOf(account.address);
    let gateDelivered = 0;
    if (gate.status === 'delivered') {
      gateDelivered = 1;
      for (const r of gate.classifications) say(`  ✔ ${r.resource}: ${r.classification}`);
      say(`    transfer ${gate.transaction}: ${usdc(gate.amount_micro)} ${gate.payer} → ${w.devnet.payTo}`);
      say(`    buyer balance ${usdc(before)} → ${usdc(after)}`);
      const expected = cases.map((c) => (c.expect === 'unavailable' ? 'NO_MACHINE_READABLE_DECLARATION' : c.expect));
      if (
        JSON.stringify(gate.classifications.map((r) => r.classification)) !== JSON.stringify(expected) ||
        before - after !== BigInt(gate.amount_micro)
      )
        failures++;
    } else {
      say(`  ✘ ${gate.status}: ${'reason' in gate ? gate.reason : ''}`);
      failures++;
    }

    say();
    say('On-chain transfers buyer → recipient:');
    const transfers = await w.devnet.transfers(account.address, w.devnet.payTo);
    for (const t of transfers) say(`  block ${t.blockNumber}  ${t.transaction}  ${usdc(t.value)}`);
    say(`buyer balance     ${usdc(await w.devnet.balanceOf(account.address))}`);
    say(`recipient balance ${usdc(await w.devnet.balanceOf(w.devnet.payTo))}`);
    say(`spent this task   ${usdc(buyer.spentMicro)} (cap ${usdc(TASK_CAP)})`);
    const delivered = results.filter((r) => r.result.status === 'delivered').length + gateDelivered;
    if (transfers.length !== delivered) failures++;
    say();
    say(
      failures === 0
        ? `demo OK: ${results.length} classifications, one ingestion-gate report, ${transfers.length} transfers`
        : `demo FAILED: ${failures} unexpected outcome(s)`,
    );
    return failures === 0 ? 0 : 1;
  } finally {
    await w.close();
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    process.stderr.write(`demo failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 1;
  },
);
