import http from 'node:http';

// A request to the operator listener's 0600 Unix socket (docs/decisions.md, "Operator tooling"): the tests that
// drive the operator API over its socket share this one client, so they read answers the same way.

/** An operator answer: the status and the body, parsed when it is JSON, the text otherwise (console pages). */
export interface OperatorAnswer {
  status: number;
  body: any;
}

/** One JSON object as parsed; anything else (a page, CSV, NDJSON lines) as the text it is. */
function parsed(text: string): unknown {
  if (!text.startsWith('{')) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Sends one request to the operator socket at `socketPath`, a JSON body when one is given. */
export function onOperatorSocket(
  socketPath: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<OperatorAnswer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { socketPath, method, path, headers: body === undefined ? {} : { 'content-type': 'application/json' } },
      (res) => {
        let text = '';
        res
          .setEncoding('utf8')
          .on('data', (c: string) => {
            text += c;
          })
          .on('end', () => resolve({ status: res.statusCode!, body: parsed(text) }));
      },
    );
    req.once('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}
