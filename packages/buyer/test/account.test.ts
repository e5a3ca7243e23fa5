import test from 'ava';
import fc from 'fast-check';
import { getAddress, hashTypedData, recoverMessageAddress, recoverTypedDataAddress } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { generatePrivateKey, privateKeyAccount } from '../src/account.js';
import { checksumAddress } from '../src/address.js';
import { toHex } from '../src/keccak.js';
import { EIP3009_TYPES, typedDataDigest, type TransferAuthorizationTypedData } from '../src/typed-data.js';

// The buyer signs with @noble/* rather than viem (docs/decisions.md, "The buyer as its own package").
// RFC 6979 signatures are deterministic, so the package's account must give viem's account the very same
// bytes: address, EIP-712 digest, EIP-3009 signature and EIP-191 signature, over generated inputs.

const key = fc
  .uint8Array({ minLength: 32, maxLength: 32 })
  .map((b) => toHex(b))
  .filter(
    (k) =>
      /[1-9a-f]/.test(k.slice(2)) && BigInt(k) < 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n,
  );
const address = fc.uint8Array({ minLength: 20, maxLength: 20 }).map((b) => toHex(b));
const bytes32 = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => toHex(b));
const uint = fc.bigInt({ min: 0n, max: (1n << 256n) - 1n });

const typedData = fc.record({
  name: fc.constantFrom('USD Coin', 'USDC', 'Ünïcode ☃'),
  version: fc.constantFrom('2', '1'),
  chainId: fc.constantFrom(8453, 84532, 31337),
  verifyingContract: address,
  from: address,
  to: address,
  value: uint,
  validBefore: uint,
  nonce: bytes32,
});
type Drawn = typeof typedData extends fc.Arbitrary<infer T> ? T : never;
const asTyped = (d: Drawn) =>
  ({
    domain: { name: d.name, version: d.version, chainId: d.chainId, verifyingContract: d.verifyingContract },
    types: EIP3009_TYPES,
    primaryType: 'TransferWithAuthorization',
    message: { from: d.from, to: d.to, value: d.value, validAfter: 0n, validBefore: d.validBefore, nonce: d.nonce },
  }) satisfies TransferAuthorizationTypedData;

test('the checksummed address is viem getAddress, from any spelling', (t) => {
  fc.assert(
    fc.property(address, (a) => {
      t.is(checksumAddress(a), getAddress(a));
      t.is(checksumAddress(a.toUpperCase().replace('0X', '0x')), getAddress(a));
    }),
    { numRuns: 300 },
  );
  t.throws(() => checksumAddress('0x1234'), { instanceOf: TypeError });
});

test('the EIP-712 digest of a TransferWithAuthorization is viem hashTypedData', (t) => {
  fc.assert(
    fc.property(typedData, (d) => {
      const typed = asTyped(d);
      t.is(toHex(typedDataDigest(typed)), hashTypedData(typed));
    }),
    { numRuns: 200 },
  );
});

test("the package's account is viem's account: same address, same typed-data and message signatures", async (t) => {
  await fc.assert(
    fc.asyncProperty(key, typedData, fc.string({ maxLength: 300 }), async (k, d, message) => {
      const ours = privateKeyAccount(k);
      const viems = privateKeyToAccount(k);
      t.is(ours.address, viems.address);
      const typed = asTyped(d);
      const signature = await ours.signTypedData(typed);
      t.is(signature, await viems.signTypedData(typed));
      t.is(await recoverTypedDataAddress({ ...typed, signature }), viems.address);
      const signed = await ours.signMessage({ message });
      t.is(signed, await viems.signMessage({ message }));
      t.is(await recoverMessageAddress({ message, signature: signed }), viems.address);
    }),
    { numRuns: 40 },
  );
});

test('a generated key is a usable 32-byte key; a malformed key is refused', (t) => {
  const k = generatePrivateKey();
  t.regex(k, /^0x[0-9a-f]{64}$/);
  t.is(privateKeyAccount(k).address, privateKeyToAccount(k).address);
  t.throws(() => privateKeyAccount('0x12'), { instanceOf: TypeError });
});

test('a viem LocalAccount is a BuyerAccount: createBuyer takes one (the type check is the test)', async (t) => {
  const { createBuyer, memoryCheckpointStore } = await import('../src/index.js');
  const buyer = createBuyer({
    baseUrl: 'https://rights.example',
    account: privateKeyToAccount(`0x${'11'.repeat(32)}`),
    pins: {
      network: 'eip155:8453',
      asset: `0x${'22'.repeat(20)}`,
      recipient: `0x${'33'.repeat(20)}`,
      evidenceKey: 'ab'.repeat(32),
    },
    maxPerReportMicro: 1n,
    maxPerTaskMicro: 1n,
    checkpointStore: memoryCheckpointStore(),
  });
  t.is(buyer.address, privateKeyAccount(`0x${'11'.repeat(32)}`).address);
});
