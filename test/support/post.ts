// The one POST of the HTTP tests: the answer's status, headers, text and, when it is JSON, its body.

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  body: any;
}

/** POSTs `text` as it is, as JSON (a test's hostile bodies too); no body when undefined. */
export async function postText(url: string, text: string | undefined, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method: 'POST',
    headers: text === undefined ? headers : { 'content-type': 'application/json', ...headers },
    ...(text === undefined ? {} : { body: text }),
  });
  const answer = await res.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(answer);
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, text: answer, body: parsed } as Answer;
}

/** POSTs `body` as JSON; no body when undefined. */
export const post = (url: string, body: unknown, headers: Record<string, string> = {}): Promise<Answer> =>
  postText(url, body === undefined ? undefined : JSON.stringify(body), headers);
