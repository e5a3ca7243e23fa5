import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import type { FromWorker, ToWorker, WorkerError } from './pglite-worker-protocol.js';

// The embedded PostgreSQL (PGlite) on a thread of its own: the service's event loop only sends SQL and
// receives rows, so an append's work no longer stalls HTTP (docs/decisions.md, "The embedded engine").
// Queries and transactions are serialized by PGlite itself, as they were on the main thread: a query sent
// outside a transaction waits until the open one ends.

const port = parentPort!;
const { dir, startParams } = workerData as { dir: string; startParams: string[] };

const ROLLBACK = Symbol('rollback');
const open = new Map<
  number,
  { tx: Transaction; end: (end: { commit: boolean; last?: string }) => void; endId?: number }
>();

const post = (message: FromWorker) => port.postMessage(message);

function errorOf(err: unknown): WorkerError {
  if (!(err instanceof Error)) return { message: String(err) };
  // A DatabaseError's own fields (code, detail, constraint…) decide how the store maps it: carry them all.
  const fields: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(err)) if (typeof v !== 'function' && typeof v !== 'object') fields[k] = v;
  return { ...fields, message: err.message, name: err.name };
}

const dbReady = PGlite.create(dir, { startParams });

function begin(id: number, txId: number, first: string | undefined, db: PGlite): void {
  let begun = false;
  db.transaction(async (tx) => {
    if (first) await tx.query(first);
    const end = await new Promise<{ commit: boolean; last?: string }>((resolve) => {
      open.set(txId, { tx, end: resolve });
      begun = true;
      post({ id, rows: [] });
    });
    if (!end.commit) throw ROLLBACK;
    if (end.last) await tx.query(end.last);
  }).then(
    () => ended(txId, undefined),
    (err: unknown) => {
      // BEGIN or the first statement failed: the transaction never opened, and BEGIN's answer says why.
      if (!begun) post({ id, error: errorOf(err) });
      else ended(txId, err === ROLLBACK ? undefined : err);
    },
  );
}

function ended(txId: number, err: unknown): void {
  const entry = open.get(txId);
  open.delete(txId);
  if (entry?.endId === undefined) return;
  post(err === undefined ? { id: entry.endId, rows: [] } : { id: entry.endId, error: errorOf(err) });
}

async function handle(m: ToWorker): Promise<void> {
  let db: PGlite;
  try {
    db = await dbReady;
  } catch (err) {
    post({ id: m.id, error: errorOf(err) });
    return;
  }
  switch (m.op) {
    case 'query': {
      const on = m.tx === undefined ? db : open.get(m.tx)?.tx;
      if (!on) return post({ id: m.id, error: { message: `transaction ${m.tx} is not open` } });
      return on.query(m.text, m.params).then(
        (r) => post({ id: m.id, rows: r.rows }),
        (err: unknown) => post({ id: m.id, error: errorOf(err) }),
      );
    }
    case 'begin':
      return begin(m.id, m.tx, m.first, db);
    case 'end': {
      const entry = open.get(m.tx);
      if (!entry) return post({ id: m.id, error: { message: `transaction ${m.tx} is not open` } });
      entry.endId = m.id;
      entry.end({ commit: m.commit, ...(m.last ? { last: m.last } : {}) });
      return;
    }
    case 'close':
      await db.close().catch(() => {});
      post({ id: m.id, rows: [] });
      port.close();
      return;
  }
}

port.on('message', (m: ToWorker) => void handle(m));
