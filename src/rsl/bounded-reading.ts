import type { SignalObservation } from '@rights-preflight/wire/signals/signal-observation.js';
import type { ResourceReading } from './reading.js';
import { STATEMENT_MAX_CHARS } from '../signals/observation.js';

// A reading holds text a publisher chose (statements, rules that list ignored entries, parse problems,
// reasons, notes, URLs as written) and is copied into the signed evidence, the report, the stored quote
// and every revalidation after it. Bounded here, once, where the reading is made (observe.ts), so a
// publisher cannot inflate any of them (docs/wire.md §16, docs/decisions.md "Bounded report size"):
//
// - every string is at most its cap in bytes of its JSON form (so escapes count: a control character is six
//   bytes); a cut string ends in TRUNCATION_MARK;
// - lists a publisher can grow keep their first entries and end with one that says how many were left out;
// - an `etag` or `last_modified` over its cap is dropped rather than cut (a cut validator never matches);
// - the signal observations of a resource are at most SIGNALS_MAX_BYTES: those that reserve are kept
//   first, and the first that reserves each token is never left out, so the summary read from what is
//   kept is never more permissive than from everything observed; one more observation says how many
//   were left out;
// - anything cut or left out sets `truncated: true` on the reading, which the report entry repeats.
//
// Pure; a reading within every cap comes back unchanged (the same object).

export const TRUNCATION_MARK = '…';

/** Caps in bytes of the JSON string form, by the key that holds the string. */
const STRING_BYTES: Readonly<Record<string, number>> = {
  resource: 2100,
  origin: 2100,
  url: 2100, // fetched URLs are canonical (at most RESOURCE_URL_MAX_LENGTH ASCII characters): never cut
  document_url: 2100,
  content_url: 512,
  statement: 2048, // also at most 1024 characters (src/signals/observation.ts)
  rule: 256,
  sha256: 80,
  document_sha256: 80,
};
const DEFAULT_STRING_BYTES = 512;
/** Validators: dropped when longer, never cut. */
const VALIDATOR_BYTES: Readonly<Record<string, number>> = { etag: 512, last_modified: 512 };

/** Lists a publisher can grow, by key: how many entries are kept before the one that counts the rest. */
const LIST_ENTRIES: Readonly<Record<string, number>> = {
  problems: 32,
  notes: 16,
  diagnostics: 32,
  obligations: 16,
  reasons: 8,
  observations: 32,
  documents: 16,
};

export const SIGNALS_MAX_BYTES = 64 * 1024;

/**
 * The largest a report entry (one element of `report.resources`, docs/wire.md §16) can be, in bytes of its
 * JSON: the caps above summed over the entry's fields (resource, reasons of at most two tokens, a checkpoint
 * with at most 16 documents, the signals and their omitted note), with room to spare.
 */
export const REPORT_ENTRY_MAX_BYTES = 256 * 1024;

const jsonBytes = (s: string): number => Buffer.byteLength(JSON.stringify(s));

/** A prefix that does not end inside a surrogate pair. */
const prefix = (s: string, n: number): string => {
  const cut = s.slice(0, n);
  return /[\ud800-\udbff]$/.test(cut) ? cut.slice(0, -1) : cut;
};

/** `s` if its JSON form fits `maxBytes`; else its longest prefix that fits with TRUNCATION_MARK. */
export function capText(s: string, maxBytes: number): string {
  // JSON takes at least one byte and at most six per UTF-16 unit, plus the quotes.
  if (s.length <= maxBytes / 6 - 2) return s;
  if (s.length + 2 <= maxBytes && jsonBytes(s) <= maxBytes) return s;
  let lo = 0;
  let hi = Math.min(s.length, maxBytes);
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (jsonBytes(prefix(s, mid) + TRUNCATION_MARK) <= maxBytes) lo = mid;
    else hi = mid - 1;
  }
  return prefix(s, lo) + TRUNCATION_MARK;
}

interface Cut {
  any: boolean;
}

function boundString(key: string, s: string, cut: Cut): string {
  const capped = capText(s, STRING_BYTES[key] ?? DEFAULT_STRING_BYTES);
  if (capped !== s) cut.any = true;
  return capped;
}

/** The entry that stands for the `count` entries left out of the list `key`. */
function omittedEntry(key: string, count: number, sample: unknown): unknown {
  const text = `${count} more ${key} not recorded (at most ${LIST_ENTRIES[key]} are kept)`;
  if (typeof sample === 'string') return text;
  if (key === 'problems') return { severity: 'warning', code: 'PROBLEMS_OMITTED', message: text };
  return undefined; // a list of records with no room for a note (reasons, observations): `truncated` says it
}

function boundList(key: string, list: unknown[], cut: Cut): unknown[] {
  const max = LIST_ENTRIES[key];
  let kept = list;
  if (max !== undefined && list.length > max) {
    cut.any = true;
    const note = omittedEntry(key, list.length - max, list[0]);
    kept = note === undefined ? list.slice(0, max) : [...list.slice(0, max), note];
  }
  let changed = kept !== list;
  const out = kept.map((v) => {
    const b = boundValue(key, v, cut);
    if (b !== v) changed = true;
    return b;
  });
  return changed ? out : list;
}

function boundRecord(record: Record<string, unknown>, cut: Cut): Record<string, unknown> {
  // Copied only from the first field that changes (most records change nothing: a quote's reading is
  // walked whole every time, docs/decisions.md "A quote's own CPU"); the copy keeps the key order.
  let out: Record<string, unknown> | undefined;
  const keys = Object.keys(record);
  const copyBefore = (n: number): Record<string, unknown> => {
    const copy: Record<string, unknown> = {};
    for (let j = 0; j < n; j++) copy[keys[j]!] = record[keys[j]!];
    return copy;
  };
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    const v = record[key];
    const validatorCap = VALIDATOR_BYTES[key];
    if (validatorCap !== undefined && typeof v === 'string' && jsonBytes(v) > validatorCap) {
      cut.any = true;
      out ??= copyBefore(i);
      continue;
    }
    const b = boundValue(key, v, cut);
    if (b !== v) out ??= copyBefore(i);
    if (out) out[key] = b;
  }
  return out ?? record;
}

function boundValue(key: string, v: unknown, cut: Cut): unknown {
  if (typeof v === 'string') return boundString(key, v, cut);
  if (Array.isArray(v)) return boundList(key, v, cut);
  if (typeof v === 'object' && v !== null) return boundRecord(v as Record<string, unknown>, cut);
  return v;
}

const reserves = (o: SignalObservation) => o.readings.some((r) => r.verdict === 'reserved');
const allows = (o: SignalObservation) => o.readings.some((r) => r.verdict === 'allowed');
const observationBytes = (o: SignalObservation) => Buffer.byteLength(JSON.stringify(o)) + 1;

/** Cut before it reached here: a statement at its character cap (src/signals/observation.ts), or the
 *  observation that counts those a reader's per-standard cap left out (src/signals/read-signals.ts). */
const cutByReader = (o: SignalObservation): boolean =>
  (o.statement.length === STATEMENT_MAX_CHARS && o.statement.endsWith(TRUNCATION_MARK)) ||
  (/^\d+ more .* not recorded/.test(o.statement) && o.readings.every((r) => r.rule === o.statement));

/** At most SIGNALS_MAX_BYTES of observations, in their order, keeping what restricts first. */
export function boundSignals(signals: SignalObservation[], cut: Cut): SignalObservation[] {
  if (signals.some(cutByReader)) cut.any = true;
  const each = signals.map((o) => boundRecord(o as unknown as Record<string, unknown>, cut) as SignalObservation);
  const sizes = each.map(observationBytes);
  const total = sizes.reduce((a, b) => a + b, 2);
  if (total <= SIGNALS_MAX_BYTES) return each.every((o, i) => o === signals[i]) ? signals : each;
  cut.any = true;
  // Room for the note that counts what was left out.
  let room = SIGNALS_MAX_BYTES - 2 - 4096;
  const keep = new Set<number>();
  // The first observation reserving each token: the summary is read from these (never more permissive).
  const guarded = new Set<string>();
  each.forEach((o, i) => {
    for (const r of o.readings)
      if (r.verdict === 'reserved' && !guarded.has(r.token)) {
        guarded.add(r.token);
        if (!keep.has(i)) {
          keep.add(i);
          room -= sizes[i]!;
        }
      }
  });
  const order = each
    .map((o, i) => ({ o, i, rank: reserves(o) ? 0 : allows(o) ? 1 : 2 }))
    .sort((a, b) => a.rank - b.rank || a.i - b.i);
  for (const { i } of order) {
    if (keep.has(i) || sizes[i]! > room) continue;
    keep.add(i);
    room -= sizes[i]!;
  }
  const kept = each.filter((_, i) => keep.has(i));
  const left = each.length - kept.length;
  if (left === 0) return kept;
  const first = each.find((_, i) => !keep.has(i))!;
  const note =
    `${left} more signal observations not recorded ` +
    `(at most ${SIGNALS_MAX_BYTES} bytes per resource; those that reserve are kept first)`;
  return [
    ...kept,
    {
      standard: first.standard,
      channel: first.channel,
      url: first.url,
      sha256: first.sha256,
      statement: note,
      readings: first.readings.map((r) => ({ token: r.token, verdict: 'silent' as const, rule: note })),
    },
  ];
}

/** The reading within every cap, `truncated: true` when anything was cut; unchanged when nothing was. */
export function boundedReading(reading: ResourceReading): ResourceReading {
  const cut: Cut = { any: false };
  const { signals, ...rest } = reading;
  const bounded = boundRecord(rest as Record<string, unknown>, cut) as Omit<ResourceReading, 'signals'>;
  const boundedSignals = signals === undefined ? undefined : boundSignals(signals, cut);
  if (!cut.any) return reading;
  return {
    ...bounded,
    ...(boundedSignals === undefined ? {} : { signals: boundedSignals }),
    truncated: true,
  };
}
