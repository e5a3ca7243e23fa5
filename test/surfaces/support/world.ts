// The paid surfaces' tests run in the one test world (test/support/world.ts) on its publishers
// (test/support/publishers.ts); this is their request helper.

export { ARTICLE, BARE, PUB } from '../../support/publishers.js';

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  body: any;
}

export async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await fetch(url, {
    method: 'POST',
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, text, body: parsed };
}
