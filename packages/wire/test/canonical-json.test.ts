import test from 'ava';
import canonicalizeImpl from 'canonicalize';
import fc from 'fast-check';
import { canonicalJson, canonicalBytes } from '../src/evidence/canonical-json.js';

// RFC 8785 examples. Inputs are parsed from JSON text exactly as printed in the RFC, so the number
// literals go through the same double conversion an implementation sees.

test('RFC 8785 §3.2.2: whitespace, number and string serialization', (t) => {
  const input = JSON.parse(String.raw`{
    "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
    "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/",
    "literals": [null, true, false]
  }`);
  t.is(
    canonicalJson(input),
    '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],' +
      String.raw`"string":"€$\u000f\nA'B\"\\\\\"/"}`,
  );
});

test('RFC 8785 §3.2.3: properties sorted by UTF-16 code units, not by code points or UTF-8', (t) => {
  const input = JSON.parse(String.raw`{
    "\u20ac": "Euro Sign",
    "\r": "Carriage Return",
    "\ufb33": "Hebrew Letter Dalet With Dagesh",
    "1": "One",
    "\ud83d\ude00": "Emoji: Grinning Face",
    "\u0080": "Control",
    "\u00f6": "Latin Small Letter O With Diaeresis"
  }`) as Record<string, string>;
  t.is(
    canonicalJson(input),
    '{"\\r":"Carriage Return","1":"One","\u0080":"Control","\u00f6":"Latin Small Letter O With Diaeresis",' +
      '"\u20ac":"Euro Sign","\ud83d\ude00":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}',
  );
});

test('RFC 8785 §3.2.2.3 / ECMAScript number forms', (t) => {
  t.is(
    canonicalJson([-0, 0, 1e21, 1e20, 1e-7, 0.000001, 5e-324, 9007199254740991]),
    '[0,0,1e+21,100000000000000000000,1e-7,0.000001,5e-324,9007199254740991]',
  );
});

test('canonicalBytes is the UTF-8 of canonicalJson', (t) => {
  t.deepEqual([...canonicalBytes({ b: '€', a: 1 })], [...new TextEncoder().encode('{"a":1,"b":"€"}')]);
});

test('values without a JSON form are refused rather than signed as something else', (t) => {
  t.throws(() => canonicalJson(undefined));
  t.throws(() => canonicalJson(Number.NaN));
  t.throws(() => canonicalJson(Infinity));
});

// canonical-json.ts walks values itself and leaves the rare cases to the `canonicalize` package: the text and the
// errors must be the package's on anything, including strings with lone surrogates, odd numbers and toJSON.
const reference = canonicalizeImpl as unknown as (value: unknown) => string | undefined;
const outcome = (f: () => unknown) => {
  try {
    return { text: f() };
  } catch (err) {
    return { error: (err as Error).message };
  }
};
const odd = fc.oneof(
  fc.constantFrom(Number.NaN, Infinity, -0, 1e21, 5e-324, undefined, '\ud800', 'a\udc00b', '😀'),
  fc.date({ noInvalidDate: true }),
  fc.string({ unit: 'binary' }),
  fc.double(),
);
const values = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.jsonValue(),
    odd,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(
      fc.oneof(fc.string({ unit: 'binary', maxLength: 4 }), fc.constantFrom('\udbff', 'k\ud800')),
      tie('value'),
      {
        maxKeys: 4,
      },
    ),
  ),
})).value;

test('canonicalJson is the canonicalize package, text and errors, on generated values', (t) => {
  fc.assert(
    fc.property(values, (v) => {
      const expected = outcome(() => {
        const out = reference(v);
        if (out === undefined) throw new TypeError('value has no JSON form');
        return out;
      });
      t.deepEqual(
        outcome(() => canonicalJson(v)),
        expected,
      );
    }),
    { numRuns: 2000 },
  );
  const circular: Record<string, unknown> = { a: 1 };
  circular.self = { back: circular };
  t.deepEqual(
    outcome(() => canonicalJson(circular)),
    outcome(() => reference(circular)),
  );
});
