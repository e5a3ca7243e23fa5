// The page's script in test/deploy/cors-browser.test.ts, bundled for the browser by esbuild: the
// buyer core and a viem account, nothing else. It buys one report from the service on another
// origin, verifies the saved report offline, and posts what happened back to its own origin.
import { privateKeyToAccount } from 'viem/accounts';
import { createBuyer, memoryCheckpointStore, verifySavedReport } from '@rights-preflight/buyer';

interface PageConfig {
  serviceUrl: string;
  privateKey: `0x${string}`;
  pins: { network: string; asset: string; recipient: string; evidenceKey: { key_id: string; public_key: string } };
  resource: string;
}

async function run(config: PageConfig): Promise<unknown> {
  // What a plain browser fetch may read across origins: the exposed payment header.
  const quote = (await fetch(`${config.serviceUrl}/v1/rights/quote`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ resource: config.resource, purpose: 'ai-index', tier: 'fresh', max_total_micro: '20000' }),
  }).then((r) => r.json())) as { report_url: string; claim_token: string };
  const offer = await fetch(`${config.serviceUrl}${quote.report_url}`, {
    headers: { 'X-Service-Claim': quote.claim_token },
  });
  const paymentRequiredReadable = (offer.headers.get('PAYMENT-REQUIRED') ?? '').length > 0;

  const buyer = createBuyer({
    baseUrl: config.serviceUrl,
    account: privateKeyToAccount(config.privateKey),
    pins: config.pins,
    maxPerReportMicro: 50_000n,
    maxPerTaskMicro: 100_000n,
    checkpointStore: memoryCheckpointStore(),
  });
  const r = await buyer.buyReport({ resource: config.resource, purpose: 'ai-input', tier: 'fresh' });
  if (r.status !== 'delivered') return { status: r.status, paymentRequiredReadable };
  const verified = verifySavedReport(r.saved, config.pins.evidenceKey.public_key);
  return { status: r.status, paymentRequiredReadable, verified, transaction: r.transaction, origin: location.origin };
}

const config = JSON.parse(document.getElementById('config')!.textContent!) as PageConfig;
run(config).then(
  (result) => fetch('/result', { method: 'POST', body: JSON.stringify({ ok: true, result }) }),
  (err: unknown) =>
    fetch('/result', {
      method: 'POST',
      body: JSON.stringify({ ok: false, error: String((err as Error)?.stack ?? err) }),
    }),
);
