// Coverage (spec §1.4): an explicit list of exact https origins, the fold of the coverage ledger
// (streams/coverage/; COVERED_ORIGINS only seeds an empty ledger). Subdomains are never implied. The
// capabilities route lists it live; the URL rule and the fetcher both refuse anything outside it.
//
// The list is one array, changed in place by `replace` when the ledger changes (src/service/
// coverage-follower.ts): the URL rule, the fetcher and the products hold this array and read it on
// every call, so a change reaches all of them at once without rebuilding the engine
// (docs/decisions.md, "Coverage in the ledger").

export interface Coverage {
  /** Exact origins, e.g. "https://publisher.test", in ledger order, no duplicates. Live: read it per call. */
  readonly origins: readonly string[];
  readonly subdomainsImplied: false;
  isCovered(origin: string): boolean;
  /** Makes `origins` this list (in place), for every holder of the array. */
  replace(origins: readonly string[]): void;
}

const normalized = (origins: readonly string[]): string[] => [...new Set(origins.map((o) => new URL(o).origin))];

export function createCoverage(origins: readonly string[]): Coverage {
  const list = normalized(origins);
  return {
    origins: list,
    subdomainsImplied: false,
    isCovered: (origin) => list.includes(origin),
    replace(next) {
      list.splice(0, list.length, ...normalized(next));
    },
  };
}
