import { createHash } from 'node:crypto';
import test from 'ava';
import { parseDictionary } from '../../src/signals/aipref-field.js';
import { parsePreferences, verdictsOfPreferences } from '../../src/signals/aipref-vocabulary.js';
import { readContentUsageHeader } from '../../src/signals/content-usage-header.js';
import { readContentUsageRobots } from '../../src/signals/content-usage-robots.js';
import { ALL_SILENT, page, RESOURCE, robots, verdicts } from './support.js';

// IETF AI preferences: the RFC 9651 Dictionary parser, the vocabulary mapping (draft-ietf-aipref-vocab-07),
// the Content-Usage field and robots.txt rule (draft-ietf-aipref-attach-05).

const tokensOf = (s: string) => {
  const d = parseDictionary(s);
  if (!d.ok) return d.reason;
  return Object.fromEntries([...d.members].map(([k, v]) => [k, v.kind === 'token' ? v.value : v.kind]));
};

test('RFC 9651 dictionaries parse: tokens, every bare item type, parameters, inner lists, OWS', (t) => {
  t.deepEqual(tokensOf('train-ai=n, search=y'), { 'train-ai': 'n', search: 'y' });
  t.deepEqual(tokensOf('  a=1,b=-2.5 ,\tc="x\\"y", d=:aGk=:, e=?0, f=@1700000000, g=%"caf%c3%a9", h'), {
    a: 'integer',
    b: 'decimal',
    c: 'string',
    d: 'bytes',
    e: 'boolean',
    f: 'date',
    g: 'display-string',
    h: 'boolean',
  });
  t.deepEqual(tokensOf('a=(1 "b" c);p=1, b=tok;q;r=?1, *x=*y'), { a: 'inner-list', b: 'tok', '*x': '*y' });
  t.deepEqual(tokensOf(''), {});
  t.deepEqual(tokensOf('a=y, a=n'), { a: 'n' }, 'the last value of a repeated key wins');
});

test('RFC 9651 dictionaries fail where §4.2 fails', (t) => {
  for (const bad of [
    'Train-ai=n',
    'train-ai=n,',
    'train-ai=n;',
    'a=1.',
    'a=1.2345',
    'a=1234567890123456',
    'a="unterminated',
    'a="bad\\escape"',
    'a=?2',
    'a=:abc',
    'a=(1 2',
    'a=%"CAF%C3"',
    'a=%"%ff"',
    'a=n b=y',
    'a=é',
    '1a=y',
    'a==y',
    'a=n,,b=y',
  ]) {
    const d = parseDictionary(bad);
    t.false(d.ok, bad);
  }
});

test('vocabulary: train-ai=n reserves ai-train, search=y/n allow/reserve search, train-ai=y permits nothing', (t) => {
  const v = (s: string) => {
    const p = parsePreferences(s);
    if (!p.ok) throw new Error(p.reason);
    return Object.fromEntries(Object.entries(verdictsOfPreferences(p.preferences)).map(([k, r]) => [k, r!.verdict]));
  };
  t.deepEqual(v('train-ai=n'), { 'ai-train': 'reserved' });
  t.deepEqual(v('train-ai=y, search=n'), { 'ai-train': 'silent', search: 'reserved' });
  t.deepEqual(v('search=y'), { search: 'allowed' });
  t.deepEqual(v('train-ai="n", search=?1'), {}, 'values that are not tokens are unknown');
  t.deepEqual(v('train-ai=no, search=N'), {}, 'tokens other than y and n are unknown');
  t.deepEqual(v('train-ai;allow=n, train-ai=y'), { 'ai-train': 'silent' }, 'parameters are ignored');
  t.deepEqual(v('future-use=n, ai-uses=n'), {}, 'labels no draft defined are ignored');
});

test('vocabulary: labels of drafts -03/-04 refuse conservatively and never allow; the own label wins', (t) => {
  const v = (s: string) => {
    const p = parsePreferences(s);
    if (!p.ok) throw new Error(p.reason);
    return Object.fromEntries(Object.entries(verdictsOfPreferences(p.preferences)).map(([k, r]) => [k, r!.verdict]));
  };
  t.deepEqual(v('bots=n'), {
    'ai-train': 'reserved',
    search: 'reserved',
    'ai-input': 'reserved',
    'ai-index': 'reserved',
  });
  t.deepEqual(v('bots=n, search=y'), {
    'ai-train': 'reserved',
    search: 'allowed',
    'ai-input': 'reserved',
    'ai-index': 'reserved',
  });
  t.deepEqual(v('train-genai=n'), { 'ai-train': 'reserved' });
  t.deepEqual(v('ai-output=n'), { search: 'reserved', 'ai-input': 'reserved', 'ai-index': 'reserved' });
  t.deepEqual(v('bots=y, train-genai=y, ai-output=y'), {});
});

test('vocabulary: every earlier draft is read as its reader would; a refusal names the draft and its code', (t) => {
  const read = (s: string) => {
    const p = parsePreferences(s);
    if (!p.ok) throw new Error(p.reason);
    return verdictsOfPreferences(p.preferences);
  };
  const v = (s: string) => Object.fromEntries(Object.entries(read(s)).map(([k, r]) => [k, r!.verdict]));
  // vocab-01: ai (AI Training), genai inside it, tdm over everything, inference (AI use of a model).
  t.deepEqual(v('ai=n'), { 'ai-train': 'reserved' });
  t.regex(read('ai=n')['ai-train']!.rule, /^AIPREF_VOCAB_01: ai=n \(AI Training, draft-ietf-aipref-vocab-01\)/);
  t.deepEqual(v('genai=n, ai=y'), { 'ai-train': 'reserved' }, 'a refused part refuses the token');
  t.deepEqual(v('ai=y'), {}, 'an earlier draft never allows');
  t.deepEqual(v('inference=n'), { 'ai-input': 'reserved', 'ai-index': 'reserved' });
  t.deepEqual(v('tdm=n, ai=y, search=y'), {
    search: 'allowed',
    'ai-input': 'reserved',
    'ai-index': 'reserved',
  });
  t.regex(read('tdm=n').search!.rule, /AIPREF_VOCAB_01: tdm=n .*registry, the more restrictive, is read/);
  // vocab-02: all, ai-use.
  t.deepEqual(v('ai-use=n'), { 'ai-input': 'reserved', 'ai-index': 'reserved' });
  t.regex(read('ai-use=n')['ai-input']!.rule, /^AIPREF_VOCAB_02: ai-use=n/);
  t.deepEqual(v('all=n'), {
    'ai-train': 'reserved',
    search: 'reserved',
    'ai-input': 'reserved',
    'ai-index': 'reserved',
  });
  // -07 allows generative training only; an earlier draft's refusal of a part of ai-train still reserves it.
  t.deepEqual(v('train-ai=y, train-genai=n'), { 'ai-train': 'reserved' });
  t.regex(read('train-ai=y, train-genai=n')['ai-train']!.rule, /^AIPREF_VOCAB_03: train-genai=n/);
  t.deepEqual(v('train-ai=n'), { 'ai-train': 'reserved' });
  t.regex(read('train-ai=n')['ai-train']!.rule, /draft-ietf-aipref-vocab-07 §3\.1/, '-07 names its own refusal');
});

test('Content-Usage header: one observation with the digest of the value; malformed is silent with a reason', (t) => {
  const [o] = readContentUsageHeader(page({ 'content-usage': 'train-ai=n' }));
  t.deepEqual(verdicts(o), { 'ai-input': 'silent', 'ai-index': 'silent', 'ai-train': 'reserved', search: 'silent' });
  t.is(o!.standard, 'aipref');
  t.is(o!.channel, 'header');
  t.is(o!.statement, 'content-usage: train-ai=n');
  t.is(o!.sha256, createHash('sha256').update('train-ai=n').digest('hex'));
  const [bad] = readContentUsageHeader(page({ 'content-usage': 'Train-AI=N' }));
  t.deepEqual(verdicts(bad), ALL_SILENT);
  t.regex(bad!.readings[0]!.rule, /not a structured-field Dictionary/);
  t.deepEqual(readContentUsageHeader(page({})), []);
});

test('Content-Usage in robots.txt: the longest matching path applies, per the attach draft example', (t) => {
  const text = [
    'User-Agent: *',
    'Allow: /',
    'Disallow: /never/',
    'Content-Usage: train-ai=n',
    'Content-Usage: /ai-ok/ train-ai=y',
    '',
    'User-Agent: ExampleBot',
    'Allow: /',
    'Content-Usage: search=n',
  ].join('\n');
  const at = (path: string) => readContentUsageRobots(robots(text), `https://pub.test${path}`);
  const [plain] = at('/test');
  t.is(verdicts(plain)['ai-train'], 'reserved');
  t.is(plain!.statement, 'Content-Usage: train-ai=n');
  t.is(verdicts(at('/ai-ok/test')[0])['ai-train'], 'silent');
  t.is(at('/ai-ok/test')[0]!.statement, 'Content-Usage: /ai-ok/ train-ai=y');
  const [never] = at('/never/test');
  t.deepEqual(verdicts(never), ALL_SILENT);
  t.regex(never!.readings[0]!.rule, /disallowed by line 3/);
  t.false(
    at('/test').some((o) => o.statement.includes('search=n')),
    "another agent's group is not read",
  );
});

test('Content-Usage in robots.txt: global lines are read too; equal paths all apply; comments end the value', (t) => {
  const text =
    'Content-Usage: search=n # site-wide\nUser-agent: *\n' +
    'Content-Usage: /articles/ train-ai=n\nContent-Usage: /articles/ train-ai=y';
  const obs = readContentUsageRobots(robots(text), RESOURCE);
  t.deepEqual(
    obs.map((o) => [o.statement, verdicts(o)['ai-train'], verdicts(o).search]),
    [
      ['Content-Usage: /articles/ train-ai=n', 'reserved', 'silent'],
      ['Content-Usage: /articles/ train-ai=y', 'silent', 'silent'],
      ['Content-Usage: search=n # site-wide', 'silent', 'reserved'],
    ],
  );
  t.deepEqual(readContentUsageRobots(robots('User-agent: *\nContent-Usage: /other/ train-ai=n'), RESOURCE), []);
  const [bad] = readContentUsageRobots(robots('User-agent: *\nContent-Usage: /articles/ train-ai=n,'), RESOURCE);
  t.deepEqual(verdicts(bad), ALL_SILENT);
  t.regex(bad!.readings[2]!.rule, /line 2: preferences unknown/);
});

test('Content-Usage in robots.txt: a longer Allow lifts a Disallow (RFC 9309): the preference applies again', (t) => {
  const text = 'User-agent: *\nDisallow: /articles/\nAllow: /articles/one\nContent-Usage: train-ai=n';
  t.is(verdicts(readContentUsageRobots(robots(text), RESOURCE)[0])['ai-train'], 'reserved');
  const blocked = 'User-agent: *\nAllow: /articles/\nDisallow: /articles/one\nContent-Usage: train-ai=n';
  t.is(verdicts(readContentUsageRobots(robots(blocked), RESOURCE)[0])['ai-train'], 'silent');
  const empty = 'User-agent: *\nDisallow:\nContent-Usage: train-ai=n';
  t.is(
    verdicts(readContentUsageRobots(robots(empty), RESOURCE)[0])['ai-train'],
    'reserved',
    'an empty Disallow allows',
  );
});
