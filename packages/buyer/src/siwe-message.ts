// The EIP-4361 text of a sign-in, rendered as viem's `createSiweMessage` and the x402 extension's
// `formatSIWEMessage` render it for the fields a gate challenge has (no scheme, expiration, not-before or
// request id). packages/buyer/test/siwe-message.test.ts holds it equal to the x402 formatter the service verifies
// with, over generated challenges.

export interface SiweFields {
  domain: string;
  /** EIP-55 checksummed. */
  address: string;
  statement: string;
  uri: string;
  version: '1';
  chainId: number;
  nonce: string;
  issuedAt: Date;
  resources: readonly string[];
}

export function siweMessage(m: SiweFields): string {
  if (m.statement.includes('\n')) throw new TypeError('a sign-in statement is one line');
  const lines = [
    `${m.domain} wants you to sign in with your Ethereum account:`,
    m.address,
    '',
    m.statement,
    '',
    `URI: ${m.uri}`,
    `Version: ${m.version}`,
    `Chain ID: ${m.chainId}`,
    `Nonce: ${m.nonce}`,
    `Issued At: ${m.issuedAt.toISOString()}`,
  ];
  if (m.resources.length) lines.push('Resources:', ...m.resources.map((r) => `- ${r}`));
  return lines.join('\n');
}
