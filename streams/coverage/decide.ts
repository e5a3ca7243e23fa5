import { isLeft } from 'fp-ts/lib/Either.js';
import { Refusal } from '@rights-preflight/wire/refusal.js';
import type { Command, Decider } from '../decider.js';
import { CoverageEvent, exactHttpsOrigin, type ReviewObservation } from './events.js';
import { evolveCoverage } from './evolve.js';
import { initialCoverageState, type CoverageState } from './state.js';

// decide(command, state) → events. Pure. An origin is covered only after a review of it that is recent
// (the operator saw what a buyer would get); a seed from COVERED_ORIGINS applies to a ledger that has
// never been written (docs/decisions.md, "Coverage in the ledger").

export const COVERAGE_REFUSAL_CODES = [
  'COVERAGE_ORIGIN_INVALID', // not an exact https origin (no path, port, credentials)
  'COVERAGE_NOT_REVIEWED', // an add without a review since the origin was last withdrawn (or ever)
  'COVERAGE_REVIEW_STALE', // the review is older than REVIEW_VALID_DAYS
  'COVERAGE_ALREADY_COVERED', // an add of a covered origin
  'COVERAGE_NOT_COVERED', // a withdrawal of an origin that is not covered
  'COVERAGE_INVALID_EVENT', // command data its codec refuses (an empty operator or reason…)
] as const;
export type CoverageRefusalCode = (typeof COVERAGE_REFUSAL_CODES)[number];

export class CoverageRefused extends Refusal {
  override readonly name = 'CoverageRefused';
  constructor(
    override readonly code: CoverageRefusalCode,
    message: string,
  ) {
    super(code, message);
  }
}

/** A review older than this no longer supports an add: the publisher's files may have changed. */
export const REVIEW_VALID_DAYS = 7;

interface Who {
  origin: string;
  operator: string;
  reason: string;
}

export type CoverageCommandBody =
  | { type: 'SeedCoverage'; data: { origins: readonly string[]; source: string } }
  | { type: 'ReviewOrigin'; data: Who & { observed: ReviewObservation } }
  | { type: 'AddOrigin'; data: Who }
  | { type: 'WithdrawOrigin'; data: Who };
export type CoverageCommand = Command<CoverageCommandBody>;

const refuse = (code: CoverageRefusalCode, message: string): never => {
  throw new CoverageRefused(code, message);
};

function checked(event: CoverageEvent): CoverageEvent[] {
  if (isLeft(CoverageEvent.decode(event)))
    refuse(
      'COVERAGE_INVALID_EVENT',
      `${event.type} data does not satisfy its codec (operator and reason are required)`,
    );
  return [event];
}

function originOf(given: string): string {
  return (
    exactHttpsOrigin(given) ??
    refuse('COVERAGE_ORIGIN_INVALID', `"${given}" is not an exact https origin like https://publisher.example`)
  );
}

// One function per command (Emmett's shape); the `never` makes a command without a function a compile error.
export function decideCoverage(command: CoverageCommand, state: CoverageState): CoverageEvent[] {
  switch (command.type) {
    case 'SeedCoverage':
      return seedCoverage(command, state);
    case 'ReviewOrigin':
      return reviewOrigin(command);
    case 'AddOrigin':
      return addOrigin(command, state);
    case 'WithdrawOrigin':
      return withdrawOrigin(command, state);
    default: {
      const _exhaustive: never = command;
      return refuse('COVERAGE_INVALID_EVENT', `unknown command ${(_exhaustive as { type: string }).type}`);
    }
  }
}

type CommandOf<T extends CoverageCommand['type']> = Extract<CoverageCommand, { type: T }>;

function seedCoverage(command: CommandOf<'SeedCoverage'>, state: CoverageState): CoverageEvent[] {
  // A ledger that was ever written is the truth; the environment no longer speaks for it.
  if (state.started || command.data.origins.length === 0) return [];
  const origins = [...new Set(command.data.origins.map(originOf))];
  const at = command.metadata.now.toISOString();
  return checked({ type: 'CoverageSeeded', data: { origins, source: command.data.source, at } });
}

function reviewOrigin(command: CommandOf<'ReviewOrigin'>): CoverageEvent[] {
  const { origin, operator, reason, observed } = command.data;
  const at = command.metadata.now.toISOString();
  return checked({
    type: 'OriginReviewed',
    data: { origin: originOf(origin), operator: operator.trim(), reason: reason.trim(), at, observed },
  });
}

function addOrigin(command: CommandOf<'AddOrigin'>, state: CoverageState): CoverageEvent[] {
  const origin = originOf(command.data.origin);
  const entry = state.origins.get(origin);
  if (entry?.status === 'covered') refuse('COVERAGE_ALREADY_COVERED', `${origin} is covered already`);
  if (entry?.status !== 'reviewed' || !entry.review)
    refuse('COVERAGE_NOT_REVIEWED', `${origin} has no review since it was last withdrawn; review it first`);
  const reviewedAt = entry!.review!.at;
  const ageMs = command.metadata.now.getTime() - Date.parse(reviewedAt);
  if (ageMs > REVIEW_VALID_DAYS * 86_400_000)
    refuse('COVERAGE_REVIEW_STALE', `the review of ${origin} (${reviewedAt}) is older than ${REVIEW_VALID_DAYS} days`);
  return checked({
    type: 'OriginAdded',
    data: {
      origin,
      operator: command.data.operator.trim(),
      reason: command.data.reason.trim(),
      at: command.metadata.now.toISOString(),
      reviewed_at: reviewedAt,
    },
  });
}

function withdrawOrigin(command: CommandOf<'WithdrawOrigin'>, state: CoverageState): CoverageEvent[] {
  const origin = originOf(command.data.origin);
  if (state.origins.get(origin)?.status !== 'covered') refuse('COVERAGE_NOT_COVERED', `${origin} is not covered`);
  const { operator, reason } = command.data;
  const at = command.metadata.now.toISOString();
  return checked({ type: 'OriginWithdrawn', data: { origin, operator: operator.trim(), reason: reason.trim(), at } });
}

/** The coverage ledger's decider, in the shape src/command/handle-command.ts runs. */
export const coverageDecider: Decider<CoverageState, CoverageCommand, CoverageEvent> = {
  decide: decideCoverage,
  evolve: evolveCoverage,
  initialState: () => initialCoverageState,
};
