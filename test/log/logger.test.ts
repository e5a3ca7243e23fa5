import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import test from 'ava';
import { createLogger, unredactedChild } from '../../src/runtime/log.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function captured() {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _enc, cb) {
      for (const l of chunk.toString('utf8').split('\n')) if (l) lines.push(JSON.parse(l));
      cb();
    },
  });
  return { lines, log: createLogger('info', sink) };
}

test('the main logger redacts secrets; the access-log child does not redact, and leaves its parent redacting', (t) => {
  const { lines, log } = captured();
  const access = unredactedChild(log);
  access.info({ method: 'GET', path: '/v1/capabilities', status: 200 }, 'request');
  log.info(
    { claim_token: 'c-secret', req: { headers: { 'x-service-claim': 'c-secret', 'payment-signature': 'p-secret' } } },
    'after',
  );
  t.like(lines[0], { method: 'GET', path: '/v1/capabilities', status: 200, msg: 'request' });
  t.false(JSON.stringify(lines[1]).includes('secret'));
  t.is(lines[1]!.claim_token, '[redacted]');
});

test('the default stdout destination writes asynchronously yet loses no line when the process exits at once', (t) => {
  const script = `
    import { createLogger } from './src/runtime/log.ts';
    const log = createLogger('info');
    for (let i = 0; i < 2000; i++) log.info({ i }, 'line');
    process.exit(0);`;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  t.is(r.status, 0, r.stderr);
  const seen = new Set(
    r.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => (JSON.parse(l) as { i: number }).i),
  );
  t.is(seen.size, 2000);
});
