import test from 'ava';
import { decodeHtmlAs, encodingChangedTo, encodingDeclaredByMeta } from '../../src/rsl/html-encoding.js';
import { readPageReadings } from '../../src/rsl/page-readings.js';

// The pure parts of reading a page as every conforming reader does (HTML §13.2.3.5 "change the encoding",
// §13.2.6.4.4 the "meta" start tag in head); the end-to-end cases are late-readings.integration.test.ts.

const attrs = (o: Record<string, string>) => Object.entries(o).map(([name, value]) => ({ name, value }));

test('a meta declares an encoding by its charset, else by http-equiv Content-Type and content', (t) => {
  t.is(encodingDeclaredByMeta(attrs({ charset: ' UTF-8 ' })), 'UTF-8');
  t.is(encodingDeclaredByMeta(attrs({ charset: 'latin1' })), 'windows-1252');
  t.is(encodingDeclaredByMeta(attrs({ charset: 'no-such' })), null);
  const pragma = (content: string) => encodingDeclaredByMeta(attrs({ 'http-equiv': 'Content-Type', content }));
  t.is(pragma('text/html; charset=Shift_JIS'), 'Shift_JIS');
  t.is(pragma("text/html; charset='utf-8'"), 'UTF-8');
  t.is(pragma('text/html; charset="utf-8"'), 'UTF-8');
  t.is(pragma('text/html'), null);
  t.is(encodingDeclaredByMeta(attrs({ content: 'text/html; charset=utf-8' })), null, 'no pragma, no encoding');
  t.is(
    encodingDeclaredByMeta(attrs({ charset: 'bogus', 'http-equiv': 'content-type', content: 'charset=utf-8' })),
    'UTF-8',
  );
});

test('change the encoding: only a tentative one; UTF-16 becomes UTF-8, x-user-defined windows-1252', (t) => {
  const tentative = { name: 'windows-1252', source: 'default' as const };
  t.is(encodingChangedTo(tentative, 'UTF-8'), 'UTF-8');
  t.is(encodingChangedTo(tentative, 'UTF-16LE'), 'UTF-8');
  t.is(encodingChangedTo({ name: 'UTF-8', source: 'meta' }, 'x-user-defined'), 'windows-1252');
  t.is(encodingChangedTo(tentative, 'windows-1252'), null, 'the same encoding: confidence certain, nothing read again');
  t.is(encodingChangedTo({ name: 'windows-1252', source: 'http-charset' }, 'UTF-8'), null);
  t.is(encodingChangedTo({ name: 'UTF-8', source: 'bom' }, 'Shift_JIS'), null);
  t.is(encodingChangedTo(tentative, null), null);
  const bad = decodeHtmlAs(new Uint8Array([0x41]), 'replacement');
  t.false(bad.ok);
});

test('a browser and a crawler meeting different late metas: the page is read in each encoding', async (t) => {
  const page = Buffer.from(
    `<html><head><!--${'x'.repeat(1100)}--><noscript><meta charset="shift_jis"></noscript>` +
      '<meta charset="utf-8"></head><body>x</body></html>',
  );
  const readings = await readPageReadings(page, 'text/html');
  t.deepEqual(readings.decoded.encoding, { name: 'windows-1252', source: 'default' });
  t.deepEqual(
    readings.changed.map((c) => c.decoded.encoding.name),
    ['UTF-8', 'Shift_JIS'],
  );
  t.true(readings.changed.every((c) => c.reason.startsWith('ENCODING_CHANGED_BY_META')));
  const early = await readPageReadings(
    Buffer.from('<meta charset="utf-8"><p>x</p><meta charset="shift_jis">'),
    'text/html',
  );
  t.deepEqual(early.changed, [], 'the prescan found the first meta the parser meets: nothing changes');
});
