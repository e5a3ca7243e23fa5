import * as t from 'io-ts';

// The one network type: the CAIP-2 chains this service is paid on (Base and Base Sepolia, USDC by
// EIP-3009). Configuration, the wire codecs, the signed payloads and the settlement backends all read
// this codec or its type; a new chain is one line here (and its USDC in ./x402-constants.ts).

export const BASE_MAINNET = 'eip155:8453' as const;
export const BASE_SEPOLIA = 'eip155:84532' as const;
export const PaymentNetwork = t.keyof({ [BASE_MAINNET]: null, [BASE_SEPOLIA]: null });
export type PaymentNetwork = t.TypeOf<typeof PaymentNetwork>;
export const PAYMENT_NETWORKS: readonly PaymentNetwork[] = [BASE_MAINNET, BASE_SEPOLIA];
