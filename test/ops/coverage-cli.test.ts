import test from 'ava';
import { runCli } from '../../ops/cli.js';
import { DECLARED } from '../support/money-env.js';
import { useWorld } from '../support/world.js';

// `npm run ops -- coverage …` with no service running: the CLI opens the store itself and decides on the
// ledger there, as the relayed commands do inside a service (test/operator/coverage-instances.test.ts).
// The review fetches the publisher with the service's fetch settings (here the test publishers' CA and
// loopback mapping), and prints what a buyer would get.

const w = useWorld({ service: false });
const PUB = new URL(DECLARED).origin;

async function ops(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(
    argv,
    { out: (l) => out.push(l), err: (l) => err.push(l) },
    { ...w.env, LOG_LEVEL: 'silent' },
  );
  return { code, out: out.join('\n'), err: err.join('\n') };
}

test.serial(
  'review, add, withdraw and history on the store the CLI opens; refusals exit 1 with their code',
  async (t) => {
    const empty = await ops('coverage', 'list');
    t.is(empty.code, 0);
    t.regex(empty.out, /the coverage ledger is empty/);

    const who = ['--operator', 'ana', '--reason', 'the publisher asked'];
    const early = await ops('coverage', 'add', PUB, ...who);
    t.is(early.code, 1);
    t.regex(early.err, /^refused COVERAGE_NOT_REVIEWED/);

    t.is((await ops('coverage', 'review', 'http://pub.example', ...who)).code, 1, 'https only');
    t.is((await ops('coverage', 'review', PUB, '--operator', 'ana')).code, 2, '--reason is required');

    const review = await ops('coverage', 'review', PUB, ...who);
    t.is(review.code, 0, review.err);
    t.regex(review.out, /RSL declaration found: yes/);
    t.regex(review.out, /robots +https:\/\/pub\.example\/robots\.txt +200/);
    t.regex(review.out, /ai-input +\S+/);
    t.regex(review.out, /coverage add https:\/\/pub\.example/);

    t.is((await ops('coverage', 'add', PUB, ...who)).code, 0);
    const listed = JSON.parse((await ops('coverage', 'list', '--json')).out).coverage;
    t.like(listed[0], { origin: PUB, status: 'covered', reviewed_by: 'ana' });
    t.is((await ops('coverage', 'add', PUB, ...who)).code, 1, 'already covered');

    t.is((await ops('coverage', 'withdraw', PUB, '--operator', 'bo', '--reason', 'the publisher left')).code, 0);
    const history = await ops('coverage', 'history', PUB);
    t.is(history.code, 0);
    t.deepEqual(
      history.out.split('\n').map((l) => l.split(/\s+/)[1]),
      ['OriginReviewed', 'OriginAdded', 'OriginWithdrawn'],
    );
    t.regex(history.out, /OriginWithdrawn +https:\/\/pub\.example by bo: the publisher left/);
  },
);
