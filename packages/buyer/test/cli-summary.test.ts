import test from 'ava';
import { deliveredSummary } from '../src/cli-summary.js';

// The summary the CLI prints (as JSON with --json) after a paid command, from a delivered result.

test("revalidate's summary shows, per resource, whether it changed and from what", (t) => {
  const resources = [
    {
      resource: 'https://pub.example/a',
      classification: 'PROHIBITED',
      previous_classification: 'PERMITTED',
      changed: true,
    },
    {
      resource: 'https://pub.example/b',
      classification: 'PERMITTED',
      previous_classification: 'PERMITTED',
      changed: false,
    },
  ];
  const delivered = {
    status: 'delivered',
    purchase_id: 'ab'.repeat(32),
    response: { report: { resources } },
    classifications: resources.map(({ resource, classification }) => ({ resource, classification, decision: 'x' })),
    ingestion_hold: null,
    transaction: `0x${'1'.repeat(64)}`,
    amount_micro: '20000',
  } as unknown as Parameters<typeof deliveredSummary>[0];
  const summary = deliveredSummary(delivered, 'r.json');
  t.deepEqual(summary.changed, [
    {
      resource: 'https://pub.example/a',
      changed: true,
      previous_classification: 'PERMITTED',
      classification: 'PROHIBITED',
    },
    {
      resource: 'https://pub.example/b',
      changed: false,
      previous_classification: 'PERMITTED',
      classification: 'PERMITTED',
    },
  ]);
  // A report that is no revalidation has nothing to say about changes.
  const single = {
    ...delivered,
    response: { report: { resources: [{ resource: 'x', classification: 'PERMITTED' }] } },
  };
  t.false('changed' in deliveredSummary(single as typeof delivered, 'r.json'));
});
