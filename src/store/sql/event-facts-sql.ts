// The facts column: for every purchase and refund event, the few fields the read models need,
// computed by the database when the event is written (a STORED generated column). The read models
// rebuild from this small column instead of detoasting and shipping each event's whole data
// (readings, signed envelopes, the delivered response: kilobytes per event that no read model
// needs), which is what made `$all` reads top out at 8–12k events/s on the embedded store.
//
// projections/feed/event-facts.ts is the same extraction in TypeScript (for stores without this
// column, i.e. EventStoreDB); test/projections/read-models.test.ts holds the two to the same output.
// The column is `json`, stored as text, not `jsonb`: nothing queries inside it, and a rebuild reads
// it for every event, where jsonb's conversion back to text was ~4 µs of the database's CPU per event.
// Shipped text is never edited: a change is a new function and column (`…_v2`) in a new migration.

export const EVENT_FACTS_V1 = `
CREATE FUNCTION rp_event_facts_v1(stream text, type text, data jsonb) RETURNS jsonb
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $fn$
  SELECT CASE
    WHEN stream LIKE 'purchase-%' THEN CASE type
      WHEN 'Quoted' THEN jsonb_build_object(
        'sku', data->'sku',
        'resource', data#>'{input,resource}',
        'purpose', data#>'{input,purpose}',
        'user_class', data#>'{input,user_class}',
        'tier', data#>'{input,tier}',
        'price_micro', data->'price_micro',
        'expires_at', data->'expires_at',
        'classification', data#>'{decision_preview,classification}',
        'decision', data#>'{decision_preview,decision}',
        'payer', data->'payer',
        'origin', to_jsonb(coalesce(data#>>'{reading,origin}', data#>>'{reading,readings,0,origin}')),
        'geo', to_jsonb(coalesce(data#>>'{reading,geo}', data#>>'{input,geo}')),
        'observed_at', to_jsonb(coalesce(data#>>'{reading,observed_at}',
          (SELECT min(x) FROM jsonb_array_elements_text(jsonb_path_query_array(data->'reading',
            '$.readings[*].observed_at ? (@.type() == "string")')) AS x))),
        'rsl_documents', jsonb_path_query_array(data->'reading', '$.documents[*].sha256 ? (@.type() == "string")')
                      || jsonb_path_query_array(data->'reading',
                        '$.readings[*].documents[*].sha256 ? (@.type() == "string")'))
      WHEN 'Offered' THEN jsonb_build_object('nonce', data->'nonce', 'expires_at', data->'expires_at')
      WHEN 'AuthorizationCheckpointed' THEN jsonb_build_object(
        'payer', data->'payer', 'amount', data->'amount', 'nonce', data->'nonce', 'valid_before',
          data->'valid_before', 'at', data->'at')
      WHEN 'Delivered' THEN jsonb_build_object(
        'report_sha256', data#>'{response,delivery_proof,payload,report_sha256}',
        'evidence_sha256', data#>'{response,delivery_proof,payload,evidence_sha256}',
        'delivery_proof_sha256', data->'delivery_proof_sha256',
        'evidence_key_id', data#>'{response,evidence,payload,key_id}',
        'delivered_at', data#>'{response,delivery_proof,payload,delivered_at}')
      ELSE data
    END
    WHEN stream LIKE 'refund-%' THEN data
    ELSE NULL
  END
$fn$;
ALTER TABLE events ADD COLUMN facts_v1 json GENERATED ALWAYS AS (rp_event_facts_v1(stream, type, data)::json) STORED;`;

// Version 2 (store migration 4): a Quoted event's facts also name each resource it covers, as the
// purchase sold them: for an ingestion gate one line per reading (resource, origin, the classification
// and decision of the gate's purpose, observed_at, the RSL documents' sha256), null for a single report
// (its own fields are its one line). So every read model shows a 4-URL gate as 4 resources under their
// own origins (docs/decisions.md, "Every resource as it was sold"). The rest is version 1's.
export const EVENT_FACTS_V2 = `
CREATE FUNCTION rp_event_facts_v2(stream text, type text, data jsonb) RETURNS jsonb
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $fn$
  SELECT CASE
    WHEN stream LIKE 'purchase-%' AND type = 'Quoted' THEN rp_event_facts_v1(stream, type, data)
      || jsonb_build_object('resources', (
        SELECT jsonb_agg(jsonb_build_object(
            'resource', r->'resource',
            'origin', r->'origin',
            'classification', jsonb_path_query_first(r, '$.purposes[*] ? (@.purpose == $p).classification',
              jsonb_build_object('p', data#>'{input,purpose}')),
            'decision', jsonb_path_query_first(r, '$.purposes[*] ? (@.purpose == $p).decision',
              jsonb_build_object('p', data#>'{input,purpose}')),
            'observed_at', r->'observed_at',
            'rsl_documents', jsonb_path_query_array(r, '$.documents[*].sha256 ? (@.type() == "string")'))
          ORDER BY x.ord)
        FROM jsonb_array_elements(CASE WHEN jsonb_typeof(data#>'{reading,readings}') = 'array'
          THEN data#>'{reading,readings}' ELSE '[]'::jsonb END) WITH ORDINALITY AS x(r, ord)))
    ELSE rp_event_facts_v1(stream, type, data)
  END
$fn$;
ALTER TABLE events ADD COLUMN facts_v2 json GENERATED ALWAYS AS (rp_event_facts_v2(stream, type, data)::json) STORED;
ALTER TABLE events DROP COLUMN facts_v1;`;

// Version 3 (store migration 6): a Delivered event's facts also say, per resource of the delivered report
// and in its order, whether the report states the resource `changed` (a revalidation's entries do; every
// other SKU's none, so `[]`). Taken from the signed report itself, so the compliance report counts the
// changes the buyer was sold (docs/decisions.md, "Revalidation on the read side"). The rest
// is version 2's.
export const EVENT_FACTS_V3 = `
CREATE FUNCTION rp_event_facts_v3(stream text, type text, data jsonb) RETURNS jsonb
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $fn$
  SELECT CASE
    WHEN stream LIKE 'purchase-%' AND type = 'Delivered' THEN rp_event_facts_v2(stream, type, data)
      || jsonb_build_object('changed',
        jsonb_path_query_array(data, '$.response.report.resources[*].changed ? (@.type() == "boolean")'))
    ELSE rp_event_facts_v2(stream, type, data)
  END
$fn$;
ALTER TABLE events ADD COLUMN facts_v3 json GENERATED ALWAYS AS (rp_event_facts_v3(stream, type, data)::json) STORED;
ALTER TABLE events DROP COLUMN facts_v2;`;

// Version 4 (store migration 7): a Delivered event's facts also carry, per resource of the delivered report
// and in its order, the signals beside RSL the report states (docs/wire.md §15): `signals_summary` (the resource's
// summary, or null where the report states none: a report drafted before signals were read) and `signals`
// (each observation as "standard:sha256", in report order, or null where the report has no `signals`). Taken
// from the signed report itself, as version 3's `changed` is (docs/decisions.md, "The signals on
// the read side"). The rest is version 3's.
export const EVENT_FACTS_V4 = `
CREATE FUNCTION rp_event_facts_v4(stream text, type text, data jsonb) RETURNS jsonb
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $fn$
  SELECT CASE
    WHEN stream LIKE 'purchase-%' AND type = 'Delivered' THEN rp_event_facts_v3(stream, type, data)
      || (SELECT jsonb_build_object(
            'signals_summary', coalesce(jsonb_agg(CASE WHEN jsonb_typeof(r->'signals_summary') = 'string'
              THEN r->'signals_summary' ELSE 'null'::jsonb END ORDER BY x.ord), '[]'::jsonb),
            'signals', coalesce(jsonb_agg(CASE WHEN jsonb_typeof(r->'signals') = 'array'
              THEN (SELECT coalesce(jsonb_agg(to_jsonb((o->>'standard') || ':' || (o->>'sha256')) ORDER BY y.i),
                      '[]'::jsonb)
                    FROM jsonb_array_elements(r->'signals') WITH ORDINALITY AS y(o, i)
                    WHERE jsonb_typeof(o->'standard') = 'string' AND jsonb_typeof(o->'sha256') = 'string')
              ELSE 'null'::jsonb END ORDER BY x.ord), '[]'::jsonb))
          FROM jsonb_array_elements(CASE WHEN jsonb_typeof(data#>'{response,report,resources}') = 'array'
            THEN data#>'{response,report,resources}' ELSE '[]'::jsonb END) WITH ORDINALITY AS x(r, ord))
    ELSE rp_event_facts_v3(stream, type, data)
  END
$fn$;
ALTER TABLE events ADD COLUMN facts_v4 json GENERATED ALWAYS AS (rp_event_facts_v4(stream, type, data)::json) STORED;
ALTER TABLE events DROP COLUMN facts_v3;`;

// Version 5 (store migration 8): the same facts as version 4, computed without going through versions 3 and
// 4 for the events they do not change. Every facts function called the previous one, and each SQL-function
// level took the event's data again (a large jsonb for a Quoted event): a Quoted event's facts cost ~0.7 ms of
// PostgreSQL CPU at version 4 against ~0.2 ms at version 2, which cost 15% of the quote throughput
// (docs/decisions.md, "The plumbing of the signals beside RSL"). The generated column chooses the level
// itself: version 4 for a purchase's Delivered event (the only one versions 3 and 4 add to), version 2 for
// every other event, whose version 3 and 4 facts are exactly its version 2 facts. No new function.
export const EVENT_FACTS_V5 = `
ALTER TABLE events ADD COLUMN facts_v5 json GENERATED ALWAYS AS ((CASE
    WHEN stream LIKE 'purchase-%' AND type = 'Delivered' THEN rp_event_facts_v4(stream, type, data)
    ELSE rp_event_facts_v2(stream, type, data)
  END)::json) STORED;
ALTER TABLE events DROP COLUMN facts_v4;`;
