import type Router from '@koa/router';
import { PassThrough } from 'node:stream';
import { readJsonBody } from '../../http/json-body.js';
import type { ReplayStreamLine } from '../contract.js';
import { replayReadModels } from '../replay.js';
import type { OperatorDeps } from '../operator-deps.js';
import { attachedSession } from '../session.js';

// POST /replay: `npm run ops -- replay` beside the running service, answered as NDJSON so the CLI can
// count a long rebuild on a terminal (ops/progress.ts): a `progress` line first (position 0 of the head)
// and after each page committed, then one `result` line (what the replay use-case answers) or one
// `failed` line. GET /replay stays the read models' status (reads.ts).

export function replayRunRoutes(router: Router, deps: OperatorDeps): void {
  const session = attachedSession(deps);
  router.post('/replay', async (ctx) => {
    // No body is asked for; one sent is still held to the plain-JSON rules every operator POST keeps.
    await readJsonBody(ctx, { allowEmpty: true });
    const out = new PassThrough();
    const line = (l: ReplayStreamLine) => out.write(`${JSON.stringify(l)}\n`);
    ctx.type = 'application/x-ndjson';
    ctx.body = out;
    replayReadModels(session, (p) => line({ progress: { position: p.position.toString(), head: p.head.toString() } }))
      .then((result) => line({ result }))
      .catch((err: Error) => {
        deps.log.error({ err: { message: err?.message } }, 'operator replay failed');
        line({ failed: err?.message ?? String(err) });
      })
      .finally(() => out.end());
  });
}
