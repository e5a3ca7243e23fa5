import test from 'ava';
import {
  coverageDecider,
  coveredOrigins,
  CoverageRefused,
  foldCoverage,
  REVIEW_VALID_DAYS,
  type CoverageCommandBody,
  type CoverageEvent,
  type CoverageState,
} from '../../../streams/coverage/index.js';
import { foundDeclaration } from './found-declaration.js';

// The coverage ledger's decider (streams/coverage/decide.ts): an origin is covered only on a recent
// review, a withdrawal ends it, COVERED_ORIGINS seeds a ledger that was never written, and every refusal
// has its code.

const T0 = new Date('2026-11-20T10:00:00.000Z');
const PUB = 'https://pub.example';
const who = { origin: PUB, operator: 'ana', reason: 'the publisher asked' };
const observed = foundDeclaration(PUB, T0.toISOString());

function run(events: CoverageEvent[], body: CoverageCommandBody, now = T0): CoverageEvent[] {
  return coverageDecider.decide({ ...body, metadata: { now } }, foldCoverage(events));
}
const state = (events: CoverageEvent[]): CoverageState => foldCoverage(events);
const refusal = (f: () => unknown): string => (t_throws(f) as CoverageRefused).code;
function t_throws(f: () => unknown): unknown {
  try {
    f();
  } catch (err) {
    if (err instanceof CoverageRefused) return err;
    throw err;
  }
  throw new Error('no refusal');
}

const review = (now = T0) => run([], { type: 'ReviewOrigin', data: { ...who, observed } }, now);

test('review → add covers; withdraw ends it; the events say who, when and why', (t) => {
  const reviewed = review();
  t.deepEqual(coveredOrigins(state(reviewed)), [], 'a review alone covers nothing');
  const added = run(reviewed, { type: 'AddOrigin', data: who }, new Date(T0.getTime() + 60_000));
  t.deepEqual(added, [
    {
      type: 'OriginAdded',
      data: { ...who, at: '2026-11-20T10:01:00.000Z', reviewed_at: T0.toISOString() },
    },
  ]);
  const covered = [...reviewed, ...added];
  t.deepEqual(coveredOrigins(state(covered)), [PUB]);
  const withdrawn = run(covered, { type: 'WithdrawOrigin', data: { ...who, reason: 'the publisher left' } });
  t.is(withdrawn[0]!.type, 'OriginWithdrawn');
  t.deepEqual(coveredOrigins(state([...covered, ...withdrawn])), []);
});

test('an add needs a review since the last withdrawal, no older than the limit', (t) => {
  t.is(
    refusal(() => run([], { type: 'AddOrigin', data: who })),
    'COVERAGE_NOT_REVIEWED',
  );
  const stale = new Date(T0.getTime() + (REVIEW_VALID_DAYS * 86_400 + 1) * 1000);
  t.is(
    refusal(() => run(review(), { type: 'AddOrigin', data: who }, stale)),
    'COVERAGE_REVIEW_STALE',
  );
  const covered = [...review(), ...run(review(), { type: 'AddOrigin', data: who })];
  t.is(
    refusal(() => run(covered, { type: 'AddOrigin', data: who })),
    'COVERAGE_ALREADY_COVERED',
  );
  const withdrawn = [...covered, ...run(covered, { type: 'WithdrawOrigin', data: who })];
  t.is(
    refusal(() => run(withdrawn, { type: 'AddOrigin', data: who })),
    'COVERAGE_NOT_REVIEWED',
    'the review before the withdrawal does not bring it back',
  );
  const again = [...withdrawn, ...run(withdrawn, { type: 'ReviewOrigin', data: { ...who, observed } })];
  t.is(run(again, { type: 'AddOrigin', data: who })[0]!.type, 'OriginAdded');
});

test('a re-review of a covered origin keeps it covered', (t) => {
  const covered = [...review(), ...run(review(), { type: 'AddOrigin', data: who })];
  const reReviewed = [...covered, ...run(covered, { type: 'ReviewOrigin', data: { ...who, observed } })];
  t.deepEqual(coveredOrigins(state(reReviewed)), [PUB]);
});

test('withdrawing an origin that is not covered is refused', (t) => {
  t.is(
    refusal(() => run([], { type: 'WithdrawOrigin', data: who })),
    'COVERAGE_NOT_COVERED',
  );
  t.is(
    refusal(() => run(review(), { type: 'WithdrawOrigin', data: who })),
    'COVERAGE_NOT_COVERED',
  );
});

test('origins are exact https origins; operator and reason are required', (t) => {
  for (const origin of ['http://pub.example', 'https://pub.example/path', 'https://pub.example:8443', 'pub.example'])
    t.is(
      refusal(() => run([], { type: 'ReviewOrigin', data: { ...who, origin, observed } })),
      'COVERAGE_ORIGIN_INVALID',
      origin,
    );
  t.is(
    (run([], { type: 'ReviewOrigin', data: { ...who, origin: `${PUB}/`, observed } })[0]!.data as { origin: string })
      .origin,
    PUB,
  );
  t.is(
    refusal(() => run([], { type: 'ReviewOrigin', data: { ...who, operator: ' ', observed } })),
    'COVERAGE_INVALID_EVENT',
  );
  t.is(
    refusal(() => run(review(), { type: 'AddOrigin', data: { ...who, reason: '' } })),
    'COVERAGE_INVALID_EVENT',
  );
});

test('COVERED_ORIGINS seeds a ledger never written, once; an empty seed writes nothing', (t) => {
  const seed = {
    type: 'SeedCoverage',
    data: { origins: [PUB, `${PUB}/`, 'https://b.example'], source: 'COVERED_ORIGINS' },
  } as const;
  const seeded = run([], seed);
  t.deepEqual(seeded, [
    {
      type: 'CoverageSeeded',
      data: { origins: [PUB, 'https://b.example'], source: 'COVERED_ORIGINS', at: T0.toISOString() },
    },
  ]);
  t.deepEqual(coveredOrigins(state(seeded)), [PUB, 'https://b.example']);
  t.deepEqual(run(seeded, seed), [], 'never again');
  t.deepEqual(run([], { type: 'SeedCoverage', data: { origins: [], source: 'COVERED_ORIGINS' } }), []);
  // A ledger whose every origin was withdrawn is still the truth: the environment does not refill it.
  const emptied = [...seeded, ...run(seeded, { type: 'WithdrawOrigin', data: who })];
  t.deepEqual(run(emptied, seed), []);
  t.deepEqual(coveredOrigins(state(emptied)), ['https://b.example']);
});
