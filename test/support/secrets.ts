import type { ExecutionContext } from 'ava';
import { decodePaymentSignatureHeader } from '@x402/core/http';

// The suite-wide rule: claim tokens, payment signatures and authorizations never reach a log line.
// Given every secret a test handled, checks the captured log text for each one and for the
// distinctive parts of each payment (the EIP-712 signature and the header itself).
export function assertNoSecretsLogged(
  t: ExecutionContext,
  logs: string,
  secrets: { claims?: string[]; paymentHeaders?: string[] },
) {
  t.true(logs.length > 0, 'logs were captured');
  const needles: string[] = [];
  for (const c of secrets.claims ?? []) needles.push(c);
  for (const h of secrets.paymentHeaders ?? []) {
    needles.push(h, h.slice(0, 64));
    const p = decodePaymentSignatureHeader(h) as unknown as {
      payload: { signature: string; authorization: Record<string, string> };
    };
    needles.push(p.payload.signature, p.payload.signature.slice(2, 66), JSON.stringify(p.payload.authorization));
  }
  t.true(needles.length > 0);
  for (const n of needles) t.false(logs.includes(n), `a secret (${n.slice(0, 10)}…) appeared in the logs`);
}
