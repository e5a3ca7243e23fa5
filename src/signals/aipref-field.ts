// An RFC 9651 (Structured Field Values) Dictionary parser, §4.2.2, for what the AI preferences
// vocabulary needs (draft-ietf-aipref-vocab §6.5: "those bytes are parsed into a Dictionary"). Pure.
//
// It parses every bare item type (Integer, Decimal, String, Token, Byte Sequence, Boolean, Date,
// Display String) and inner lists, because a dictionary whose other members use them is still a
// valid dictionary, and fails exactly where §4.2 says parsing fails: then the vocabulary's answer is
// "preferences are unknown" (vocab §6.5.1). Values are kept only as far as the vocabulary looks at
// them: a Token's text, or the kind of anything else.
//
//   parseDictionary('train-ai=n, search=y') // { ok: true, members: Map { 'train-ai' => token n, ... } }

/** Parsed aipref preferences: label → `y` / `n` / undefined (unknown); aipref-vocabulary.ts reads them. */
export type Preferences = ReadonlyMap<string, 'y' | 'n'>;

type BareItem =
  | { kind: 'token'; value: string }
  | { kind: 'integer' | 'decimal' | 'string' | 'bytes' | 'boolean' | 'date' | 'display-string' };

type DictionaryValue = BareItem | { kind: 'inner-list' };

type DictionaryParse = { ok: true; members: Map<string, DictionaryValue> } | { ok: false; reason: string };

class SfError extends Error {}

const LCALPHA = /[a-z]/;
const DIGIT = /[0-9]/;
const ALPHA = /[A-Za-z]/;
const KEY_CHAR = /[a-z0-9_\-.*]/;
// tchar (RFC 9110 §5.6.2) plus ":" and "/" (RFC 9651 §3.3.4).
const TOKEN_CHAR = /[!#$%&'*+\-.^_`|~0-9A-Za-z:/]/;
const BASE64_CHAR = /[A-Za-z0-9+/=]/;

/** Parse `input` (the field value as text; non-ASCII fails, as it would as bytes) into a Dictionary. */
export function parseDictionary(input: string): DictionaryParse {
  try {
    return { ok: true, members: new SfParser(input).dictionary() };
  } catch (e) {
    if (e instanceof SfError) return { ok: false, reason: e.message };
    throw e;
  }
}

class SfParser {
  private at = 0;
  constructor(private readonly s: string) {
    if (/[^\x20-\x7e\t]/.test(s)) throw new SfError('not ASCII: a structured field is visible ASCII (RFC 9651 §4.2)');
  }

  private peek(): string {
    return this.s[this.at] ?? '';
  }

  private fail(what: string): never {
    throw new SfError(`${what} at character ${this.at + 1} (RFC 9651 §4.2)`);
  }

  dictionary(): Map<string, DictionaryValue> {
    const members = new Map<string, DictionaryValue>();
    this.skip(' ');
    if (this.at === this.s.length) return members;
    for (;;) {
      const key = this.key();
      let value: DictionaryValue;
      if (this.peek() === '=') {
        this.at++;
        value = this.itemOrList();
      } else {
        value = { kind: 'boolean' };
        this.parameters();
      }
      // A repeated key: the last value wins (§4.2.2); re-inserting moves it, as the RFC's ordered map does.
      members.delete(key);
      members.set(key, value);
      this.skipOws();
      if (this.at === this.s.length) break;
      if (this.peek() !== ',') this.fail('expected "," between members');
      this.at++;
      this.skipOws();
      if (this.at === this.s.length) this.fail('trailing ","');
    }
    return members;
  }

  private itemOrList(): DictionaryValue {
    if (this.peek() === '(') {
      this.innerList();
      return { kind: 'inner-list' };
    }
    const item = this.bareItem();
    this.parameters();
    return item;
  }

  private innerList(): void {
    this.at++;
    for (;;) {
      this.skip(' ');
      if (this.peek() === ')') {
        this.at++;
        this.parameters();
        return;
      }
      this.bareItem();
      this.parameters();
      const next = this.peek();
      if (next !== ' ' && next !== ')') this.fail('expected " " or ")" in an inner list');
    }
  }

  private parameters(): void {
    while (this.peek() === ';') {
      this.at++;
      this.skip(' ');
      this.key();
      if (this.peek() === '=') {
        this.at++;
        this.bareItem();
      }
    }
  }

  private key(): string {
    const start = this.at;
    const first = this.peek();
    if (!(LCALPHA.test(first) || first === '*')) this.fail('a key starts with a-z or "*"');
    while (this.at < this.s.length && KEY_CHAR.test(this.peek())) this.at++;
    return this.s.slice(start, this.at);
  }

  private bareItem(): BareItem {
    const c = this.peek();
    if (c === '-' || DIGIT.test(c)) return this.number();
    if (c === '"') return this.string();
    if (c === '*' || ALPHA.test(c)) return this.token();
    if (c === ':') return this.bytes();
    if (c === '?') return this.boolean();
    if (c === '@') {
      this.at++;
      if (this.number().kind !== 'integer') this.fail('a Date is an Integer');
      return { kind: 'date' };
    }
    if (c === '%') return this.displayString();
    return this.fail('not the start of an item');
  }

  private number(): BareItem {
    if (this.peek() === '-') this.at++;
    if (!DIGIT.test(this.peek())) this.fail('a number has a digit');
    let intDigits = 0;
    let fracDigits = -1;
    while (this.at < this.s.length) {
      const c = this.peek();
      if (DIGIT.test(c)) {
        if (fracDigits >= 0) fracDigits++;
        else intDigits++;
      } else if (c === '.' && fracDigits < 0) {
        if (intDigits > 12) this.fail('a Decimal has at most 12 integer digits');
        fracDigits = 0;
      } else break;
      this.at++;
      if (fracDigits < 0 && intDigits > 15) this.fail('an Integer has at most 15 digits');
    }
    if (fracDigits < 0) return { kind: 'integer' };
    if (fracDigits === 0 || fracDigits > 3) this.fail('a Decimal has 1 to 3 fractional digits');
    return { kind: 'decimal' };
  }

  private string(): BareItem {
    this.at++;
    for (;;) {
      if (this.at >= this.s.length) this.fail('unterminated String');
      const c = this.s[this.at++]!;
      if (c === '"') return { kind: 'string' };
      if (c === '\\') {
        const next = this.s[this.at++];
        if (next !== '"' && next !== '\\') this.fail('a String escapes only " and \\');
      } else if (c === '\t') this.fail('a String holds visible ASCII and spaces');
    }
  }

  private token(): BareItem {
    const start = this.at;
    this.at++;
    while (this.at < this.s.length && TOKEN_CHAR.test(this.peek())) this.at++;
    return { kind: 'token', value: this.s.slice(start, this.at) };
  }

  private bytes(): BareItem {
    this.at++;
    while (this.at < this.s.length && BASE64_CHAR.test(this.peek())) this.at++;
    if (this.peek() !== ':') this.fail('unterminated Byte Sequence');
    this.at++;
    return { kind: 'bytes' };
  }

  private boolean(): BareItem {
    this.at++;
    const c = this.s[this.at++];
    if (c !== '0' && c !== '1') this.fail('a Boolean is ?0 or ?1');
    return { kind: 'boolean' };
  }

  private displayString(): BareItem {
    this.at++;
    if (this.s[this.at++] !== '"') this.fail('a Display String starts %"');
    const bytes: number[] = [];
    for (;;) {
      if (this.at >= this.s.length) this.fail('unterminated Display String');
      const c = this.s[this.at++]!;
      if (c === '"') break;
      if (c === '%') {
        const hex = this.s.slice(this.at, this.at + 2);
        if (!/^[0-9a-f]{2}$/.test(hex)) this.fail('a Display String escapes with %xx in lowercase hex');
        bytes.push(Number.parseInt(hex, 16));
        this.at += 2;
      } else if (c === '\t') this.fail('a Display String holds visible ASCII and spaces');
      else bytes.push(c.charCodeAt(0));
    }
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(bytes));
    } catch {
      this.fail('a Display String is UTF-8');
    }
    return { kind: 'display-string' };
  }

  private skip(ch: string): void {
    while (this.peek() === ch) this.at++;
  }

  private skipOws(): void {
    while (this.peek() === ' ' || this.peek() === '\t') this.at++;
  }
}
