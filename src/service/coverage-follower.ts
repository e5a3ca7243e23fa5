import { handleCommand } from '../command/handle-command.js';
import type { Logger } from '../runtime/log.js';
import type { Coverage } from '../rsl/coverage.js';
import { Doorbell } from '../store/doorbell.js';
import type { EventStoreWithProjections } from '../store/store-with-projections.js';
import { COVERAGE_STREAM, coverageDecider, coveredOrigins, foldCoverage } from '../../streams/coverage/index.js';

// Every instance serves the coverage the ledger holds (streams/coverage/): at start it seeds an empty
// ledger from COVERED_ORIGINS (once, for the first instance; a ledger ever written is never seeded
// again), folds the `coverage` stream into the engine's live list, and re-reads the stream whenever the
// store says the coverage stream was appended to — its own appends and, on PostgreSQL, other instances'
// appends of any stream through LISTEN/NOTIFY (src/store/postgres/pg-driver.ts) — or when POLL_MS passes
// without a word (a lost notification, a store that cannot announce). docs/decisions.md, "Coverage in the
// ledger"; a purchase's append no longer re-reads it ("The embedded engine").

/** Upper bound on how long a change made elsewhere goes unseen when no notification arrives. */
const POLL_MS = 500;
/** Under a stream of appends (purchases) the coverage stream is read at most this often. */
const MIN_GAP_MS = 50;

export interface CoverageFollower {
  /** Reads the ledger now and applies it (an operator change answers after its own instance shows it). */
  refresh(): Promise<void>;
  stop(): Promise<void>;
}

export async function followCoverage(
  store: EventStoreWithProjections,
  coverage: Coverage,
  opts: { seed: readonly string[]; log: Logger; now?: () => Date },
): Promise<CoverageFollower> {
  await handleCommand(
    store,
    COVERAGE_STREAM,
    coverageDecider,
    {
      type: 'SeedCoverage',
      data: { origins: opts.seed, source: 'COVERED_ORIGINS' },
      metadata: { now: opts.now?.() ?? new Date() },
    },
    // Two instances starting at once: the loser re-reads a ledger that is no longer empty and adds nothing.
    { retryOnConflict: 2 },
  );
  let revision: bigint | undefined;
  const refresh = async () => {
    const events = await store.readStream(COVERAGE_STREAM);
    const last = events.at(-1)?.revision;
    if (last === revision) return;
    const origins = coveredOrigins(foldCoverage(events));
    const changed = origins.join(',') !== coverage.origins.join(',');
    coverage.replace(origins);
    revision = last;
    if (changed) opts.log.info({ origins: origins.length, revision: String(last) }, 'coverage changed');
  };
  // Listening before the first read: an append between the read and the loop still rings.
  const bell = new Doorbell();
  const ring = () => bell.ring();
  const unlisten = store.onStreamAppend?.(COVERAGE_STREAM, ring) ?? store.onAppend?.(ring) ?? (() => {});
  let seen = bell.count;
  await refresh().catch((err) => {
    unlisten();
    throw err;
  });
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      await bell.wait(seen, POLL_MS);
      if (stopped) return;
      seen = bell.count;
      await refresh().catch((err: Error) =>
        opts.log.warn({ err: { message: err.message } }, 'coverage ledger read failed; retrying'),
      );
      await new Promise((r) => setTimeout(r, MIN_GAP_MS));
    }
  })();
  return {
    refresh,
    async stop() {
      stopped = true;
      unlisten();
      bell.ring();
      await loop;
    },
  };
}
