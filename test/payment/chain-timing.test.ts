import test from 'ava';
import { base, baseSepolia } from 'viem/chains';
import { loadConfig, serviceConfig } from '../../src/config/config.js';
import { chainAt, chainClient, pollingFor, receiptPollMs } from '../../src/payment/settlement/chain-reads.js';

// Settlement polls for receipts and caches the block number at the pace of the chain it is on: Base's
// 2 s blocks from viem's own definitions, or CHAIN_BLOCK_MS for a node that mines otherwise.

const RPC = 'http://127.0.0.1:8545';

test('Base and Base Sepolia come from viem with their 2 s block time, reached at our RPC URL', (t) => {
  for (const [network, known] of [
    ['eip155:8453', base],
    ['eip155:84532', baseSepolia],
  ] as const) {
    const chain = chainAt(RPC, network);
    t.is(chain.id, known.id);
    t.is(chain.blockTime, 2_000);
    t.deepEqual(chain.rpcUrls.default.http, [RPC]);
    t.is(chain.experimental_preconfirmationTime, undefined, 'CONFIRMATION=block: receipts at the block pace');
    t.is(
      chainAt(RPC, network, { confirmation: 'preconfirmed' }).experimental_preconfirmationTime,
      known.experimental_preconfirmationTime,
      "CONFIRMATION=preconfirmed: at viem's Flashblocks pace",
    );
  }
  const client = chainClient(RPC, 'eip155:8453');
  t.is(client.pollingInterval, 1_000, 'half a Base block, not viem 12 s default of 4 s');
  t.is(client.cacheTime, 1_000);
  t.is(receiptPollMs(client), 500, 'a waiting settlement looks for its receipt every quarter block');
  const preconfirmed = chainClient(RPC, 'eip155:8453', { confirmation: 'preconfirmed' });
  t.is(
    receiptPollMs(preconfirmed),
    base.experimental_preconfirmationTime ?? 500,
    "preconfirmed: at viem's Flashblocks pace where it names one",
  );
});

test('CHAIN_BLOCK_MS overrides the chain block time, and polling follows it below viem 500 ms floor', (t) => {
  const chain = chainAt(RPC, 'eip155:8453', { blockMs: 250 });
  t.is(chain.blockTime, 250);
  t.is(chain.experimental_preconfirmationTime, undefined);
  t.is(
    chainAt(RPC, 'eip155:8453', { blockMs: 250, confirmation: 'preconfirmed' }).experimental_preconfirmationTime,
    undefined,
    'a node with its own block time has no preconfirmations: preconfirmed behaves as block',
  );
  t.deepEqual(pollingFor(chain), { pollingInterval: 125, cacheTime: 125 });
  t.is(chainClient(RPC, 'eip155:8453', { blockMs: 250 }).pollingInterval, 125);
  t.is(receiptPollMs(chainClient(RPC, 'eip155:8453', { blockMs: 250 })), 62);
  t.is(receiptPollMs(chainClient(RPC, 'eip155:8453', { blockMs: 60 })), 25, 'never faster than 25 ms');
  t.deepEqual(pollingFor(chainAt(RPC, 'eip155:8453', { blockMs: 60_000 })), {
    pollingInterval: 4_000,
    cacheTime: 4_000,
  });
  t.is(chainAt(RPC, 'eip155:1').blockTime, undefined, 'an unknown chain keeps viem defaults');
  t.throws(() => chainAt(RPC, 'solana:1'));
});

test('CHAIN_BLOCK_MS and DEVNET_BLOCK_MS are positive integers of milliseconds, unset by default', (t) => {
  t.is(loadConfig({}).chainBlockMs, undefined);
  t.is(loadConfig({}).devnetBlockMs, undefined);
  t.is(loadConfig({ CHAIN_BLOCK_MS: '250' }).chainBlockMs, 250);
  t.is(loadConfig({ DEVNET_BLOCK_MS: '2000' }).devnetBlockMs, 2000);
  t.throws(() => loadConfig({ CHAIN_BLOCK_MS: '0' }), { message: /CHAIN_BLOCK_MS/ });
  t.throws(() => loadConfig({ DEVNET_BLOCK_MS: 'fast' }), { message: /DEVNET_BLOCK_MS/ });
});

test("npm start's service polls at the devnet's DEVNET_BLOCK_MS unless CHAIN_BLOCK_MS says otherwise", (t) => {
  const devnet = {
    rpcUrl: RPC,
    payTo: `0x${'11'.repeat(20)}` as const,
    relayerPrivateKey: `0x${'22'.repeat(32)}` as const,
  };
  t.is(serviceConfig(loadConfig({}), { ...devnet, blockMs: 250 }).chainBlockMs, 250);
  t.is(serviceConfig(loadConfig({ CHAIN_BLOCK_MS: '1000' }), { ...devnet, blockMs: 250 }).chainBlockMs, 1000);
  t.is(serviceConfig(loadConfig({}), devnet).chainBlockMs, undefined, 'automine: Base timing');
});
