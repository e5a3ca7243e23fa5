// The little that differs between PGlite (embedded), `pg` (PostgreSQL server) and SQLite (embedded). PGlite and
// PostgreSQL run the same SQL; SQLite's text stands beside PostgreSQL's where the two differ, each statement
// in one place that holds both (`InDialects`), chosen by the driver's dialect (docs/decisions.md, "SQLite, the
// embedded engine").

/** The SQL a driver speaks: PostgreSQL's (PGlite and a server), or SQLite's. */
export type Dialect = 'postgres' | 'sqlite';

/** One statement written for each dialect, side by side. */
export type InDialects = Readonly<Record<Dialect, string>>;

export interface SqlQueryable {
  readonly dialect: Dialect;
  /**
   * `$1`, `$2`… placeholders in either dialect. On SQLite the driver also reads PostgreSQL's casts (`x::text`
   * becomes `CAST(x AS TEXT)`, `::json`/`::jsonb`/`::uuid`/`::text[]` go) and binds an array or an object as its
   * JSON text, so a statement whose only differences are those is written once.
   */
  query<Row>(text: string, params?: unknown[]): Promise<Row[]>;
}

/** The text of `statement` for the driver that runs it. */
export const inDialect = (q: SqlQueryable, statement: InDialects): string => statement[q.dialect];

export interface SqlDriver extends SqlQueryable {
  readonly kind: 'embedded' | 'postgres';
  /**
   * Runs `work` in one transaction (READ COMMITTED); commits if it resolves, rolls back if it throws.
   * `first` and `last` are parameterless statements run right after BEGIN and right before COMMIT: a
   * server driver sends each with its BEGIN or COMMIT in one round trip (docs/decisions.md, "One walk
   * for a paid redemption").
   */
  transaction<T>(work: (tx: SqlQueryable) => Promise<T>, edges?: TransactionEdges): Promise<T>;
  /**
   * The parameterless statement that, inside an append transaction, tells other processes that events
   * were committed (delivered on commit); undefined when no other process can be listening.
   */
  readonly announceAppendSql: string | undefined;
  /** Calls `wake` when another process announced an append; resolves to a stop function. */
  watchOtherWriters(wake: () => void): Promise<() => Promise<void>>;
  /** Driver errors that mean "the database cannot be reached" become StoreUnavailable; others pass through. */
  translateError(err: unknown): unknown;
  /**
   * Tries to become the one holder of `name` among every process on this database (the read models'
   * leader). Resolves to a lease, or undefined when another process holds it. The lease ends when
   * released, when this process dies, or when its connection is lost (then `lost` resolves).
   */
  tryLease(name: string): Promise<Lease | undefined>;
  close(): Promise<void>;
}

export interface TransactionEdges {
  first?: string;
  last?: string;
}

export interface Lease {
  /** Resolves if the lease is lost without being released (connection to the database gone). */
  readonly lost: Promise<void>;
  release(): Promise<void>;
}
