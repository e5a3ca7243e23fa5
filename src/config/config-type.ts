import type { PaymentNetwork } from '@rights-preflight/wire/payment/network.js';
import type { DeployConfig } from './deploy-config.js';
import type { TrustProxy } from './trust-proxy-setting.js';

// What the configuration is once decoded (src/config/config.ts decodes it): handed to every part that needs
// some of it; adapters name the fields they take in a type of their own.

export type Config = {
  /** NODE_ENV=production: keys and secrets must be configured (or their files present); never generated. */
  production: boolean;
  host: string;
  port: number;
  publicBaseUrl: string | undefined;
  dataDir: string;
  eventStoreUrl: string;
  /** Where the read models live when the events are in EventStoreDB (SQL stores keep them beside the events). */
  readStoreUrl: string;
  logLevel: string;
  coveredOrigins: string[];
  fetchAllowLoopback: boolean;
  fetchExtraCaFile: string | undefined;
  /** Like curl --connect-to: "host:127.0.0.1:8443,host2:127.0.0.1:9443"; only honoured with
   *  FETCH_ALLOW_LOOPBACK (tests, demo). */
  fetchConnectTo: Record<string, { address: string; port: number }>;
  /** How much of robots.txt is read and parsed: at least RFC 9309's 500 KiB, configurable upward only. */
  robotsParseLimitBytes: number;
  evidenceKeyHex: string | undefined;
  checkpointKeyHex: string | undefined;
  /** HMAC key deriving claim tokens from purchase ids (src/money-path/claim.ts). */
  claimSecretHex: string | undefined;
  network: PaymentNetwork;
  usdcAsset: `0x${string}`;
  payTo: `0x${string}` | undefined;
  /** The addresses operators send refunds from (REFUND_SENDERS); empty: any sender (docs/decisions.md). */
  refundSenders: `0x${string}`[];
  settlement: 'self' | 'facilitator';
  rpcUrl: string | undefined;
  relayerPrivateKey: string | undefined;
  /** RELAYER_PRIVATE_KEYS: a pool; each instance leases one key of it in the store (docs/decisions.md). */
  relayerPrivateKeys?: string[] | undefined;
  /** RELAYER_MIN_SETTLEMENTS: below this many settlements' gas, /readyz is 503 and offers are refused. */
  relayerMinSettlements: number;
  facilitatorUrl: string | undefined;
  devnet: 'auto' | 'off';
  /** CHAIN_BLOCK_MS: the node's block time, when it is not the chain's own (Base: 2 s, from viem). */
  chainBlockMs?: number | undefined;
  /** CONFIRMATION: a settlement counts once its receipt is in a sealed block (`block`, the default) or
   *  once a Flashblocks-aware node preconfirms it (`preconfirmed`; docs/decisions.md, docs/wire.md). */
  confirmation: 'block' | 'preconfirmed';
  /** SETTLEMENT_BUMP_BLOCKS / SETTLEMENT_MAX_FEE_GWEI: a relayer transaction not mined within this many
   *  blocks is re-sent at the same account nonce with higher fees, up to this max fee per gas. */
  settlementBump: { blocks: number; maxFeeGwei: number };
  /** DEVNET_BLOCK_MS: the development devnet mines a block this often instead of one per transaction. */
  devnetBlockMs?: number | undefined;
  quoteTtlSeconds: number;
  recoveryIntervalMs: number;
  /** Per client address (IPv6: per /64), published in capabilities `rate_limits`. */
  rateLimits: Record<'inspect' | 'quote' | 'preflight' | 'gate' | 'mcp', { perMinute: number; burst: number }>;
  /** Which proxies' X-Forwarded-For to believe for the client address (src/http/trust-proxy.ts); off by default. */
  trustProxy: TrustProxy;
  /** Worker threads parsing inspected documents, and how many inspections may wait for one. */
  inspectWorkers: number;
  inspectQueue: number;
  inspectQueueChars: number;
  /** Characters of parsed documents each worker keeps, to answer the same document without parsing it. */
  inspectParseCacheChars: number;
  /** The operator API's Unix socket (mode 0600): DATA_DIR/operator.sock. */
  operatorSocket: string;
  /** OPERATOR_LISTEN=127.0.0.1:PORT: the operator API on loopback TCP too, behind OPERATOR_TOKEN. */
  operatorListen: { host: string; port: number } | undefined;
  operatorToken: string | undefined;
} & DeployConfig;
