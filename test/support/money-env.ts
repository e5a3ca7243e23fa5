import { startWorld, type World, type WorldOptions } from './world.js';

// The money-path tests' names for the one test world (./world.ts) and the two requests every one of
// them makes.

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
