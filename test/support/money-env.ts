import { startWorld, type World, type WorldOptions } from './world.js';

// The money-path tests' names for the one test world (./world.ts) and the two requests every one of
// them makes.

import { DECLARED } from './publishers.js';

export { DECLARED, UNDECLARED, publisherSite } from './publishers.js';

export type MoneyWorld = World;

/** The test world with no service started yet: the test starts it (`start()`, or `startProcess()`). */
export const moneyWorld = (o: WorldOptions = {}): Promise<MoneyWorld> =>
  startWorld({ service: false, tmpPrefix: 'rights-money-', ...o });

export async function postQuote(url: string, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  const res = await fetch(`${url}/v1/rights/quote`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}

export async function getReport(url: string, reportUrl: string, headers: Record<string, string>) {
  const res = await fetch(`${url}${reportUrl}`, { headers });
  return {
    status: res.status,
    headers: res.headers,
    text: await res.text(),
    get body() {
      return JSON.parse(this.text) as any;
    },
  };
}

/** A quote (by default: the declared article, ai-input, fresh, 20000 micro at most) and its 402 offer. */
export async function quoteAndOffer(url: string, over: Record<string, unknown> = {}) {
  const q = await postQuote(url, {
    resource: DECLARED,
    purpose: 'ai-input',
    tier: 'fresh',
    max_total_micro: '20000',
    ...over,
  });
  if (q.status !== 200) throw new Error(`the quote answered ${q.status}: ${JSON.stringify(q.body)}`);
  const claim = { 'x-service-claim': q.body.claim_token as string };
  const offer = await getReport(url, q.body.report_url, claim);
  if (offer.status !== 402) throw new Error(`the offer answered ${offer.status}: ${offer.text}`);
  return { q: q.body, claim, offer, paymentRequired: offer.headers.get('payment-required')! };
}
