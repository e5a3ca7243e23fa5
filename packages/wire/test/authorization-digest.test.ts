import test from 'ava';
import { randomBytes } from 'node:crypto';
import { authorizationTypes } from '@x402/evm';
import { bytesToHex, getAddress, hashTypedData, type Hex } from 'viem';
import { authorizationDigest, type AuthorizationFields } from '../src/payment/authorization-digest.js';

// The word-by-word digest must be viem's hashTypedData of the same typed data, and refuse what it refuses.

const viemDigest = (a: AuthorizationFields, d: { name: string; version: string; chainId: number; asset: string }) =>
  hashTypedData({
    domain: { name: d.name, version: d.version, chainId: d.chainId, verifyingContract: getAddress(d.asset) },
    types: authorizationTypes,
    primaryType: 'TransferWithAuthorization',
    message: {
      from: getAddress(a.from),
      to: getAddress(a.to),
      value: BigInt(a.value),
      validAfter: BigInt(a.validAfter),
      validBefore: BigInt(a.validBefore),
      nonce: a.nonce,
    },
  });

const address = (): Hex => bytesToHex(randomBytes(20));
const uint = (bytes: number) => BigInt(bytesToHex(randomBytes(bytes))).toString();

test('300 random authorizations over a few domains: the same digest as hashTypedData', (t) => {
  const domains = [
    { name: 'USD Coin', version: '2', chainId: 8453, asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913' },
    { name: 'USDC', version: '2', chainId: 84532, asset: address() },
    { name: 'Ünïcode tøken', version: '10', chainId: 31337, asset: address().toUpperCase().replace('0X', '0x') },
  ];
  for (let i = 0; i < 300; i++) {
    const a: AuthorizationFields = {
      from: i % 2 ? address() : getAddress(address()),
      to: address(),
      value: uint(1 + (i % 32)),
      validAfter: i % 5 === 0 ? '0' : uint(4),
      validBefore: uint(8),
      nonce: bytesToHex(randomBytes(32)),
    };
    const d = domains[i % domains.length]!;
    t.is(authorizationDigest(a, d), viemDigest(a, d));
  }
});

test('refused like hashTypedData: a bad address, a negative or 2^256 value, a nonce that is not 32 bytes', (t) => {
  const d = { name: 'USDC', version: '2', chainId: 8453, asset: address() };
  const good: AuthorizationFields = {
    from: address(),
    to: address(),
    value: '1',
    validAfter: '0',
    validBefore: '9',
    nonce: bytesToHex(randomBytes(32)),
  };
  const bad: Partial<AuthorizationFields>[] = [
    { from: '0x1234' },
    { to: 'not an address' },
    { value: '-1' },
    { value: (1n << 256n).toString() },
    { value: 'ten' },
    { nonce: bytesToHex(randomBytes(31)) },
  ];
  for (const change of bad) {
    const a = { ...good, ...change };
    t.throws(() => authorizationDigest(a, d), undefined, JSON.stringify(change));
    t.throws(() => viemDigest(a, d), undefined, JSON.stringify(change));
  }
  t.throws(() => authorizationDigest(good, { ...d, asset: '0xzz' }));
});

test('a 63-digit nonce and upper-case hex read as hashTypedData reads them', (t) => {
  const d = { name: 'USDC', version: '2', chainId: 8453, asset: address() };
  const base: AuthorizationFields = {
    from: address().toUpperCase().replace('0X', '0x'),
    to: address(),
    value: '1',
    validAfter: '0',
    validBefore: '9',
    nonce: `0x${bytesToHex(randomBytes(32)).slice(3)}`,
  };
  t.is(authorizationDigest(base, d), viemDigest(base, d));
  const upper = { ...base, nonce: bytesToHex(randomBytes(32)).toUpperCase().replace('0X', '0x') as Hex };
  t.is(authorizationDigest(upper, d), viemDigest(upper, d));
});
