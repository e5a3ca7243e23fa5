import test from 'ava';
import { coveredDays, type CoverageEvent } from '../../../streams/coverage/index.js';
import { foundDeclaration } from './found-declaration.js';

// What was covered on each day (streams/coverage/covered-days.ts): covered when the day began, or at
// any moment of it; the day's changes listed; a day after a withdrawal no longer counts the origin.

const A = 'https://a.example';
const B = 'https://b.example';
const who = { operator: 'ana', reason: 'asked' };
const events: CoverageEvent[] = [
  { type: 'CoverageSeeded', data: { origins: [A], source: 'COVERED_ORIGINS', at: '2026-11-01T08:00:00.000Z' } },
  {
    type: 'OriginReviewed',
    data: {
      origin: B,
      ...who,
      at: '2026-11-02T09:00:00.000Z',
      observed: foundDeclaration(B, '2026-11-02T09:00:00.000Z'),
    },
  },
  {
    type: 'OriginAdded',
    data: { origin: B, ...who, at: '2026-11-02T10:00:00.000Z', reviewed_at: '2026-11-02T09:00:00.000Z' },
  },
  { type: 'OriginWithdrawn', data: { origin: A, ...who, at: '2026-11-02T23:00:00.000Z' } },
  { type: 'OriginWithdrawn', data: { origin: B, ...who, at: '2026-11-04T12:00:00.000Z' } },
];

test('an origin counts for every day it was covered at some moment', (t) => {
  const days = coveredDays(events, [
    '2026-10-31',
    '2026-11-01',
    '2026-11-02',
    '2026-11-03',
    '2026-11-04',
    '2026-11-05',
  ]);
  t.deepEqual(
    days.map((d) => [d.day, d.origins]),
    [
      ['2026-10-31', []],
      ['2026-11-01', [A]],
      ['2026-11-02', [A, B]],
      ['2026-11-03', [B]],
      ['2026-11-04', [B]],
      ['2026-11-05', []],
    ],
  );
  t.deepEqual(
    days[2]!.changes.map((c) => [c.type, c.origin, c.operator]),
    [
      ['OriginAdded', B, 'ana'],
      ['OriginWithdrawn', A, 'ana'],
    ],
    'a review is not a change of coverage',
  );
  t.deepEqual(
    days[1]!.changes.map((c) => [c.type, c.origin, c.operator]),
    [['CoverageSeeded', A, 'COVERED_ORIGINS']],
  );
});

test('days with gaps between them still see every earlier change', (t) => {
  t.deepEqual(
    coveredDays(events, ['2026-11-03', '2026-11-05']).map((d) => d.origins),
    [[B], []],
  );
});
