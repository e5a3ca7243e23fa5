// Names and numbers of x402 v2 (scheme `exact`, EIP-3009) as this service uses them, in one place.
// Sources: docs/reference/x402.md §1.1 (headers), §2.2 (assets and EIP-712 domains).

export const X402_VERSION = 2 as const;
export const SCHEME_EXACT = 'exact' as const;

import { BASE_MAINNET, BASE_SEPOLIA, type PaymentNetwork } from './network.js';

export { BASE_MAINNET, BASE_SEPOLIA, PAYMENT_NETWORKS, type PaymentNetwork } from './network.js';

export const BASE_USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913' as const;
export const BASE_SEPOLIA_USDC = '0x036CbD53842c5426634e7929541eC2318f3dCF7e' as const;

export interface UsdcDeployment {
  asset: `0x${string}`;
  eip712: { name: string; version: string };
  decimals: 6;
}

/** Circle's USDC per network; the EIP-712 name differs between mainnet and Sepolia. */
export const USDC: Record<PaymentNetwork, UsdcDeployment> = {
  [BASE_MAINNET]: { asset: BASE_USDC, eip712: { name: 'USD Coin', version: '2' }, decimals: 6 },
  [BASE_SEPOLIA]: { asset: BASE_SEPOLIA_USDC, eip712: { name: 'USDC', version: '2' }, decimals: 6 },
};

/** The numeric chain id of a CAIP-2 `eip155:<n>` network, or undefined for anything else. */
export function chainIdOf(network: string): number | undefined {
  const m = /^eip155:([1-9][0-9]{0,15})$/.exec(network);
  return m ? Number(m[1]) : undefined;
}
