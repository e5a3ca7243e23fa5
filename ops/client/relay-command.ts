import { isLeft } from 'fp-ts/lib/Either.js';
import { createInterface } from 'node:readline';
import { CliLine, OPERATOR_API } from '../../src/operator/contract.js';
import { operatorRequest, type OperatorListener } from './operator-listener.js';

// Runs one CLI command inside the running service (POST /operator/v1/cli): the same command code on
// the service's open store, its lines streamed back as NDJSON and printed as they come, so output and
// exit code are those of a local run, and a long export never waits whole in memory.

const CANNOT_RUN = 2;

export async function relayCommand(
  listener: OperatorListener,
  argv: readonly string[],
  io: { out: (l: string) => void; err: (l: string) => void },
): Promise<number> {
  const res = await operatorRequest(listener, {
    method: 'POST',
    path: `${OPERATOR_API}/cli`,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ argv }),
  });
  if (res.statusCode !== 200) {
    let text = '';
    for await (const chunk of res) text += String(chunk);
    io.err(`the operator listener refused the command (HTTP ${res.statusCode}): ${text.slice(0, 500)}`);
    return CANNOT_RUN;
  }
  for await (const line of createInterface({ input: res, crlfDelay: Infinity })) {
    if (line === '') continue;
    const decoded = CliLine.decode(JSON.parse(line));
    if (isLeft(decoded)) throw new Error('the operator listener sent a line that is not a CLI line');
    const l = decoded.right;
    if ('out' in l) io.out(l.out);
    else if ('err' in l) io.err(l.err);
    else return l.exit;
  }
  io.err('the service closed the connection before the command finished');
  return CANNOT_RUN;
}
