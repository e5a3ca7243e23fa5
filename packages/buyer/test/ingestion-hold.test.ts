import test from 'ava';
import { describeSignals, ingestionHold, signalsOfReport } from '../src/index.js';

// The buyer's hold on the signals beside RSL (docs/wire.md §15), pure: a report entry whose signals_summary is
// RESTRICTED_BY_OTHER_SIGNAL holds ingestion unless holding is turned off; anything else never holds,
// and a report delivered before the signals beside RSL were read (no summary) is shown as such.

const reserved = {
  standard: 'tdmrep' as const,
  channel: 'well-known' as const,
  url: 'https://pub.example/.well-known/tdmrep.json',
  sha256: 'a'.repeat(64),
  statement: '{"location":"/*","tdm-reservation":1}',
  readings: [
    { token: 'ai-input' as const, verdict: 'reserved' as const, rule: 'tdm-reservation 1' },
    { token: 'ai-train' as const, verdict: 'reserved' as const, rule: 'tdm-reservation 1' },
  ],
};
const entries = [
  { resource: 'https://pub.example/a', signals: [reserved], signals_summary: 'RESTRICTED_BY_OTHER_SIGNAL' as const },
  { resource: 'https://pub.example/b', signals: [], signals_summary: 'NONE_OBSERVED' as const },
  { resource: 'https://pub.example/c' },
];

test('RESTRICTED_BY_OTHER_SIGNAL holds by default and names the standards; off never holds', (t) => {
  const signals = signalsOfReport(entries);
  t.deepEqual(ingestionHold(signals, true), {
    reason: 'RESTRICTED_BY_OTHER_SIGNAL',
    resources: [{ resource: 'https://pub.example/a', standards: ['tdmrep'] }],
  });
  t.is(ingestionHold(signals, false), null);
  t.is(ingestionHold(signals.slice(1), true), null, 'NONE_OBSERVED and a report before signals were read never hold');
});

test("verify's lines show each observation's reading of the purpose's tokens only", (t) => {
  const lines = describeSignals('ai-train', signalsOfReport(entries));
  t.is(lines[0], 'https://pub.example/a: signals beside RSL RESTRICTED_BY_OTHER_SIGNAL');
  t.regex(lines[1]!, /^ {2}tdmrep well-known https:\/\/pub\.example\/\.well-known\/tdmrep\.json sha256 a{64}: /);
  t.regex(lines[1]!, /ai-train reserved \(tdm-reservation 1\)$/);
  t.notRegex(lines[1]!, /ai-input/);
  t.is(lines[2], 'https://pub.example/b: signals beside RSL NONE_OBSERVED');
  t.is(lines[3], 'https://pub.example/c: signals beside RSL not recorded (delivered before the service read them)');
});
