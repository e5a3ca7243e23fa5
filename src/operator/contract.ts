import * as t from 'io-ts';
import { OperatorTarget, SettledData } from '../../streams/purchase/events.js';

// The operator API's wire shapes (src/operator/api.ts), shared by the listener, the CLI's client
// (ops/client/) and the console's pages. Requests are decoded with these codecs before anything is
// decided; a body that does not decode is refused 400 with the failing paths.
//
//   POST /operator/v1/purchases/3f9a0c1b/move
//   {"target":"closed_no_charge","note":"nonce unused on chain","operator":"ana","expected_revision":"3"}

export const OPERATOR_API = '/operator/v1';

/** A stream revision as a decimal string (revisions are bigints; JSON numbers would round them). */
export const Revision = t.refinement(t.string, (s) => /^(0|[1-9][0-9]{0,18})$/.test(s), 'Revision');

const NonBlank = t.refinement(t.string, (s) => s.trim().length > 0 && s.length <= 2000, 'NonBlank');

export const MoveRequest = t.intersection([
  t.type({ target: OperatorTarget, note: NonBlank, operator: NonBlank, expected_revision: Revision }),
  t.partial({ settlement: SettledData }),
]);
export type MoveRequest = t.TypeOf<typeof MoveRequest>;

export const RefundReviewRequest = t.type({
  decision: t.keyof({ approve: null, reject: null }),
  note: NonBlank,
  operator: NonBlank,
  expected_revision: Revision,
});
export type RefundReviewRequest = t.TypeOf<typeof RefundReviewRequest>;

export const RefundPaidRequest = t.type({
  transaction: t.refinement(t.string, (s) => /^0x[0-9a-fA-F]{64}$/.test(s), 'TxHash'),
  amount_micro: t.refinement(t.string, (s) => /^(0|[1-9][0-9]*)$/.test(s), 'Micro'),
  note: NonBlank,
  operator: NonBlank,
  expected_revision: Revision,
});
export type RefundPaidRequest = t.TypeOf<typeof RefundPaidRequest>;

/** One CLI command run inside the service: the argv after `npm run ops --`. */
export const CliRequest = t.type({ argv: t.array(t.string) });
export type CliRequest = t.TypeOf<typeof CliRequest>;

/** The CLI relay answers NDJSON, one of these a line, ending with `exit`. */
export const CliLine = t.union([t.type({ out: t.string }), t.type({ err: t.string }), t.type({ exit: t.number })]);
export type CliLine = t.TypeOf<typeof CliLine>;

/** Every refusal of the operator API, whatever its status. */
export const OperatorRefusal = t.type({
  refused: t.intersection([t.type({ code: t.string, message: t.string }), t.partial({ details: t.UnknownRecord })]),
});
export type OperatorRefusal = t.TypeOf<typeof OperatorRefusal>;

export const MoveResponse = t.type({
  moved: t.type({ purchase_id: t.string, from: t.string, to: t.string, position: t.string, revision: t.string }),
});
export type MoveResponse = t.TypeOf<typeof MoveResponse>;

export const RefundChangeResponse = t.type({ refund: t.type({ stream: t.string, from: t.string, to: t.string }) });
export type RefundChangeResponse = t.TypeOf<typeof RefundChangeResponse>;

/** Where the read models stand against the store (GET /replay): `behind` 0 means caught up. */
export const ReplayStatus = t.type({ checkpoint: t.string, head: t.string, behind: t.string, leader: t.boolean });
export type ReplayStatus = t.TypeOf<typeof ReplayStatus>;
