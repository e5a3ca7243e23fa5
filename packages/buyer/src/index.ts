// The buyer client (browser-safe core). Node-only helpers live in ./node/.
export {
  createBuyer,
  type Buyer,
  type BuyerOptions,
  type BuyResult,
  type ReportRequest,
  type Quote,
  type BuyerLogEvent,
  type GateRequest,
  type GateResult,
} from './buyer.js';
export { BuyerRefused, type BuyerRefusalCode } from './errors.js';
export { privateKeyAccount, generatePrivateKey, type BuyerAccount } from './account.js';
export type { TransferAuthorizationTypedData } from './typed-data.js';
export { checkOffer } from './offer.js';
export {
  encryptedCheckpointStore,
  memoryCheckpointStore,
  memoryBoxStore,
  buyerCheckpointAad,
  type BuyerCheckpoint,
  type CheckpointStore,
  type SealedBoxStore,
} from './checkpoint-store.js';
export {
  verifyPaidReport,
  verifySavedReport,
  SAVED_REPORT_FORMAT,
  type SavedReport,
  type VerifyResult,
  // The input of verifyPaidReport, nameable by its callers: what they signed (ExpectedSettlement) is theirs to build.
  type VerifyInput,
  type ExpectedSettlement,
} from './verify-report.js';
export { paymentIntentHeader, signInWithX, signInWithXHeader } from './gate-headers.js';
export { claimKeepingStore } from './claim-keeping-store.js';
export { requestRefund } from './refund-request.js';
export { verifyCheckpoint, type CheckpointVerification } from './verify-checkpoint.js';
export { checkpointsIn, type RevalidateResult } from './revalidate.js';
export {
  describeSignals,
  ingestionHold,
  signalsOfReport,
  type IngestionHold,
  type VerifiedSignals,
} from './report-signals.js';
export {
  checkCrawl,
  summaryTable,
  DEFAULT_CHECK_CONCURRENCY,
  type CheckIo,
  type CheckOptions,
  type CheckProgress,
  type CheckSummary,
} from './check.js';
export { CHECK_MANIFEST_FORMAT, ManifestLine } from '@rights-preflight/wire/contract/check-manifest.js';
export type { UpfrontTerms } from './pay.js';
