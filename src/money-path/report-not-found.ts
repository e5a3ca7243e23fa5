import { Refusal } from '@rights-preflight/wire/refusal.js';

/** The one answer for an unknown id, a missing claim and a wrong claim: nothing hints at existence. */
export const reportNotFound = () => new Refusal('REPORT_NOT_FOUND', 'no report for this id and claim');
