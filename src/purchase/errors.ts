import { ApiError } from '../http/errors.js';
import { MONEY_CODES, type MoneyCode } from '../http/wire/codes.js';

// ApiErrors of the money path with the status fixed by the wire contract (src/http/wire/codes.ts).
export const moneyError = (code: MoneyCode, message: string, details: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
  new ApiError(MONEY_CODES[code], code, message, details, headers);

/** The one answer for an unknown id, a missing claim and a wrong claim: nothing hints at existence. */
export const reportNotFound = () => moneyError('REPORT_NOT_FOUND', 'no report for this id and claim');
