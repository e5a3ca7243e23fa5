import type { ComplianceExportRow, DayRange } from '../../projections/compliance/compliance-row.js';
import type { Config } from '../../src/config/config.js';
import type { ReplayProgress } from '../../src/operator/replay.js';
import type { RequestOf, UseCaseName, UseCaseResult } from '../../src/operator/use-cases.js';

// What every operator command gets: the service's own configuration (same env: EVENT_STORE_URL,
// DATA_DIR, EVIDENCE_KEY), a line printer, a clock, and the operator use-cases to call: run here on
// the store the CLI opens itself (local-service.ts), or in the running service through its operator
// listener (ops/client/relayed-service.ts). A command checks its arguments, asks, and prints.

export interface OperatorService {
  run<U extends UseCaseName>(request: RequestOf<U>): Promise<UseCaseResult<U>>;
  /** The compliance rows delivered in `range`, handed to `consume` as they are read. */
  complianceRows<T>(range: DayRange, consume: (rows: AsyncIterable<ComplianceExportRow>) => Promise<T>): Promise<T>;
  /** The replay use-case, telling `onProgress` how far the rebuild is while it runs. */
  replay(onProgress: (p: ReplayProgress) => void): Promise<UseCaseResult<'replay'>>;
}

export interface OperatorContext {
  config: Config;
  out: (line: string) => void;
  err: (line: string) => void;
  now: () => Date;
  service: OperatorService;
}

/** Exit codes: 0 fine, 1 a finding (violation, refusal), 2 could not run (usage, config, store locked). */
export const EXIT = { ok: 0, finding: 1, cannotRun: 2 } as const;

/** Thrown when the embedded store is held by another process (the running service). */
export class OperatorStoreLocked extends Error {
  readonly code = 'STORE_LOCKED';
}

/** Thrown when EVENT_STORE_URL names no store: the command refuses instead of creating an empty one. */
export class OperatorNoStore extends Error {
  readonly code = 'NO_STORE';
}

/** The operator listener refused or failed the request itself (not the use-case): the command cannot run. */
export class OperatorListenerRefused extends Error {}
