import { crashAtFromEnv } from '../../../src/runtime/crash-points.js';
import { createSelfSettlement } from '../../../src/payment/settlement/self.js';

// Child process for the crash-after-submit test: reads {rpcUrl, relayerPrivateKey, asset, payload,
// requirements} from stdin, settles once with the `self` backend (crash point from the environment: TEST_CRASH_AT),
// and prints only the outcome's kind and transaction hash.
const chunks: Buffer[] = [];
for await (const c of process.stdin) chunks.push(c as Buffer);
const job = JSON.parse(Buffer.concat(chunks).toString('utf8'));
const crashAt = crashAtFromEnv();
const settlement = createSelfSettlement({
  rpcUrl: job.rpcUrl,
  relayerPrivateKey: job.relayerPrivateKey,
  network: 'eip155:8453',
  asset: job.asset,
  ...(crashAt ? { afterSubmit: () => crashAt('after-submit') } : {}),
});
const outcome = await settlement.settle(job.payload, job.requirements);
process.stdout.write(
  `${JSON.stringify({ kind: outcome.kind, transaction: 'transaction' in outcome ? outcome.transaction : null })}\n`,
);
