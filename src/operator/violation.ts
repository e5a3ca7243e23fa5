// What `audit` reports, for purchase and refund streams alike.
export interface Violation {
  revision: string;
  check: string;
  message: string;
}

/** Case-insensitive equality of two hex strings (addresses, transaction hashes); false for non-strings. */
export const sameHex = (a: unknown, b: unknown) =>
  typeof a === 'string' && typeof b === 'string' && a.toLowerCase() === b.toLowerCase();
