import test from 'ava';
import fc from 'fast-check';
import { privateKeyToAccount } from 'viem/accounts';
import { formatSIWEMessage } from '@x402/extensions/sign-in-with-x';
import { siwxChallenge } from '@rights-preflight/wire/ingestion-gate/siwx-challenge.js';
import { siweMessage } from '../src/siwe-message.js';

// The buyer renders the EIP-4361 text itself (browser-safe, no viem); the service verifies with the x402
// extension's formatter. If the two ever render a challenge differently, every gate sign-in fails: this
// test holds them to the same text (test/buyer/gate-headers.test.ts runs the buyer's headers through the
// service's checks).

const account = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d');
const hex64 = fc.stringMatching(/^[0-9a-f]{64}$/);
const host = fc.constantFrom('rights.example', '127.0.0.1:4567', 'api.rights-preflight.example:8443', 'localhost:3000');

test("the buyer's renderer and the x402 formatter give every gate challenge the same EIP-4361 text", (t) => {
  fc.assert(
    fc.property(
      host,
      fc.string({ minLength: 1, maxLength: 40 }),
      hex64,
      fc.constantFrom('eip155:8453', 'eip155:84532'),
      fc.date({ min: new Date('2024-01-01T00:00:00Z'), max: new Date('2030-01-01T00:00:00Z'), noInvalidDate: true }),
      (h, key, input, network, issued) => {
        const info = siwxChallenge(
          { gateUrl: `https://${h}/v1/rights/ingestion-gate`, key, inputSha256: input, network },
          issued.toISOString(),
        );
        const ours = siweMessage({
          domain: info.domain,
          address: account.address,
          statement: info.statement,
          uri: info.uri,
          version: '1',
          chainId: Number(network.split(':')[1]),
          nonce: info.nonce,
          issuedAt: issued,
          resources: info.resources,
        });
        t.is(ours, formatSIWEMessage(info, account.address));
      },
    ),
    { numRuns: 200 },
  );
});
