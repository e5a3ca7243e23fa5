import { Writable } from 'node:stream';
import test from 'ava';
import { isRight } from 'fp-ts/lib/Either.js';
import {
  COMPLIANCE_EXPORT_COLUMNS as COMPLIANCE_COLUMNS,
  ComplianceExportRow as ComplianceRow,
} from '../../projections/compliance/compliance-row.js';
import {
  COVERAGE_DAY_COLUMNS,
  CoverageDayRow,
  coverageDayRows,
} from '../../projections/compliance/coverage-day-row.js';
import { csvField, writeComplianceExport, writeCoverageExport } from '../../projections/compliance/export-format.js';
import { type CoverageEvent, coveredDays } from '../../streams/coverage/index.js';
import { foundDeclaration } from '../streams/coverage/found-declaration.js';

// The compliance export's two formats, read back the way a consumer would: the CSV through an
// RFC 4180 parser (below), the JSONL through the row's own codec.

const row = (over: Partial<ComplianceRow> = {}): ComplianceRow => ({
  purchase_id: 'p_0001',
  line: 1,
  lines: 1,
  sku: 'rsl-preflight/fresh',
  resource: 'https://news.example/article/1',
  origin: 'https://news.example',
  purpose: 'ai-input',
  user_class: 'commercial',
  geo: null,
  classification: 'permitted',
  decision: 'allow',
  changed: null,
  observed_at: '2026-11-02T10:00:00.000Z',
  rsl_document_sha256: ['a'.repeat(64), 'b'.repeat(64)],
  evidence_key_id: 'k1',
  report_sha256: 'c'.repeat(64),
  evidence_sha256: 'd'.repeat(64),
  delivery_proof_sha256: 'e'.repeat(64),
  payer: '0x00000000000000000000000000000000000000aa',
  amount_micro: '150000',
  line_amount_micro: '150000',
  network: 'eip155:84532',
  transaction: '0x' + 'f'.repeat(64),
  delivered_at: '2026-11-02T10:00:01.000Z',
  held: false,
  held_reason: null,
  refund_status: 'none',
  previous_report_sha256: null,
  signals_summary: 'RESTRICTED_BY_OTHER_SIGNAL',
  signals: [`tdmrep:${'1'.repeat(64)}`, `aipref:${'2'.repeat(64)}`],
  ...over,
});

async function* source(rows: readonly ComplianceRow[]): AsyncGenerator<ComplianceRow> {
  for (const r of rows) yield r;
}

/** Collects everything written, with no backpressure. */
function sink(): { out: Writable; text: () => string } {
  const chunks: string[] = [];
  const out = new Writable({
    write(chunk: Buffer, _enc, done) {
      chunks.push(chunk.toString('utf8'));
      done();
    },
  });
  return { out, text: () => chunks.join('') };
}

async function exported(
  rows: readonly ComplianceRow[],
  format: 'csv' | 'jsonl',
): Promise<{ text: string; count: number }> {
  const s = sink();
  const count = await writeComplianceExport(source(rows), format, s.out);
  return { text: s.text(), count };
}

/** A strict RFC 4180 reader (CRLF records): fails on anything the spec does not allow. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let i = 0;
  while (i < text.length) {
    const record: string[] = [];
    for (;;) {
      let field = '';
      if (text[i] === '"') {
        i++;
        for (;;) {
          if (i >= text.length) throw new Error('unterminated quoted field');
          if (text[i] === '"') {
            if (text[i + 1] === '"') {
              field += '"';
              i += 2;
              continue;
            }
            i++;
            break;
          }
          field += text[i++];
        }
      } else {
        while (i < text.length && text[i] !== ',' && text[i] !== '\r' && text[i] !== '\n') {
          if (text[i] === '"') throw new Error(`bare quote at ${i}`);
          field += text[i++];
        }
      }
      record.push(field);
      if (text[i] === ',') {
        i++;
        continue;
      }
      if (text.startsWith('\r\n', i)) {
        i += 2;
        break;
      }
      throw new Error(`expected , or CRLF at ${i}, found ${JSON.stringify(text.slice(i, i + 5))}`);
    }
    records.push(record);
  }
  return records;
}

test('csv: the header is COMPLIANCE_COLUMNS and every line ends with CRLF', async (t) => {
  const { text, count } = await exported([row(), row({ purchase_id: 'p_0002' })], 'csv');
  t.is(count, 2);
  t.true(text.startsWith(COMPLIANCE_COLUMNS.join(',') + '\r\n'));
  t.true(text.endsWith('\r\n'));
  t.is(text.split('\r\n').length, 4, 'header, two rows, and the empty string after the last CRLF');
  t.false(/[^\r]\n/.test(text), 'no bare LF line ends');
  const records = parseCsv(text);
  t.deepEqual(records[0], [...COMPLIANCE_COLUMNS]);
  t.deepEqual(
    records.slice(1).map((r) => r[0]),
    ['p_0001', 'p_0002'],
  );
  t.true(records.every((r) => r.length === COMPLIANCE_COLUMNS.length));
});

test('csv: fields with a comma, quote, CR or LF are quoted with quotes doubled, and read back exactly', async (t) => {
  const tricky = row({
    resource: 'https://news.example/a,b',
    purpose: 'say "hi"',
    held_reason: 'line one\nline two',
    geo: 'carriage\rreturn',
    user_class: 'plain',
  });
  const { text } = await exported([tricky], 'csv');
  t.true(text.includes('"https://news.example/a,b"'));
  t.true(text.includes('"say ""hi"""'));
  t.true(text.includes('"line one\nline two"'));
  t.true(text.includes(',plain,'), 'a field needing no quotes is not quoted');
  const [, fields] = parseCsv(text);
  const at = (c: keyof ComplianceRow) => fields![COMPLIANCE_COLUMNS.indexOf(c)];
  t.is(at('resource'), 'https://news.example/a,b');
  t.is(at('purpose'), 'say "hi"');
  t.is(at('held_reason'), 'line one\nline two');
  t.is(at('geo'), 'carriage\rreturn');
});

test('csv: the signals beside RSL are the last columns, each observation "standard:sha256" space-joined', async (t) => {
  // Appended after previous_report_sha256 (docs/wire.md §15) so that no earlier column's position moved.
  t.deepEqual(COMPLIANCE_COLUMNS.slice(-3), ['previous_report_sha256', 'signals_summary', 'signals']);
  const { text } = await exported([row(), row({ signals_summary: null, signals: null })], 'csv');
  const [, restricted, before] = parseCsv(text);
  t.deepEqual(restricted!.slice(-2), [
    'RESTRICTED_BY_OTHER_SIGNAL',
    `tdmrep:${'1'.repeat(64)} aipref:${'2'.repeat(64)}`,
  ]);
  t.deepEqual(before!.slice(-2), ['', ''], 'a report before signals were read states no summary, never NONE_OBSERVED');
});

test('csv: null is an empty field, arrays are space-joined, booleans are true/false', async (t) => {
  const { text } = await exported(
    [
      row({
        geo: null,
        payer: null,
        held: true,
        held_reason: 'chargeback',
        rsl_document_sha256: ['a'.repeat(64), 'b'.repeat(64)],
      }),
      row({ rsl_document_sha256: [] }),
    ],
    'csv',
  );
  const [, first, second] = parseCsv(text);
  const at = (fields: string[] | undefined, c: keyof ComplianceRow) => fields![COMPLIANCE_COLUMNS.indexOf(c)];
  t.is(at(first, 'geo'), '');
  t.is(at(first, 'payer'), '');
  t.is(at(first, 'held'), 'true');
  t.is(at(second, 'held'), 'false');
  t.is(at(first, 'rsl_document_sha256'), `${'a'.repeat(64)} ${'b'.repeat(64)}`);
  t.is(at(second, 'rsl_document_sha256'), '');
});

test('csv: text starting with = + - @ tab or CR is prefixed with a quote (formula injection)', async (t) => {
  const hostile = row({
    held_reason: '=HYPERLINK("https://evil.example","click")',
    purpose: '+1+cmd|calc',
    origin: '-2+3',
    geo: '@SUM(A1)',
    user_class: '\tx',
    decision: '\r=1',
    classification: 'a=b', // only a leading character counts
  });
  const [, fields] = parseCsv((await exported([hostile], 'csv')).text);
  const at = (c: keyof ComplianceRow) => fields![COMPLIANCE_COLUMNS.indexOf(c)];
  t.is(at('held_reason'), `'=HYPERLINK("https://evil.example","click")`);
  t.is(at('purpose'), "'+1+cmd|calc");
  t.is(at('origin'), "'-2+3");
  t.is(at('geo'), "'@SUM(A1)");
  t.is(at('user_class'), "'\tx");
  t.is(at('decision'), "'\r=1");
  t.is(at('classification'), 'a=b');
  t.is(csvField('=1,2'), `"'=1,2"`, 'guarded first, then quoted');
  t.is(csvField(false), 'false', 'booleans are not text');
});

test('csv: an empty export is the header alone, and counts 0', async (t) => {
  const { text, count } = await exported([], 'csv');
  t.is(count, 0);
  t.is(text, COMPLIANCE_COLUMNS.join(',') + '\r\n');
});

test('jsonl: one object per line, keys in COMPLIANCE_COLUMNS order, decoding back to the same rows', async (t) => {
  const rows = [
    row(),
    row({
      purchase_id: 'p_0002',
      held: true,
      held_reason: 'line\nbreak "quoted"',
      refund_status: 'requested',
      origin: null,
      rsl_document_sha256: [],
    }),
    row({ purchase_id: 'p_0003', purpose: '=formula', geo: 'DE', refund_status: 'paid' }),
  ];
  const { text, count } = await exported(rows, 'jsonl');
  t.is(count, 3);
  const lines = text.split('\n');
  t.is(lines.pop(), '', 'the last line ends with LF');
  t.is(lines.length, 3);
  for (const [i, line] of lines.entries()) {
    const parsed: unknown = JSON.parse(line);
    t.deepEqual(Object.keys(parsed as object), [...COMPLIANCE_COLUMNS]);
    const decoded = ComplianceRow.decode(parsed);
    t.true(isRight(decoded));
    if (isRight(decoded)) t.deepEqual(decoded.right, rows[i]);
  }
  t.is(JSON.parse(lines[2]!).purpose, '=formula', 'JSONL is exact: no formula guard');
});

test('jsonl: keys come in column order whatever the source order, and extra keys are dropped', async (t) => {
  const reversed = Object.fromEntries(Object.entries(row()).reverse()) as ComplianceRow;
  const withExtra = { ...row(), delivered_day: '2026-11-02' } as ComplianceRow;
  const { text } = await exported([reversed, withExtra], 'jsonl');
  const [a, b] = text
    .trim()
    .split('\n')
    .map((l) => Object.keys(JSON.parse(l) as object));
  t.deepEqual(a, [...COMPLIANCE_COLUMNS]);
  t.deepEqual(b, [...COMPLIANCE_COLUMNS]);
});

test('backpressure: a slow stream with a tiny buffer receives every row, in order, never over-buffered', async (t) => {
  const highWaterMark = 64;
  const received: string[] = [];
  let drains = 0;
  let bufferedAtWrite = 0;
  const out = new Writable({
    highWaterMark,
    write(chunk: Buffer, _enc, done) {
      received.push(chunk.toString('utf8'));
      setTimeout(done, 1); // a slow disk
    },
  });
  out.on('drain', () => {
    drains++;
  });
  const write = out.write.bind(out) as (chunk: string) => boolean;
  // What is already buffered when the exporter writes: it must have waited for the drain.
  out.write = ((chunk: string) => {
    bufferedAtWrite = Math.max(bufferedAtWrite, out.writableLength);
    return write(chunk);
  }) as typeof out.write;

  const n = 200;
  const rows = Array.from({ length: n }, (_, i) => row({ purchase_id: `p_${String(i).padStart(4, '0')}` }));
  const count = await writeComplianceExport(source(rows), 'jsonl', out);
  await new Promise<void>((resolve) => out.end(resolve));

  t.is(count, n);
  t.true(drains >= n - 1, `waited for drain after (nearly) every row, ${drains} drains`);
  t.true(bufferedAtWrite < highWaterMark, `never wrote into a full buffer (max ${bufferedAtWrite} bytes buffered)`);
  const ids = received
    .join('')
    .trim()
    .split('\n')
    .map((l) => (JSON.parse(l) as ComplianceRow).purchase_id);
  t.deepEqual(
    ids,
    rows.map((r) => r.purchase_id),
  );
});

test('a stream error fails the export', async (t) => {
  const out = new Writable({
    highWaterMark: 1,
    write(_chunk, _enc, done) {
      setTimeout(() => done(new Error('disk full')), 1);
    },
  });
  await t.throwsAsync(writeComplianceExport(source([row(), row(), row()]), 'csv', out), { message: 'disk full' });
});

test('an unknown format is refused before anything is written', async (t) => {
  const s = sink();
  await t.throwsAsync(writeComplianceExport(source([row()]), 'xml' as never, s.out), { instanceOf: RangeError });
  t.is(s.text(), '');
});

// The coverage records (`--of coverage`): what the ledger covered on each day, one record per day and origin.
const A = 'https://a.example';
const B = 'https://b.example';
const ledger: CoverageEvent[] = [
  { type: 'CoverageSeeded', data: { origins: [A], source: 'COVERED_ORIGINS', at: '2026-11-01T08:00:00.000Z' } },
  {
    type: 'OriginReviewed',
    data: {
      origin: B,
      operator: 'ana',
      reason: 'asked',
      at: '2026-11-02T09:00:00.000Z',
      observed: foundDeclaration(B, '2026-11-02T09:00:00.000Z'),
    },
  },
  {
    type: 'OriginAdded',
    data: {
      origin: B,
      operator: 'ana',
      reason: 'asked, "twice"',
      at: '2026-11-02T10:00:00.000Z',
      reviewed_at: '2026-11-02T09:00:00.000Z',
    },
  },
  { type: 'OriginWithdrawn', data: { origin: B, operator: 'bo', reason: '=left', at: '2026-11-02T18:00:00.000Z' } },
];
const coverageRecords = () =>
  coverageDayRows(coveredDays(ledger, ['2026-10-31', '2026-11-01', '2026-11-02', '2026-11-03']));

test('coverage records: every origin covered at some moment of a day, covered at its start and end or not', (t) => {
  t.deepEqual(
    coverageRecords().map((r) => [r.day, r.origin, r.covered_at_start, r.covered_at_end, r.changes.map((c) => c.type)]),
    [
      ['2026-11-01', A, false, true, ['CoverageSeeded']],
      ['2026-11-02', A, true, true, []],
      ['2026-11-02', B, false, false, ['OriginAdded', 'OriginWithdrawn']],
      ['2026-11-03', A, true, true, []],
    ],
    'a day before the ledger has no record; a review alone changes nothing',
  );
});

test('coverage records: jsonl is the records exactly, csv one change a line inside one quoted field', async (t) => {
  const records = coverageRecords();
  const jsonl = sink();
  t.is(await writeCoverageExport(records, 'jsonl', jsonl.out), records.length);
  const read = jsonl
    .text()
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as unknown);
  t.true(read.every((r) => isRight(CoverageDayRow.decode(r))));
  t.deepEqual(read, records);
  t.deepEqual(Object.keys(read[0] as object), [...COVERAGE_DAY_COLUMNS]);

  const csv = sink();
  t.is(await writeCoverageExport(records, 'csv', csv.out), records.length);
  const parsed = parseCsv(csv.text());
  t.deepEqual(parsed[0], [...COVERAGE_DAY_COLUMNS]);
  t.deepEqual(parsed[3]!.slice(0, 4), ['2026-11-02', B, 'false', 'false']);
  t.deepEqual(parsed[3]![4]!.split('\n'), [
    '2026-11-02T10:00:00.000Z OriginAdded by ana: asked, "twice"',
    '2026-11-02T18:00:00.000Z OriginWithdrawn by bo: =left',
  ]);
});
