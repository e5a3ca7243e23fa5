import test from 'ava';
import { randomBytes } from 'node:crypto';
import { carriesClaim, redactTokenLike } from '../../../streams/refund/claim-in-text.js';
import { decideRefund, RefundRefused, type PurchaseCharge, type RefundState } from '../../../streams/refund/index.js';

// A claim is a bearer secret (spec §2.9 "never place it in shared logs"): a refund message may not
// carry it, however it is disguised, and operator output never prints one.

const claim = randomBytes(32).toString('hex');
const PAYER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const SETTLED: PurchaseCharge = {
  status: 'delivered',
  authorization: { amount: '20000', payer: PAYER },
  settlement: { amount: '20000', payer: PAYER, transaction: `0x${'12'.repeat(32)}` },
  closedWithoutCharge: false,
};
const split = (s: string, sep: string, every = 8) => s.match(new RegExp(`.{1,${every}}`, 'g'))!.join(sep);
const fullwidth = (s: string) => [...s].map((ch) => String.fromCharCode(ch.charCodeAt(0) + 0xfee0)).join('');

const DISGUISES: Record<string, string> = {
  exact: claim,
  'split by spaces': split(claim, ' '),
  'split by dashes and dots': split(claim, '-.', 4),
  'zero-width joiners': split(claim, '\u200b', 1),
  uppercase: claim.toUpperCase(),
  'fullwidth digits and letters': fullwidth(claim),
  'newlines and quotes': split(claim, '"\n"', 16),
};

for (const [name, hidden] of Object.entries(DISGUISES)) {
  test(`the claim guard sees a claim hidden as ${name}`, (t) => {
    const message = `please refund, my token is ${hidden} thanks`;
    t.true(carriesClaim(message, claim));
    const state: RefundState = { status: 'none' } as RefundState;
    const error = t.throws(() =>
      decideRefund(
        {
          type: 'RequestRefund',
          data: { purchase_id: 'a'.repeat(64), reason: 'OTHER', message, claim, purchase: SETTLED },
          metadata: { now: new Date() },
        },
        state,
      ),
    );
    t.true(error instanceof RefundRefused);
    t.is((error as RefundRefused).code, 'REFUND_MESSAGE_INVALID');
    t.false(redactTokenLike(message).includes(hidden), 'ops output hides it too');
  });
}

test('ordinary messages pass the guard and are printed as written', (t) => {
  const message = 'The report said 2 documents were read, but the page at /articles/12 had 3 (see 2026-11-02).';
  t.false(carriesClaim(message, claim));
  t.is(redactTokenLike(message), message);
});
