import test from 'ava';
import { lineDetail } from '../../ops/operator/show.js';

// `ops show` in text mode prints under a sold line what its delivered report adds: a revalidation's
// `changed` and the other AI-use signals (its --json output carries the same fields).

test('a line with neither a revalidation nor signals has no detail line', (t) => {
  t.is(lineDetail({ changed: null, signals_summary: null, signals: null }), '');
});

test('a revalidation line says whether the resource changed', (t) => {
  t.is(lineDetail({ changed: true, signals_summary: null, signals: null }), 'changed: yes');
  t.is(lineDetail({ changed: false, signals_summary: null, signals: null }), 'changed: no');
});

test('the signals summary, with each observation as standard:sha256', (t) => {
  t.is(
    lineDetail({
      changed: false,
      signals_summary: 'RESTRICTED_BY_OTHER_SIGNAL',
      signals: ['tdmrep:ab12', 'aipref:cd34'],
    }),
    'changed: no · other signals: RESTRICTED_BY_OTHER_SIGNAL (tdmrep:ab12, aipref:cd34)',
  );
  t.is(lineDetail({ changed: null, signals_summary: 'NONE_OBSERVED', signals: [] }), 'other signals: NONE_OBSERVED');
});
