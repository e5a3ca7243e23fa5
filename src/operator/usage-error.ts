// A request that names nothing definite or is malformed: the CLI prints its usage and exits 2, the
// operator API answers USAGE 400 (http/listener.ts). Thrown by the CLI's argument checks and by the
// operator use-cases' own shape checks (purchase-id.ts, purchase-filter.ts).
export class UsageError extends Error {
  readonly code = 'USAGE';
}
