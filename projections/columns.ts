import type { SqlQueryable } from '../src/store/sql-driver.js';
import type { QueueItem } from './investigation-queue/queue-item.js';
import type { RefundRow } from './refunds/refund-row.js';
import type { ReportRow } from './report-view/report-row.js';

// Each read-model table's columns with their SQL types (schema.ts), for the two things that name every column:
// a page's upsert (write-batch.ts) and a row read back as JSON (queries/). `transaction` is a keyword of
// SQLite's, so the column is always written quoted (`ident`), which PostgreSQL reads as the same name.

export type Columns<Row> = readonly (readonly [keyof Row & string, string])[];

export const REPORT_COLUMNS: Columns<ReportRow> = [
  ['purchase_id', 'text'],
  ['status', 'text'],
  ['submissions', 'integer'],
  ['locked_from', 'text'],
  ['sku', 'text'],
  ['resource', 'text'],
  ['origin', 'text'],
  ['purpose', 'text'],
  ['user_class', 'text'],
  ['tier', 'text'],
  ['geo', 'text'],
  ['classification', 'text'],
  ['decision', 'text'],
  ['observed_at', 'text'],
  ['rsl_document_sha256', 'jsonb'],
  ['resources', 'jsonb'],
  ['price_micro', 'text'],
  ['expires_at', 'text'],
  ['quoted_at', 'text'],
  ['payer', 'text'],
  ['settled_amount_micro', 'text'],
  ['network', 'text'],
  ['transaction', 'text'],
  ['evidence_key_id', 'text'],
  ['report_sha256', 'text'],
  ['evidence_sha256', 'text'],
  ['delivery_proof_sha256', 'text'],
  ['delivered_at', 'text'],
  ['changed', 'jsonb'],
  ['signals_summary', 'jsonb'],
  ['signals', 'jsonb'],
  ['lock_reason', 'text'],
  ['updated_position', 'bigint'],
];

export const REFUND_COLUMNS: Columns<RefundRow> = [
  ['purchase_id', 'text'],
  ['status', 'text'],
  ['reason', 'text'],
  ['amount_micro', 'text'],
  ['requested_at', 'text'],
  ['reviewed_at', 'text'],
  ['paid_transaction', 'text'],
  ['updated_position', 'bigint'],
];

export const QUEUE_COLUMNS: Columns<QueueItem> = [
  ['purchase_id', 'text'],
  ['kind', 'text'],
  ['reason', 'text'],
  ['details', 'jsonb'],
  ['locked_from', 'text'],
  ['since_position', 'bigint'],
  ['since', 'text'],
];

/** A column's name as SQL text. */
export const ident = (name: string): string => (name === 'transaction' ? `"${name}"` : name);

/**
 * `alias`'s row as a JSON object, as text: PostgreSQL's `row_to_json`; in SQLite the columns one by one, a jsonb
 * column's text read as JSON and a boolean as true or false (SQLite keeps both as text and 0/1).
 */
export function rowJson(q: SqlQueryable, alias: string, columns: readonly (readonly [string, string])[]): string {
  if (q.dialect === 'postgres') return `row_to_json(${alias})::text`;
  return sqliteObject(alias, columns);
}

/** Rows of `alias` as one JSON array, as text (PostgreSQL's `json_agg`), in `order` when given. */
export function rowsJson(
  q: SqlQueryable,
  alias: string,
  columns: readonly (readonly [string, string])[],
  order?: string,
): string {
  const by = order === undefined ? '' : ` ORDER BY ${order}`;
  if (q.dialect === 'postgres') return `json_agg(${alias}${by})::text`;
  return `json_group_array(${sqliteObject(alias, columns)}${by})`;
}

function sqliteObject(alias: string, columns: readonly (readonly [string, string])[]): string {
  const value = (name: string, type: string) => {
    const column = `${alias}.${ident(name)}`;
    if (type === 'jsonb' || type === 'json') return `json(${column})`;
    if (type === 'boolean') return `json(CASE WHEN ${column} THEN 'true' WHEN ${column} IS NOT NULL THEN 'false' END)`;
    return column;
  };
  return `json_object(${columns.map(([name, type]) => `'${name}', ${value(name, type)}`).join(', ')})`;
}
