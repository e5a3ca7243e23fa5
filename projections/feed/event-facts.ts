import { REFUND_STREAM_PREFIX } from '../../streams/refund/events.js';
import { STREAM_PREFIX } from '../../streams/purchase/purchase-id.js';

// The facts of one event in TypeScript: exactly what the SQL stores compute into their `facts_v5`
// column (src/store/sql/event-facts-sql.ts). Used where events arrive whole (EventStoreDB feed, the
// fallback for Delivered events written before they carried their own proof digest).
// test/projections/read-models.test.ts holds both to the same output.

type J = Record<string, unknown>;
const obj = (v: unknown): J | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as J) : undefined;
const at = (v: unknown, ...path: (string | number)[]): unknown => {
  let cur: unknown = v;
  for (const key of path) {
    if (typeof key === 'number') cur = Array.isArray(cur) ? cur[key] : undefined;
    else cur = obj(cur)?.[key];
    if (cur === undefined) return undefined;
  }
  return cur;
};
/** `x#>'{…}'` in SQL: a missing path is null. */
const json = (v: unknown, ...path: (string | number)[]): unknown => at(v, ...path) ?? null;
/** `x#>>'{…}'` in SQL: strings as they are, other scalars as their JSON text, missing or null as null. */
const text = (v: unknown, ...path: (string | number)[]): string | null => {
  const x = at(v, ...path);
  if (x === undefined || x === null) return null;
  return typeof x === 'string' ? x : JSON.stringify(x);
};
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const strings = (xs: unknown[]): string[] => xs.filter((x): x is string => typeof x === 'string');

function quotedFacts(data: unknown): J {
  const reading = at(data, 'reading');
  const readings = list(at(reading, 'readings'));
  const observed = strings(readings.map((r) => at(r, 'observed_at'))).sort()[0] ?? null;
  return {
    sku: json(data, 'sku'),
    resource: json(data, 'input', 'resource'),
    purpose: json(data, 'input', 'purpose'),
    user_class: json(data, 'input', 'user_class'),
    tier: json(data, 'input', 'tier'),
    price_micro: json(data, 'price_micro'),
    expires_at: json(data, 'expires_at'),
    classification: json(data, 'decision_preview', 'classification'),
    decision: json(data, 'decision_preview', 'decision'),
    payer: json(data, 'payer'),
    origin: text(reading, 'origin') ?? text(reading, 'readings', 0, 'origin'),
    geo: text(reading, 'geo') ?? text(data, 'input', 'geo'),
    observed_at: text(reading, 'observed_at') ?? observed,
    rsl_documents: [
      ...strings(list(at(reading, 'documents')).map((d) => at(d, 'sha256'))),
      ...strings(readings.flatMap((r) => list(at(r, 'documents')).map((d) => at(d, 'sha256')))),
    ],
    resources: readings.length === 0 ? null : readings.map((r) => resourceLine(r, json(data, 'input', 'purpose'))),
  };
}

/** One gate reading as a line of what was sold (facts version 2). */
function resourceLine(r: unknown, purpose: unknown): J {
  // jsonb_path_query_first: the first entry of the purpose that has the field.
  const ofPurpose = (field: string) =>
    json(
      list(at(r, 'purposes')).find(
        (p) =>
          at(p, 'purpose') !== undefined &&
          JSON.stringify(at(p, 'purpose')) === JSON.stringify(purpose) &&
          at(p, field) !== undefined,
      ),
      field,
    );
  return {
    resource: json(r, 'resource'),
    origin: json(r, 'origin'),
    classification: ofPurpose('classification'),
    decision: ofPurpose('decision'),
    observed_at: json(r, 'observed_at'),
    rsl_documents: strings(list(at(r, 'documents')).map((d) => at(d, 'sha256'))),
  };
}

/** Facts version 3: per resource of the delivered report, the `changed` it states (a revalidation's); else []. */
export const changedOfDelivered = (data: unknown): boolean[] =>
  list(at(data, 'response', 'report', 'resources'))
    .map((r) => at(r, 'changed'))
    .filter((c): c is boolean => typeof c === 'boolean');

/**
 * Facts version 4: per resource of the delivered report, in its order, the signals beside RSL it states
 * (docs/wire.md §15): its `signals_summary` (null where it states none: a report delivered before signals
 * were read) and its observations as "standard:sha256" (null where it has no `signals`).
 */
export function signalsOfDelivered(data: unknown): {
  signals_summary: (string | null)[];
  signals: (string[] | null)[];
} {
  const resources = list(at(data, 'response', 'report', 'resources'));
  return {
    signals_summary: resources.map((r) => {
      const s = at(r, 'signals_summary');
      return typeof s === 'string' ? s : null;
    }),
    signals: resources.map((r) => {
      const observations = at(r, 'signals');
      if (!Array.isArray(observations)) return null;
      return observations.flatMap((o) => {
        const [standard, sha256] = [at(o, 'standard'), at(o, 'sha256')];
        return typeof standard === 'string' && typeof sha256 === 'string' ? [`${standard}:${sha256}`] : [];
      });
    }),
  };
}

function purchaseFacts(type: string, data: unknown): unknown {
  switch (type) {
    case 'Quoted':
      return quotedFacts(data);
    case 'Offered':
      return { nonce: json(data, 'nonce'), expires_at: json(data, 'expires_at') };
    case 'AuthorizationCheckpointed':
      return {
        payer: json(data, 'payer'),
        amount: json(data, 'amount'),
        nonce: json(data, 'nonce'),
        valid_before: json(data, 'valid_before'),
        at: json(data, 'at'),
      };
    case 'Delivered':
      return {
        report_sha256: json(data, 'response', 'delivery_proof', 'payload', 'report_sha256'),
        evidence_sha256: json(data, 'response', 'delivery_proof', 'payload', 'evidence_sha256'),
        delivery_proof_sha256: json(data, 'delivery_proof_sha256'),
        evidence_key_id: json(data, 'response', 'evidence', 'payload', 'key_id'),
        delivered_at: json(data, 'response', 'delivery_proof', 'payload', 'delivered_at'),
        changed: changedOfDelivered(data),
        ...signalsOfDelivered(data),
      };
    default:
      return data;
  }
}

/** The facts of an event of any stream; null for streams no read model follows. */
export function factsOf(stream: string, type: string, data: unknown): unknown {
  if (stream.startsWith(STREAM_PREFIX)) return purchaseFacts(type, data);
  if (stream.startsWith(REFUND_STREAM_PREFIX)) return data;
  return null;
}
