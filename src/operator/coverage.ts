import { handleCommand } from '../command/handle-command.js';
import { createRslEngine } from '../rsl/engine.js';
import type { ResourceReading } from '../rsl/reading.js';
import { REPORT_PURPOSES } from '@rights-preflight/wire/rsl/purposes.js';
import {
  COVERAGE_STREAM,
  coverageDecider,
  CoverageRefused,
  exactHttpsOrigin,
  foldCoverage,
  type CoverageCommandBody,
  type CoverageEvent,
  type OriginStatus,
  type ReviewObservation,
} from '../../streams/coverage/index.js';
import type { CoverageChangeRequest } from './contract.js';
import type { OperatorSession } from './session.js';

// The operator's side of coverage (spec §1.4; `ops coverage`, the operator API): review an origin —
// run discovery on its home page exactly as a report would, with a fetcher scoped to that origin alone,
// and record what a buyer would get — then add it on that review, or withdraw it. Each change is decided
// on the folded `coverage` stream and appended at its revision (streams/coverage/decide.ts); every
// instance follows the stream (src/service/coverage-follower.ts). docs/decisions.md, "Coverage in the ledger".

type Refused = { refused: { code: string; message: string } };

export interface CoverageLine {
  origin: string;
  status: OriginStatus;
  /** Covered since (seed or add); null when not covered. */
  since: string | null;
  reviewed_at: string | null;
  reviewed_by: string | null;
}

export interface CoverageHistoryLine {
  revision: string;
  type: CoverageEvent['type'];
  data: CoverageEvent['data'];
}

/** The review's discovery: the origin's home page, every paid purpose, fetched fresh. */
export async function observeOrigin(session: OperatorSession, origin: string): Promise<ReviewObservation> {
  // A fetcher of its own, scoped to this origin: the service's fetcher refuses anything not yet covered.
  const engine = createRslEngine({ ...session.config, coveredOrigins: [origin] });
  try {
    const reading = await engine.observe(`${origin}/`, REPORT_PURPOSES, {
      userClass: 'commercial',
      geo: null,
      freshnessSeconds: 0,
    });
    return summarize(reading);
  } finally {
    engine.close();
  }
}

const summarize = (r: ResourceReading): ReviewObservation => ({
  resource: r.resource,
  observed_at: new Date(r.observed_at).toISOString(),
  declaration_found: r.declaration_found,
  discovery_complete: r.discovery_complete,
  channels: r.observations.map((o) => ({
    channel: o.channel,
    url: o.url,
    status: o.status,
    error: o.error?.code ?? null,
  })),
  license_documents: r.documents.map((d) => ({
    url: d.url,
    channel: d.channel,
    parsed: d.parsed,
    conformant: d.conformant,
  })),
  purposes: r.purposes.map((p) => ({ purpose: p.purpose, classification: p.classification, decision: p.decision })),
  signals: r.signals ?? [],
  diagnostics: r.diagnostics.slice(0, 20),
});

async function change(
  session: OperatorSession,
  body: CoverageCommandBody,
): Promise<{ event: CoverageEvent; revision: string } | Refused> {
  const store = await session.store();
  try {
    const done = await handleCommand(store, COVERAGE_STREAM, coverageDecider, {
      ...body,
      metadata: { now: session.now() },
    });
    return { event: done.events[0]!, revision: String(done.revision) };
  } catch (err) {
    if (err instanceof CoverageRefused) return { refused: { code: err.code, message: err.message } };
    throw err;
  }
}

/** Reviews an origin: discovery on it now, recorded with who asked and why. */
export async function reviewOrigin(session: OperatorSession, r: CoverageChangeRequest) {
  const origin = exactHttpsOrigin(r.origin);
  if (!origin)
    return {
      refused: { code: 'COVERAGE_ORIGIN_INVALID', message: `"${r.origin}" is not an exact https origin` },
    } satisfies Refused;
  const observed = await observeOrigin(session, origin);
  return change(session, { type: 'ReviewOrigin', data: { ...r, origin, observed } });
}

export const addOrigin = (session: OperatorSession, r: CoverageChangeRequest) =>
  change(session, { type: 'AddOrigin', data: r });

export const withdrawOrigin = (session: OperatorSession, r: CoverageChangeRequest) =>
  change(session, { type: 'WithdrawOrigin', data: r });

/** The three changes of an origin's coverage, by the name the operator API posts each under. */
export const COVERAGE_CHANGES = { review: reviewOrigin, add: addOrigin, withdraw: withdrawOrigin } as const;

/** Every origin the ledger names, with its status. */
export async function listCoverage(session: OperatorSession): Promise<CoverageLine[]> {
  const state = foldCoverage(await (await session.store()).readStream(COVERAGE_STREAM));
  return [...state.origins].map(([origin, e]) => ({
    origin,
    status: e.status,
    since: e.status === 'covered' ? (e.since ?? null) : null,
    reviewed_at: e.review?.at ?? null,
    reviewed_by: e.review?.operator ?? null,
  }));
}

/** The ledger's events, oldest first; with `origin`, only those about it. */
export async function coverageHistory(session: OperatorSession, origin?: string): Promise<CoverageHistoryLine[]> {
  const events = await (await session.store()).readStream(COVERAGE_STREAM);
  const o = origin === undefined ? undefined : (exactHttpsOrigin(origin) ?? origin);
  return events
    .map((e) => ({ revision: String(e.revision), type: e.type, data: e.data }) as CoverageHistoryLine)
    .filter((e) =>
      o === undefined
        ? true
        : e.type === 'CoverageSeeded'
          ? (e.data as { origins: string[] }).origins.includes(o)
          : (e.data as { origin: string }).origin === o,
    );
}
