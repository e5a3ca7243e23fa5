import test from 'ava';
import fc from 'fast-check';
import { isRight } from 'fp-ts/lib/Either.js';
import { SignalObservation } from '@rights-preflight/wire/signals/signal-observation.js';
import { SIGNAL_TOKENS, STATEMENT_MAX_CHARS } from '../../src/signals/observation.js';
import { MAX_OBSERVATIONS_PER_STANDARD, readSignals } from '../../src/signals/read-signals.js';
import { fetched, page, RESOURCE, robots, verdicts } from './support.js';

// readSignals over all sources: every standard and channel at once, the bounds, and never throwing.

test('one site with every standard and channel: one observation each, in order, each decoding as the codec', (t) => {
  const obs = readSignals({
    resource: RESOURCE,
    robots: robots('User-agent: *\nContent-Usage: train-ai=n\nContent-Signal: search=yes, ai-train=no'),
    page: page(
      { 'tdm-reservation': '1', 'content-usage': 'search=n', 'x-robots-tag': 'noai' },
      '<meta name="robots" content="noimageai">',
    ),
    tdmrep: fetched('https://pub.test/.well-known/tdmrep.json', '[{"location":"/","tdm-reservation":1}]'),
  });
  t.deepEqual(
    obs.map((o) => `${o.standard}/${o.channel}`),
    [
      'tdmrep/well-known',
      'tdmrep/header',
      'aipref/header',
      'aipref/robots',
      'content-signals/robots',
      'noai/header',
      'noai/meta',
    ],
  );
  for (const o of obs) {
    t.true(isRight(SignalObservation.decode(o)));
    t.deepEqual(
      o.readings.map((r) => r.token),
      [...SIGNAL_TOKENS],
    );
  }
  t.is(verdicts(obs[0])['ai-train'], 'silent', 'the header supersedes the file');
  t.is(verdicts(obs[3])['ai-train'], 'reserved');
});

test('robots.txt that was not read (status 404) and pages that are not HTML give no observation', (t) => {
  t.deepEqual(readSignals({ resource: RESOURCE, robots: robots('Content-Signal: ai-train=no', 404) }), []);
  t.deepEqual(readSignals({ resource: RESOURCE, page: page({}, null) }), []);
  t.deepEqual(readSignals({ resource: RESOURCE }), []);
});

test('bounds: statements cut at 1024 characters; 16 observations per standard (refusals first) and a note', (t) => {
  const long = `train-ai=n, x="${'a'.repeat(5000)}"`;
  const [cut] = readSignals({ resource: RESOURCE, page: page({ 'content-usage': long }) });
  t.is(cut!.statement.length, STATEMENT_MAX_CHARS);
  t.true(cut!.statement.endsWith('…'));
  t.is(verdicts(cut)['ai-train'], 'reserved', 'the whole value is read, only the statement is cut');
  const lines = Array.from({ length: 40 }, (_, i) => `Content-Signal: ${i === 39 ? 'ai-train=no' : `x${i}=no`}`);
  const obs = readSignals({ resource: RESOURCE, robots: robots(`User-agent: *\n${lines.join('\n')}`) });
  t.is(obs.length, MAX_OBSERVATIONS_PER_STANDARD + 1);
  t.true(
    obs.some((o) => o.statement === 'Content-Signal: ai-train=no'),
    'the refusal is kept',
  );
  t.regex(obs.at(-1)!.statement, /^24 more content-signals statements not recorded/);
});

const garbage = fc.oneof(
  fc.string({ maxLength: 200 }),
  fc.constantFrom(
    'train-ai=n',
    '[{"location":"/","tdm-reservation":1}]',
    '<meta name="robots" content="noai">',
    '\u0000',
    '\ud800',
  ),
  fc
    .array(
      fc.constantFrom(
        'User-agent: *',
        'Content-Usage: ',
        'Content-Signal:',
        '/a*$ ',
        'train-ai=',
        'n',
        ',',
        '\n',
        '#',
        '"',
        '(',
        '%',
      ),
      {
        maxLength: 40,
      },
    )
    .map((xs) => xs.join('')),
);

test('readSignals never throws and every observation decodes, on generated garbage in every source', (t) => {
  fc.assert(
    fc.property(garbage, garbage, garbage, garbage, garbage, garbage, (a, b, c, d, e, f) => {
      const obs = readSignals({
        resource: `https://pub.test/${encodeURIComponent(f.slice(0, 20).replace(/[\ud800-\udfff]/g, ''))}`,
        robots: robots(`User-agent: *\nContent-Usage: ${a}\nContent-Signal: ${b}\n${a}`),
        page: page(
          { 'content-usage': b, 'tdm-reservation': c, 'x-robots-tag': d, 'tdm-policy': e },
          `<meta name="tdm-reservation" content="${c}">${e}`,
        ),
        tdmrep: fetched('https://pub.test/.well-known/tdmrep.json', d),
      });
      for (const o of obs) {
        if (!isRight(SignalObservation.decode(o))) return false;
        if (o.readings.length !== SIGNAL_TOKENS.length || o.statement.length > STATEMENT_MAX_CHARS) return false;
        if (o.readings.some((r) => r.rule === '')) return false;
      }
      return true;
    }),
    { numRuns: 300 },
  );
  t.pass();
});

test('a reader that fails on unforeseen input leaves a silent observation that says so', (t) => {
  const obs = readSignals({ resource: 'not a url', robots: robots('User-agent: *\nContent-Usage: /a train-ai=n') });
  t.is(obs.length, 1);
  t.is(obs[0]!.standard, 'aipref');
  t.true(obs[0]!.readings.every((r) => r.verdict === 'silent' && r.rule.startsWith('not read: the reader failed')));
});
