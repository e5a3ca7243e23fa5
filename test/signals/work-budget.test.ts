import test from 'ava';
import type { SignalObservation, SignalToken } from '@rights-preflight/wire/signals/signal-observation.js';
import { DEFAULT_EVALUATION_UNITS, EvaluationBudget } from '../../src/matching/evaluation-budget.js';
import { takeComparisons } from '../../src/matching/wildcard-match.js';
import { readSignals } from '../../src/signals/read-signals.js';
import type { SignalSources } from '../../src/signals/signal-sources.js';
import { MAX_ROBOTS_SIGNAL_RULES, MAX_TDMREP_RULES } from '../../src/signals/signal-work.js';
import { fetched, robots } from './support.js';

// The hostile publisher of the signal readers: thousands of robots.txt rules or tdmrep.json locations with a
// `*` each, against a 2,000-octet path. Each reader stops at the reading's work budget, a count of octets the
// matcher reads (never a time), and what it then says is never more than with the signal absent.

const LONG = `https://pub.test/${'a'.repeat(2000)}`;
const SHORT = 'https://pub.test/a';

/** A budget that also says how much it was charged. */
class CountedBudget extends EvaluationBudget {
  charged = 0;
  override spend(units: number): void {
    this.charged += units;
    super.spend(units);
  }
}

const hostileRobots = (rules: number, usage = 'search=y') =>
  robots(
    `User-agent: *\nAllow: /\nContent-Usage: ${usage}\n` +
      Array.from({ length: rules }, (_, i) => `Disallow: *q${i}`).join('\n'),
  );

const rulesOf = (n: number, last: { location: string; 'tdm-reservation': number }) =>
  JSON.stringify([...Array.from({ length: n }, (_, i) => ({ location: `*z${i}`, 'tdm-reservation': 1 })), last]);
const tdmrep = (text: string) => fetched('https://pub.test/.well-known/tdmrep.json', text);

/** Per token: allowed, reserved or silent, over every observation (a reservation anywhere wins). */
function reading(observations: readonly SignalObservation[]): Record<SignalToken, string> {
  const out: Record<string, string> = {};
  for (const o of observations)
    for (const r of o.readings) {
      const was = out[r.token] ?? 'silent';
      out[r.token] =
        was === 'reserved' || r.verdict === 'reserved' ? 'reserved' : r.verdict === 'allowed' ? 'allowed' : was;
    }
  return out as Record<SignalToken, string>;
}

/** `over` is never more permissive than `absent`: it allows nothing `absent` does not, and keeps every reservation. */
function neverMorePermissive(
  t: import('ava').ExecutionContext,
  over: SignalObservation[],
  absent: SignalObservation[],
) {
  const a = reading(absent);
  const o = reading(over);
  for (const token of ['ai-input', 'ai-index', 'ai-train', 'search'] as const) {
    if (o[token] === 'allowed') t.is(a[token], 'allowed', `${token} allowed only over budget`);
    if (a[token] === 'reserved') t.is(o[token], 'reserved', `${token} reservation lost over budget`);
  }
}

const rulesOfObservation = (o: SignalObservation | undefined) => [
  ...new Set(o?.readings.map((r) => r.rule.split(':')[0])),
];

test('robots.txt Content-Usage: 2,000 `Disallow: *q<n>` vs a 2,000-octet path: over budget, not determinable', (t) => {
  const file = hostileRobots(2000);
  // Within budget (a short path): the file is read, and says search=y.
  const fine = readSignals({ resource: SHORT, robots: file });
  t.is(reading(fine.filter((o) => o.standard === 'aipref')).search, 'allowed');

  for (const units of [DEFAULT_EVALUATION_UNITS, 50_000]) {
    takeComparisons();
    const budget = new CountedBudget(units);
    const over = readSignals({ resource: LONG, robots: file }, budget);
    const read = takeComparisons();
    // Stopped by the count: the matcher read no more than the budget plus the one match that overdrew it.
    t.true(budget.charged > units);
    t.true(read <= units + LONG.length, `the matcher read ${read} octets for a budget of ${units}`);
    const aipref = over.filter((o) => o.standard === 'aipref');
    t.is(aipref.length, 1);
    t.deepEqual(rulesOfObservation(aipref[0]), ['evaluation-budget-exceeded']);
    t.is(aipref[0]!.url, file.url);
    neverMorePermissive(t, over, readSignals({ resource: LONG }));
    // Counted, not timed: the same question gives the same answer.
    t.deepEqual(readSignals({ resource: LONG, robots: file }, new EvaluationBudget(units)), over);
  }
});

test('robots.txt: past MAX_ROBOTS_SIGNAL_RULES rules nothing is matched at all; reading not determinable', (t) => {
  const file = hostileRobots(MAX_ROBOTS_SIGNAL_RULES + 1, 'train-ai=n');
  takeComparisons();
  const budget = new CountedBudget();
  const over = readSignals({ resource: SHORT, robots: file }, budget);
  t.is(takeComparisons(), 0);
  t.is(budget.charged, 0);
  const aipref = over.filter((o) => o.standard === 'aipref');
  t.deepEqual(rulesOfObservation(aipref[0]), ['signal-rules-over-limit']);
  neverMorePermissive(t, over, readSignals({ resource: SHORT }));
});

test('robots.txt without Content-Usage lines costs no matching, however many rules it has', (t) => {
  const file = robots(`User-agent: *\n${Array.from({ length: 5000 }, (_, i) => `Disallow: *q${i}`).join('\n')}`);
  const budget = new CountedBudget();
  takeComparisons();
  t.deepEqual(
    readSignals({ resource: LONG, robots: file }, budget).filter((o) => o.standard === 'aipref'),
    [],
  );
  t.is(takeComparisons(), 0);
  t.is(budget.charged, 0);
});

test('tdmrep.json: 900 `*z<n>` locations vs a 2,000-octet path stop at the budget, read as not determinable', (t) => {
  const file = tdmrep(rulesOf(900, { location: '/', 'tdm-reservation': 0 }));
  // Within budget: no `*z` matches /a, the last rule does, and allows.
  t.is(reading(readSignals({ resource: SHORT, tdmrep: file }))['ai-train'], 'allowed');

  takeComparisons();
  const budget = new CountedBudget();
  const over = readSignals({ resource: LONG, tdmrep: file }, budget);
  t.true(takeComparisons() <= DEFAULT_EVALUATION_UNITS + LONG.length);
  t.true(budget.charged > DEFAULT_EVALUATION_UNITS);
  t.is(over.length, 1);
  t.deepEqual(rulesOfObservation(over[0]), ['evaluation-budget-exceeded']);
  neverMorePermissive(t, over, readSignals({ resource: LONG }));
});

test('tdmrep.json: past MAX_TDMREP_RULES rules a match among the first decides; none there: not determinable', (t) => {
  // The first rule matches: the first match wins whatever follows it.
  const first = JSON.stringify([
    { location: '/', 'tdm-reservation': 1 },
    ...Array.from({ length: MAX_TDMREP_RULES + 5 }, (_, i) => ({ location: `*z${i}`, 'tdm-reservation': 0 })),
  ]);
  t.is(reading(readSignals({ resource: SHORT, tdmrep: tdmrep(first) }))['ai-train'], 'reserved');
  // The matching rule comes after the limit: never "unset", which a later rule might contradict.
  const late = tdmrep(rulesOf(MAX_TDMREP_RULES + 5, { location: '/', 'tdm-reservation': 0 }));
  const budget = new CountedBudget();
  const over = readSignals({ resource: SHORT, tdmrep: late }, budget);
  t.deepEqual(rulesOfObservation(over[0]), ['signal-rules-over-limit']);
  neverMorePermissive(t, over, readSignals({ resource: SHORT }));
  // What was matched is bounded by the limit, not by the file.
  t.true(budget.charged < MAX_TDMREP_RULES * 20);
});

test("a document's patterns are compiled once for every resource asked about, past 4,096 of them", (t) => {
  const file = hostileRobots(6000);
  const sources = (path: string): SignalSources => ({ resource: `https://pub.test/${path}`, robots: file });
  const first = new CountedBudget();
  readSignals(sources('b'), first);
  const second = new CountedBudget();
  readSignals(sources('c'), second);
  const third = new CountedBudget();
  readSignals(sources('d'), third);
  // The first reading compiled 6,000 patterns (each charged its length); the next ones compile none.
  t.true(first.charged - second.charged >= (6000 * 'Disallow'.length) / 2);
  t.is(second.charged, third.charged);
});
