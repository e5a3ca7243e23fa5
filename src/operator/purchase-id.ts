import { purchaseIdsWithPrefix } from '../../projections/queries/purchases.js';
import * as t from 'io-ts';
import type { SqlQueryable } from '../store/sql-driver.js';
import type { EventStoreWithProjections } from '../store/store-with-projections.js';
import { STREAM_PREFIX } from '../../streams/purchase/purchase-id.js';
import type { OperatorSession } from './session.js';
import { UsageError } from './usage-error.js';
import { PurchaseId } from '@rights-preflight/wire/contract/common.js';

// A purchase id as an operator gives it (command line, API path), git style: the full 64-hex id,
// `purchase-<id>`, or a unique prefix of at least MIN_PREFIX hex characters, looked up in the report
// view (rm_purchases, which has an index for prefixes). The shape is checked before anything is
// opened (a usage error); the lookup answers with the id or a refusal:
//
//   NO_SUCH_PURCHASE   no purchase id starts with the prefix (or the full id is unknown)
//   AMBIGUOUS_PREFIX   several do; the refusal names up to MAX_CANDIDATES of them
//
//   const arg = parsePurchaseIdArg('purchase-3f9a');            // { prefix: '3f9a' }
//   const r = await resolvePurchaseId(models.db, arg);           // { id: '3f9a…' } | { refused }

export const MIN_PREFIX = 4;
export const MAX_CANDIDATES = 10;
const HEX_ID = 64;

/** A checked argument: what parsePurchaseIdArg returns, and what a relayed request carries. */
export const PurchaseIdArg = t.union([
  t.type({ id: PurchaseId }),
  t.type({ prefix: t.refinement(t.string, (s) => /^[0-9a-f]{4,63}$/.test(s), 'PurchaseIdPrefix') }),
]);
export type PurchaseIdArg = { id: string } | { prefix: string };

export interface PurchaseIdRefusal {
  code: 'NO_SUCH_PURCHASE' | 'AMBIGUOUS_PREFIX';
  message: string;
  details?: { candidates: string[] };
}

/** Checks the argument's shape (usage errors): hex, at least MIN_PREFIX characters, at most a full id. */
export function parsePurchaseIdArg(arg: string): PurchaseIdArg {
  const hex = (arg.startsWith(STREAM_PREFIX) ? arg.slice(STREAM_PREFIX.length) : arg).toLowerCase();
  if (!/^[0-9a-f]+$/.test(hex) || hex.length > HEX_ID) {
    throw new UsageError(
      `${JSON.stringify(arg)} is not a purchase id: ` +
        `give the 64 hex characters (or purchase-<id>) or a unique prefix of at least ${MIN_PREFIX}`,
    );
  }
  if (hex.length < MIN_PREFIX)
    throw new UsageError(
      `the purchase id prefix ${JSON.stringify(hex)} is too short: give at least ${MIN_PREFIX} hex characters`,
    );
  return hex.length === HEX_ID ? { id: hex } : { prefix: hex };
}

/** The purchase the argument names, from the read models (the caller brought them up to date). */
export async function resolvePurchaseId(
  db: SqlQueryable,
  arg: PurchaseIdArg,
): Promise<{ id: string } | { refused: PurchaseIdRefusal }> {
  const wanted = 'id' in arg ? arg.id : arg.prefix;
  const found = await purchaseIdsWithPrefix(db, wanted, MAX_CANDIDATES + 1);
  if (found.length === 1) return { id: found[0]! };
  if (found.length === 0) {
    return {
      refused: {
        code: 'NO_SUCH_PURCHASE',
        message: 'id' in arg ? `no purchase ${wanted}` : `no purchase id starts with ${wanted}`,
      },
    };
  }
  const candidates = found.slice(0, MAX_CANDIDATES);
  const count = found.length > MAX_CANDIDATES ? `more than ${MAX_CANDIDATES}` : String(found.length);
  return {
    refused: {
      code: 'AMBIGUOUS_PREFIX',
      message:
        `${count} purchase ids start with ${wanted}; ` +
        `give more characters: ${candidates.join(', ')}${found.length > MAX_CANDIDATES ? ', …' : ''}`,
      details: { candidates },
    },
  };
}

/**
 * Runs `work` on the purchase the argument names. A full id needs no lookup: the store alone is
 * opened, as the commands always did. A prefix opens the read models, brought up to date first.
 */
export async function withPurchase<T>(
  session: OperatorSession,
  arg: PurchaseIdArg,
  work: (store: EventStoreWithProjections, purchaseId: string) => Promise<T>,
): Promise<T | { refused: PurchaseIdRefusal }> {
  if ('id' in arg) return work(await session.store(), arg.id);
  const models = await session.models();
  const r = await resolvePurchaseId(models.db, arg);
  return 'refused' in r ? r : work(await session.store(), r.id);
}
