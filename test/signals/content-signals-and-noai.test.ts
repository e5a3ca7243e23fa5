import test from 'ava';
import { readContentSignalRobots } from '../../src/signals/content-signal-robots.js';
import { noaiDirectives, readNoaiHeader } from '../../src/signals/noai.js';
import { readSignals } from '../../src/signals/read-signals.js';
import { ALL_SILENT, page, RESOURCE, robots, verdicts } from './support.js';

// Content Signals (robots.txt Content-Signal) and the informal noai / noimageai robots directives.

test('Content-Signal: yes allows, no reserves, ai-input=no reserves ai-index, absent signals are silent', (t) => {
  const text = '# policy text\nUser-Agent: *\nContent-Signal: search=yes, ai-input=no, ai-train=no\nAllow: /';
  const [o] = readContentSignalRobots(robots(text));
  t.deepEqual(verdicts(o), {
    'ai-input': 'reserved',
    'ai-index': 'reserved',
    'ai-train': 'reserved',
    search: 'allowed',
  });
  t.is(o!.standard, 'content-signals');
  t.is(o!.channel, 'robots');
  t.is(o!.statement, 'Content-Signal: search=yes, ai-input=no, ai-train=no');
  const [partial] = readContentSignalRobots(robots('User-agent: *\nContent-Signal: ai-input=yes'));
  t.deepEqual(verdicts(partial), {
    'ai-input': 'allowed',
    'ai-index': 'silent',
    'ai-train': 'silent',
    search: 'silent',
  });
  t.regex(partial!.readings[1]!.rule, /no content signal for this use/);
});

test('Content-Signal: global lines count, other agents do not; unknown or malformed signals: silent, why', (t) => {
  const text = 'Content-Signal: ai-train=no\nUser-agent: GPTBot\nContent-Signal: search=no\nUser-agent: *\nDisallow:';
  const obs = readContentSignalRobots(robots(text));
  t.deepEqual(
    obs.map((o) => o.statement),
    ['Content-Signal: ai-train=no'],
  );
  const [bad] = readContentSignalRobots(robots('User-agent: *\nContent-Signal: ai-train=maybe, ai-everything=no'));
  t.deepEqual(verdicts(bad), ALL_SILENT);
  t.regex(bad!.readings[0]!.rule, /ignored: ai-train=maybe, ai-everything=no/);
  const [mixed] = readContentSignalRobots(robots('User-agent: *\nContent-Signal: AI-Train = NO, typo'));
  t.is(verdicts(mixed)['ai-train'], 'reserved');
  t.regex(mixed!.readings[0]!.rule, /ignored: typo/);
});

test('noai directives: found in any comma list, with the user agent an X-Robots-Tag prefix names', (t) => {
  t.deepEqual(noaiDirectives('noindex, NoAI, noimageai'), [
    { directive: 'noai', agent: null },
    { directive: 'noimageai', agent: null },
  ]);
  t.deepEqual(noaiDirectives('googlebot: nofollow, otherbot: noai'), [{ directive: 'noai', agent: 'otherbot' }]);
  t.deepEqual(noaiDirectives('unavailable_after: 25 Jun 2010 15:00:00 PST, noai'), [
    { directive: 'noai', agent: null },
  ]);
  t.deepEqual(noaiDirectives('max-snippet:20, noarchive, noaix, ai'), []);
});

test('noai: X-Robots-Tag and robots meta reserve every AI use, search stays silent; no noai, no observation', (t) => {
  const [header] = readNoaiHeader(page({ 'x-robots-tag': 'ccbot: noai' }));
  t.deepEqual(verdicts(header), {
    'ai-input': 'reserved',
    'ai-index': 'reserved',
    'ai-train': 'reserved',
    search: 'silent',
  });
  t.regex(header!.readings[0]!.rule, /written for "ccbot", read for every agent/);
  t.deepEqual(readNoaiHeader(page({ 'x-robots-tag': 'noindex' })), []);
  const html =
    '<meta name="robots" content="noai, noimageai"><meta name="googlebot" content="noai">' +
    '<meta name="robots" content="index">';
  const obs = readSignals({ resource: RESOURCE, page: page({}, html) });
  t.deepEqual(
    obs.map((o) => [o.standard, o.channel, o.statement]),
    [['noai', 'meta', '<meta name="robots" content="noai, noimageai">']],
    'only the robots meta name is read',
  );
  t.is(verdicts(obs[0]).search, 'silent');
});
