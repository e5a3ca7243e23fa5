// Coverage (spec §1.4): an explicit list of exact https origins from configuration
// (COVERED_ORIGINS). Subdomains are never implied. The capabilities route lists it live; the URL
// rule and the fetcher both refuse anything outside it.

export interface Coverage {
  /** Exact origins, e.g. "https://publisher.test", in configuration order, no duplicates. */
  readonly origins: readonly string[];
  readonly subdomainsImplied: false;
  isCovered(origin: string): boolean;
}

export function createCoverage(origins: readonly string[]): Coverage {
  const list = Object.freeze([...new Set(origins.map((o) => new URL(o).origin))]);
  return { origins: list, subdomainsImplied: false, isCovered: (origin) => list.includes(origin) };
}

/** The `coverage` member of GET /v1/capabilities (src/contract/capabilities.ts). */
export function coverageForCapabilities(coverage: Coverage): { origins: string[]; subdomains_implied: false } {
  return { origins: [...coverage.origins], subdomains_implied: false };
}
