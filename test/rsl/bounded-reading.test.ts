import test from 'ava';
import fc from 'fast-check';
import { isRight } from 'fp-ts/lib/Either.js';
import type { SignalObservation } from '@rights-preflight/wire/signals/signal-observation.js';
import { ReportResource } from '@rights-preflight/wire/contract/report.js';
import { CHECKPOINT_VERSION } from '@rights-preflight/wire/contract/checkpoint.js';
import {
  boundedReading,
  capText,
  REPORT_ENTRY_MAX_BYTES,
  SIGNALS_MAX_BYTES,
  TRUNCATION_MARK,
} from '../../src/rsl/bounded-reading.js';
import { ResourceReading } from '../../src/rsl/reading.js';
import { draftSingleReport } from '../../src/products/single-report/single-report.js';
import { summarizeSignals } from '../../src/signals/summarize.js';

// The caps of a reading (src/rsl/bounded-reading.ts; docs/wire.md §16) hold whatever a publisher writes:
// every text at most its cap in JSON bytes (escapes counted), growable lists cut with a count, the signals
// within their budget with every token's first reservation kept, and a report entry drafted from the worst
// reading still within REPORT_ENTRY_MAX_BYTES.

const jsonBytes = (s: string) => Buffer.byteLength(JSON.stringify(s));
const wellFormed = (s: string): boolean => (s as unknown as { isWellFormed(): boolean }).isWellFormed();

const CAP_TEXT =
  'capText: within the cap in JSON bytes, a well-formed prefix with the mark when cut, unchanged when it fits';
test(CAP_TEXT, (t) => {
  fc.assert(
    fc.property(fc.string({ unit: 'binary', maxLength: 3000 }), fc.integer({ min: 16, max: 2048 }), (s, cap) => {
      const out = capText(s, cap);
      if (jsonBytes(s) <= cap) return out === s;
      return (
        jsonBytes(out) <= cap &&
        out.endsWith(TRUNCATION_MARK) &&
        s.startsWith(out.slice(0, -TRUNCATION_MARK.length)) &&
        wellFormed(out) === wellFormed(s.slice(0, out.length - 1))
      );
    }),
  );
  t.pass();
});

// Worst text: control characters are six bytes each in JSON, astral characters four bytes for two units.
const HUGE = `${'\u0001'.repeat(3000)}${'😀'.repeat(3000)}`;
const URL_MAX = `https://pub.example/${'a'.repeat(2000)}`;
const many = <T>(n: number, f: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => f(i));
const reason = (i: number) => ({
  rule: HUGE,
  outcome: HUGE,
  channel: 'robots' as const,
  document_url: URL_MAX,
  document_sha256: 'a'.repeat(64),
  content_url: HUGE,
  content_index: 0,
  license_index: 0,
  detail: `${i} ${HUGE}`,
});
const observation = (i: number): SignalObservation => ({
  standard: (['tdmrep', 'aipref', 'content-signals', 'noai'] as const)[i % 4]!,
  channel: 'robots',
  url: URL_MAX,
  sha256: 'b'.repeat(64),
  statement: HUGE,
  readings: (['ai-input', 'ai-index', 'ai-train', 'search'] as const).map((token, k) => ({
    token,
    verdict: (i + k) % 3 === 0 ? 'reserved' : (i + k) % 3 === 1 ? 'allowed' : 'silent',
    rule: HUGE,
  })),
});
const worst: ResourceReading = {
  version: 'rsl-reading-v1',
  resource: URL_MAX,
  origin: 'https://pub.example',
  user_class: 'commercial',
  geo: null,
  freshness_seconds: 300,
  observed_at: '2026-11-28T00:00:00.000Z',
  declaration_found: true,
  discovery_complete: true,
  observations: many(40, (i) => ({
    channel: i === 0 ? 'resource' : 'robots',
    url: i === 0 ? URL_MAX : `https://pub.example/license-${i}.xml`,
    status: 200,
    sha256: 'c'.repeat(64),
    bytes: 10,
    fetched_at: '2026-11-28T00:00:00.000Z',
    content_type: HUGE,
    cached: false,
    error: { code: 'X', message: HUGE },
    notes: many(100, () => HUGE),
    etag: HUGE,
    last_modified: `"${'e'.repeat(500)}"`,
  })),
  documents: many(40, (i) => ({
    url: `https://pub.example/license-${i}.xml`,
    channel: 'robots',
    sha256: 'd'.repeat(64),
    parsed: true,
    conformant: false,
    max_age_days: null,
    failure: { code: 'Y', message: HUGE },
    problems: many(300, () => ({ severity: 'warning' as const, code: HUGE, message: HUGE })),
  })),
  diagnostics: many(500, () => HUGE),
  purposes: [
    {
      purpose: 'ai-input',
      classification: 'PERMITTED_BY_OBSERVED_DECLARATION',
      decision: 'ALLOW_DECLARED',
      tokens: (['ai-input', 'search'] as const).map((token, k) => ({
        token,
        classification: 'PERMITTED_BY_OBSERVED_DECLARATION' as const,
        decision: 'ALLOW_DECLARED' as const,
        obligations: many(100, () => HUGE),
        reasons: many(100, (i) => reason(k * 100 + i)),
      })),
    },
  ],
  signals: many(200, observation),
};

const WORST =
  'the worst reading is bounded, marked, still a ResourceReading, and its report entry is within the maximum';
test(WORST, (t) => {
  const bounded = boundedReading(worst);
  t.is(bounded.truncated, true);
  t.true(isRight(ResourceReading.decode(bounded)));
  t.true(Buffer.byteLength(JSON.stringify(bounded.signals)) <= SIGNALS_MAX_BYTES);
  t.true(
    bounded.observations.every((o) => o.etag === undefined),
    'a validator over its cap is dropped, not cut',
  );
  t.true(bounded.documents.every((d) => d.problems.length <= 33));
  // What every token of each purpose reads from the signals is what it read from all of them.
  for (const tokens of [['ai-input'], ['ai-train'], ['ai-index', 'ai-input'], ['search']] as const)
    t.is(
      summarizeSignals(bounded.signals!, tokens, 'PERMITTED_BY_OBSERVED_DECLARATION'),
      summarizeSignals(worst.signals!, tokens, 'PERMITTED_BY_OBSERVED_DECLARATION'),
    );
  // A report entry drafted from it, with a checkpoint signed as the money path signs it.
  const q = {
    sku: 'rights.preflight.v1',
    purchase_id: 'f'.repeat(64),
    input_sha256: 'e'.repeat(64),
    input: { resource: URL_MAX, purpose: 'ai-input', tier: 'fresh', user_class: 'commercial' },
    reading: bounded,
  } as unknown as Parameters<typeof draftSingleReport>[0];
  const drafted = draftSingleReport(q, 'k'.repeat(64));
  const checkpoint = {
    algorithm: 'Ed25519' as const,
    format: 'service-evidence-v1' as const,
    payload: { ...drafted.checkpoints[0], evidence_sha256: 'a'.repeat(64), key_id: 'k'.repeat(64) },
    signature: '0'.repeat(128),
  };
  t.is(checkpoint.payload.version, CHECKPOINT_VERSION);
  const [entry] = drafted.report([checkpoint as never]).resources;
  t.true(ReportResource.is(entry));
  t.is((entry as { truncated?: boolean }).truncated, true);
  const size = Buffer.byteLength(JSON.stringify(entry));
  t.log(`report entry ${size} bytes of at most ${REPORT_ENTRY_MAX_BYTES}`);
  t.true(size <= REPORT_ENTRY_MAX_BYTES);
});

test('a reading within every cap comes back as it was, unmarked', (t) => {
  const small: ResourceReading = {
    ...worst,
    resource: 'https://pub.example/a',
    observations: [],
    documents: [],
    diagnostics: ['a note'],
    purposes: [],
    signals: [
      {
        ...observation(0),
        url: 'https://pub.example/robots.txt',
        statement: 'Content-Signal: ai-train=no',
        readings: observation(0).readings.map((r) => ({ ...r, rule: 'short' })),
      },
    ],
  };
  t.is(boundedReading(small), small);
});

test('a record cut after its first fields keeps them, in order, and drops only the long validator', (t) => {
  const o = { ...worst.observations[0]!, content_type: 'text/html', error: null, notes: [], etag: HUGE };
  const bounded = boundedReading({ ...worst, observations: [o], documents: [], diagnostics: [], signals: [] });
  const kept = bounded.observations[0]!;
  t.deepEqual(
    Object.keys(kept),
    Object.keys(o).filter((k) => k !== 'etag'),
  );
  t.deepEqual({ ...kept, url: o.url }, (({ etag: _, ...rest }) => ({ ...rest, url: o.url }))(o));
});
