import { PassThrough } from 'node:stream';
import type Koa from 'koa';
import { runAttached } from '../../ops/cli.js';
import type { OperatorContext } from '../../ops/operator/context.js';
import type { CliLine, CliRequest } from './contract.js';

// POST /operator/v1/cli: one `npm run ops` command line run here, on the service's open store and
// read models (OperatorContext.attached), its lines streamed back as NDJSON (contract.ts CliLine) as
// the command prints them and its exit code last. The CLI prints them as they come
// (ops/client/relay-command.ts): a local run and a relayed one share every line of command code.

export function relayCli(ctx: Koa.Context, request: CliRequest, base: Omit<OperatorContext, 'out' | 'err'>): void {
  const body = new PassThrough();
  const send = (line: CliLine) => {
    body.write(`${JSON.stringify(line)}\n`);
  };
  ctx.status = 200;
  ctx.type = 'application/x-ndjson';
  ctx.body = body;
  void runAttached(request.argv, { ...base, out: (out) => send({ out }), err: (err) => send({ err }) })
    .catch(() => 2)
    .then((exit) => {
      send({ exit });
      body.end();
    });
}
