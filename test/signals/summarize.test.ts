import test from 'ava';
import type { Classification } from '@rights-preflight/wire/rsl/vocabulary.js';
import type {
  SignalObservation,
  SignalToken,
  SignalVerdict,
} from '@rights-preflight/wire/signals/signal-observation.js';
import { observation } from '../../src/signals/observation.js';
import { previewSignals, signalTokensForPurpose, summarizeSignals } from '../../src/signals/summarize.js';

// The signals summary for an asked purpose, against every RSL classification.

const obs = (standard: SignalObservation['standard'], said: Partial<Record<SignalToken, SignalVerdict>>) =>
  observation(
    { standard, channel: 'header', url: 'https://pub.test/a', sha256: 'x', statement: 's' },
    Object.fromEntries(Object.entries(said).map(([k, v]) => [k, { verdict: v, rule: 'r' }])),
    'not said',
  );

const CLASSIFICATIONS: Classification[] = [
  'PERMITTED_BY_OBSERVED_DECLARATION',
  'LICENSE_REQUIRED',
  'NO_MACHINE_READABLE_DECLARATION',
  'UNKNOWN',
  'CONFLICT',
  'PROHIBITED_BY_OBSERVED_DECLARATION',
];

test('summary table: a reservation restricts unless RSL prohibits; allows alone are consistent; silence: none', (t) => {
  const reservesTrain = [obs('tdmrep', { 'ai-train': 'reserved' })];
  const allowsTrain = [obs('content-signals', { 'ai-train': 'allowed' })];
  const silentOnly = [obs('aipref', {}), obs('noai', { 'ai-train': 'silent' })];
  const otherToken = [obs('aipref', { search: 'reserved' })];
  for (const c of CLASSIFICATIONS) {
    const prohibited = c === 'PROHIBITED_BY_OBSERVED_DECLARATION';
    t.is(summarizeSignals(reservesTrain, ['ai-train'], c), prohibited ? 'CONSISTENT' : 'RESTRICTED_BY_OTHER_SIGNAL', c);
    t.is(summarizeSignals(allowsTrain, ['ai-train'], c), 'CONSISTENT', c);
    t.is(summarizeSignals(silentOnly, ['ai-train'], c), 'NONE_OBSERVED', c);
    t.is(summarizeSignals([], ['ai-train'], c), 'NONE_OBSERVED', c);
    t.is(summarizeSignals(otherToken, ['ai-train'], c), 'NONE_OBSERVED', c);
  }
});

test('summary: one reserved token of several restricts; a refusal anywhere wins over allows elsewhere', (t) => {
  const mixed = [
    obs('content-signals', { 'ai-input': 'allowed', 'ai-index': 'allowed' }),
    obs('aipref', { 'ai-index': 'reserved' }),
  ];
  t.is(
    summarizeSignals(mixed, ['ai-input', 'ai-index'], 'PERMITTED_BY_OBSERVED_DECLARATION'),
    'RESTRICTED_BY_OTHER_SIGNAL',
  );
  t.is(summarizeSignals(mixed, ['ai-input'], 'PERMITTED_BY_OBSERVED_DECLARATION'), 'CONSISTENT');
});

test('preview: the standards that spoke about the purpose, whether any reserves it, and the summary', (t) => {
  const all = [obs('tdmrep', {}), obs('aipref', { 'ai-train': 'reserved' }), obs('noai', { search: 'allowed' })];
  t.deepEqual(previewSignals(all, ['ai-train'], 'NO_MACHINE_READABLE_DECLARATION'), {
    standards: ['aipref'],
    restricts_purpose: true,
    summary: 'RESTRICTED_BY_OTHER_SIGNAL',
  });
  t.deepEqual(previewSignals(all, ['ai-train'], 'PROHIBITED_BY_OBSERVED_DECLARATION'), {
    standards: ['aipref'],
    restricts_purpose: true,
    summary: 'CONSISTENT',
  });
  t.deepEqual(previewSignals([obs('tdmrep', {})], ['ai-train'], 'UNKNOWN'), {
    standards: [],
    restricts_purpose: false,
    summary: 'NONE_OBSERVED',
  });
});

test('purposes map to the tokens whose readings decide: aliases as RSL maps them, crawl to all four', (t) => {
  t.deepEqual(signalTokensForPurpose('training'), ['ai-train']);
  t.deepEqual(signalTokensForPurpose('rag-ingestion'), ['ai-index', 'ai-input']);
  t.deepEqual(signalTokensForPurpose('search'), ['search']);
  t.deepEqual(signalTokensForPurpose('crawl'), ['ai-input', 'ai-index', 'ai-train', 'search']);
});
