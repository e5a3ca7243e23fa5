import type { Hex } from 'viem';

// Hardhat's well-known development keys ("test test … junk" mnemonic, indexes 0–7). They are public,
// each starts with 10 000 ETH on the devnet, and they must never hold real funds anywhere.
export const DEV_KEYS = [
  '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
  '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
  '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6',
  '0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a',
  '0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba',
  '0x92db14e403b83dfe3df233f83dfa3a0d7096f21ca9b0d6d6b8d88b2b4ec1564e',
  '0x4bbbf85ce3377467afe5d46f804f221813b2bb87f24d81f60f1fcdbf7cbf4356',
] as const satisfies readonly Hex[];

/**
 * Who is who on the devnet. The token admin (minter, owner, pauser, blacklister) and the relayer are
 * different accounts so that minting from a test never races the relayer's transaction nonces.
 */
export const ROLE_KEYS = {
  admin: DEV_KEYS[0],
  payTo: DEV_KEYS[1],
  buyers: [DEV_KEYS[2], DEV_KEYS[3], DEV_KEYS[4], DEV_KEYS[5]],
  relayer: DEV_KEYS[6],
  /** Pays gas for the local x402 facilitator server (src/devnet/facilitator-server.ts), not the service. */
  facilitatorRelayer: DEV_KEYS[7],
} as const;
