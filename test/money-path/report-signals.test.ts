import test from 'ava';
import { draftGateReport } from '../../src/products/ingestion-gate/report.js';
import { draftSingleReport } from '../../src/products/single-report/single-report.js';
import { GATE_SKU } from '@rights-preflight/wire/contract/ingestion-gate.js';
import { SINGLE_REPORT_SKU } from '@rights-preflight/wire/contract/common.js';

// What every SKU's drafter makes of a stored reading's signals (docs/wire.md §15), pure: the report entry's `signals`
// are the reading's, its `signals_summary` is the evidence's, and a reading stored before the signals beside RSL were
// read (no `signals`) drafts no signal field at all ("not looked at" is not "none observed").

const reserves = (token: string) => ({
  standard: 'aipref',
  channel: 'header',
  url: 'https://pub.example/a',
  sha256: 'b'.repeat(64),
  statement: 'content-usage: x',
  readings: ['ai-input', 'ai-index', 'ai-train', 'search'].map((t) => ({
    token: t,
    verdict: t === token ? 'reserved' : 'silent',
    rule: t === token ? 'refused' : 'not covered',
  })),
});

const reading = (resource: string, purpose: string, signals?: unknown[]) => ({
  resource,
  geo: null,
  observed_at: '2026-11-27T08:00:00.000Z',
  declaration_found: true,
  purposes: [{ purpose, classification: 'PERMITTED_BY_OBSERVED_DECLARATION', decision: 'ALLOW_DECLARED', tokens: [] }],
  ...(signals ? { signals } : {}),
});

const single = (stored: unknown) =>
  draftSingleReport(
    {
      sku: SINGLE_REPORT_SKU,
      purchase_id: 'a'.repeat(64),
      input_sha256: 'c'.repeat(64),
      input: {
        sku: SINGLE_REPORT_SKU,
        resource: 'https://pub.example/a',
        purpose: 'ai-train',
        tier: 'fresh',
        user_class: 'commercial',
      },
      reading: stored,
    } as never,
    'key-1',
  );

test('a single report entry carries the reading’s signals, and its summary is the evidence’s', (t) => {
  const d = single(reading('https://pub.example/a', 'ai-train', [reserves('ai-train')]));
  const entry = d.report([]).resources[0]!;
  t.deepEqual(entry.signals, [reserves('ai-train')] as never);
  t.is(typeof entry.signals_summary, 'string');
  t.is((d.evidence.resources[0] as { signals_summary?: string }).signals_summary, entry.signals_summary);
});

test('a reading stored before signals were read drafts no signal field in the report or the evidence', (t) => {
  const d = single(reading('https://pub.example/a', 'ai-train'));
  const entry = d.report([]).resources[0]!;
  t.false('signals' in entry);
  t.false('signals_summary' in entry);
  t.false('signals_summary' in d.evidence.resources[0]!);
});

// The readers' summary over a gate alias: rag-ingestion reads ai-index and ai-input.
test('a gate alias reads all its tokens: an ai-input reservation restricts rag-ingestion, an ai-train one not', (t) => {
  const gate = (signals: unknown[]) =>
    draftGateReport(
      {
        sku: GATE_SKU,
        purchase_id: 'a'.repeat(64),
        input_sha256: 'c'.repeat(64),
        input: { purpose: 'rag-ingestion', tier: 'fresh', user_class: 'commercial', geo: null, freshness_seconds: 300 },
        reading: {
          version: 'rsl-gate-readings-v1',
          readings: [reading('https://pub.example/a', 'rag-ingestion', signals)],
        },
      } as never,
      'key-1',
    ).report([]).resources[0]!.signals_summary;
  t.is(gate([reserves('ai-input')]), 'RESTRICTED_BY_OTHER_SIGNAL');
  t.is(gate([reserves('ai-train')]), 'NONE_OBSERVED');
});
