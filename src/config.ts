import * as t from 'io-ts';
import { Address } from './contract/primitives.js';
import { isLeft } from 'fp-ts/lib/Either.js';
import os from 'node:os';
import path from 'node:path';
import { DeployEnv, deployConfig, type DeployConfig } from './deploy-config.js';
import { originListCodec } from './origin-list-codec.js';

// Every setting is an environment variable; the codec is the one place that says what is valid.
const PortString = new t.Type<number, string, unknown>(
  'Port',
  (u): u is number => typeof u === 'number',
  (u, c) => {
    if (typeof u !== 'string' || !/^\d{1,5}$/.test(u)) return t.failure(u, c, 'must be a port number 0..65535');
    const n = Number(u);
    return n <= 65535 ? t.success(n) : t.failure(u, c, 'must be a port number 0..65535');
  },
  String,
);
const PositiveIntString = new t.Type<number, string, unknown>(
  'PositiveInt',
  (u): u is number => typeof u === 'number',
  (u, c) =>
    typeof u === 'string' && /^[1-9][0-9]{0,9}$/.test(u)
      ? t.success(Number(u))
      : t.failure(u, c, 'must be a positive integer'),
  String,
);
const BoolString = new t.Type<boolean, string, unknown>(
  'Bool',
  (u): u is boolean => typeof u === 'boolean',
  (u, c) =>
    u === 'true' || u === '1'
      ? t.success(true)
      : u === 'false' || u === '0' || u === ''
        ? t.success(false)
        : t.failure(u, c, 'must be true or false'),
  String,
);
const Hex32Key = new t.Type<string, string, unknown>(
  'Hex32Key',
  (u): u is string => typeof u === 'string',
  (u, c) =>
    typeof u === 'string' && /^(0x)?[0-9a-fA-F]{64}$/.test(u)
      ? t.success(u.replace(/^0x/, '').toLowerCase())
      : t.failure(u, c, 'must be 32 bytes as 64 hex characters'),
  String,
);
const OriginList = originListCodec('OriginList', 'https', 'https://example.com');
const Url = new t.Type<string, string, unknown>(
  'Url',
  (u): u is string => typeof u === 'string',
  (u, c) => {
    if (typeof u !== 'string') return t.failure(u, c, 'must be a URL');
    try {
      new URL(u);
      return t.success(u);
    } catch {
      return t.failure(u, c, 'must be a URL');
    }
  },
  String,
);
const Network = t.keyof({ 'eip155:8453': null, 'eip155:84532': null });

export const ConfigEnv = t.partial({
  HOST: t.string,
  PORT: PortString,
  PUBLIC_BASE_URL: Url,
  DATA_DIR: t.string,
  EVENT_STORE_URL: t.string,
  READ_STORE_URL: t.string,
  LOG_LEVEL: t.keyof({ fatal: null, error: null, warn: null, info: null, debug: null, trace: null, silent: null }),
  COVERED_ORIGINS: OriginList,
  FETCH_ALLOW_LOOPBACK: BoolString,
  FETCH_EXTRA_CA_FILE: t.string,
  FETCH_CONNECT_TO: t.string,
  EVIDENCE_KEY: Hex32Key,
  CHECKPOINT_KEY: Hex32Key,
  CLAIM_SECRET: Hex32Key,
  PAYMENT_NETWORK: Network,
  USDC_ASSET: Address,
  PAY_TO: Address,
  SETTLEMENT: t.keyof({ self: null, facilitator: null }),
  RPC_URL: Url,
  RELAYER_PRIVATE_KEY: Hex32Key,
  FACILITATOR_URL: Url,
  DEVNET: t.keyof({ auto: null, off: null }),
  CHAIN_BLOCK_MS: PositiveIntString,
  DEVNET_BLOCK_MS: PositiveIntString,
  QUOTE_TTL_SECONDS: PositiveIntString,
  RECOVERY_INTERVAL_MS: PositiveIntString,
  RATE_LIMIT_INSPECT_PER_MINUTE: PositiveIntString,
  RATE_LIMIT_INSPECT_BURST: PositiveIntString,
  RATE_LIMIT_QUOTE_PER_MINUTE: PositiveIntString,
  RATE_LIMIT_QUOTE_BURST: PositiveIntString,
  INSPECT_WORKERS: PositiveIntString,
  INSPECT_QUEUE: PositiveIntString,
  INSPECT_QUEUE_CHARS: PositiveIntString,
  INSPECT_PARSE_CACHE_CHARS: PositiveIntString,
  // Operator listener (src/operator/): a Unix socket in DATA_DIR always; TCP on loopback only with a token.
  OPERATOR_LISTEN: t.string,
  OPERATOR_TOKEN: t.string,
  ...DeployEnv.props,
});

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
  evidenceKeyHex: string | undefined;
  checkpointKeyHex: string | undefined;
  /** HMAC key deriving claim tokens from purchase ids (src/purchase/claim.ts). */
  claimSecretHex: string | undefined;
  network: 'eip155:8453' | 'eip155:84532';
  usdcAsset: `0x${string}`;
  payTo: `0x${string}` | undefined;
  settlement: 'self' | 'facilitator';
  rpcUrl: string | undefined;
  relayerPrivateKey: string | undefined;
  facilitatorUrl: string | undefined;
  devnet: 'auto' | 'off';
  /** CHAIN_BLOCK_MS: the node's block time, when it is not the chain's own (Base: 2 s, from viem). */
  chainBlockMs?: number | undefined;
  /** DEVNET_BLOCK_MS: the development devnet mines a block this often instead of one per transaction. */
  devnetBlockMs?: number | undefined;
  quoteTtlSeconds: number;
  recoveryIntervalMs: number;
  /** Per client address (IPv6: per /64), published in capabilities `limits.rate_limits`. */
  rateLimits: { inspect: { perMinute: number; burst: number }; quote: { perMinute: number; burst: number } };
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

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    readonly problem: string,
  ) {
    super(`configuration: ${variable} ${problem}`);
  }
}

export const BASE_USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913' as const;

/** Decodes the environment; throws ConfigError naming the first wrong variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const present = Object.fromEntries(
    Object.entries(env).filter(([k, v]) => k in ConfigEnv.props && v !== undefined && v !== ''),
  );
  const decoded = ConfigEnv.decode(present);
  if (isLeft(decoded)) {
    const first = decoded.left[0]!;
    const variable = first.context.map((c) => c.key).filter(Boolean)[0] ?? 'environment';
    throw new ConfigError(variable, `is invalid (${JSON.stringify(first.value)}): ${first.message ?? 'wrong format'}`);
  }
  const e = decoded.right;
  const dataDir = path.resolve(e.DATA_DIR ?? './data');
  const settlement = e.SETTLEMENT ?? 'self';
  if (settlement === 'facilitator' && !e.FACILITATOR_URL)
    throw new ConfigError('FACILITATOR_URL', 'is required when SETTLEMENT=facilitator');
  const production = env.NODE_ENV === 'production';
  // The development devnet is never started in production or beside a configured chain.
  if (e.DEVNET === 'auto' && production)
    throw new ConfigError('DEVNET', 'cannot be auto when NODE_ENV=production (set RPC_URL)');
  if (e.DEVNET === 'auto' && e.RPC_URL) throw new ConfigError('DEVNET', 'cannot be auto when RPC_URL is set');
  return {
    production,
    host: e.HOST ?? '127.0.0.1',
    port: e.PORT ?? 8402,
    publicBaseUrl: e.PUBLIC_BASE_URL,
    dataDir,
    eventStoreUrl: e.EVENT_STORE_URL ?? `file:${path.join(dataDir, 'events')}`,
    readStoreUrl: e.READ_STORE_URL ?? `file:${path.join(dataDir, 'read')}`,
    logLevel: e.LOG_LEVEL ?? 'info',
    coveredOrigins: e.COVERED_ORIGINS ?? [],
    fetchAllowLoopback: e.FETCH_ALLOW_LOOPBACK ?? false,
    fetchExtraCaFile: e.FETCH_EXTRA_CA_FILE,
    fetchConnectTo: parseConnectTo(e.FETCH_CONNECT_TO),
    evidenceKeyHex: e.EVIDENCE_KEY,
    checkpointKeyHex: e.CHECKPOINT_KEY,
    claimSecretHex: e.CLAIM_SECRET,
    network: e.PAYMENT_NETWORK ?? 'eip155:8453',
    usdcAsset: e.USDC_ASSET ?? BASE_USDC,
    payTo: e.PAY_TO,
    settlement,
    rpcUrl: e.RPC_URL,
    relayerPrivateKey: e.RELAYER_PRIVATE_KEY,
    facilitatorUrl: e.FACILITATOR_URL,
    devnet: e.DEVNET ?? (e.RPC_URL || production ? 'off' : 'auto'),
    chainBlockMs: e.CHAIN_BLOCK_MS,
    devnetBlockMs: e.DEVNET_BLOCK_MS,
    quoteTtlSeconds: e.QUOTE_TTL_SECONDS ?? 900,
    recoveryIntervalMs: e.RECOVERY_INTERVAL_MS ?? 30_000,
    rateLimits: {
      inspect: { perMinute: e.RATE_LIMIT_INSPECT_PER_MINUTE ?? 60, burst: e.RATE_LIMIT_INSPECT_BURST ?? 20 },
      quote: { perMinute: e.RATE_LIMIT_QUOTE_PER_MINUTE ?? 30, burst: e.RATE_LIMIT_QUOTE_BURST ?? 10 },
    },
    // One core stays free for the event loop that answers health checks and paid redemptions.
    inspectWorkers: e.INSPECT_WORKERS ?? Math.max(1, Math.min(4, os.availableParallelism() - 1)),
    inspectQueue: e.INSPECT_QUEUE ?? 1024,
    inspectQueueChars: e.INSPECT_QUEUE_CHARS ?? 16 * 1024 * 1024,
    inspectParseCacheChars: e.INSPECT_PARSE_CACHE_CHARS ?? 1024 * 1024,
    ...operatorSettings(dataDir, e.OPERATOR_LISTEN, e.OPERATOR_TOKEN),
    ...deployConfig(e),
  };
}

const MIN_OPERATOR_TOKEN = 16;

/** OPERATOR_LISTEN must be a loopback address and port, and then OPERATOR_TOKEN must be set. */
function operatorSettings(
  dataDir: string,
  listen: string | undefined,
  token: string | undefined,
): Pick<Config, 'operatorSocket' | 'operatorListen' | 'operatorToken'> {
  const operatorSocket = path.join(dataDir, 'operator.sock');
  if (token !== undefined && token.length < MIN_OPERATOR_TOKEN)
    throw new ConfigError('OPERATOR_TOKEN', `must be at least ${MIN_OPERATOR_TOKEN} characters`);
  if (listen === undefined) return { operatorSocket, operatorListen: undefined, operatorToken: token };
  const m = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|localhost|\[::1\]):(\d{1,5})$/.exec(listen);
  if (!m || Number(m[2]) > 65535)
    throw new ConfigError(
      'OPERATOR_LISTEN',
      `is invalid (${JSON.stringify(listen)}): must be a loopback address and port like 127.0.0.1:8403`,
    );
  if (token === undefined)
    throw new ConfigError(
      'OPERATOR_TOKEN',
      'is required when OPERATOR_LISTEN is set (the bearer token of the operator API on TCP)',
    );
  return {
    operatorSocket,
    operatorListen: { host: m[1]!.replace(/^\[|\]$/g, ''), port: Number(m[2]) },
    operatorToken: token,
  };
}

/** What the service runs on: a configuration whose chain is known (the environment's, or the devnet's). */
export type ServiceConfig = Config & { rpcUrl: string; payTo: `0x${string}` };

/** The chain the development devnet supplies (src/devnet-child.ts) where the environment names none. */
export interface DevnetChain {
  rpcUrl: string;
  payTo: `0x${string}`;
  relayerPrivateKey: `0x${string}`;
  /** The devnet's DEVNET_BLOCK_MS: the service polls at that pace unless CHAIN_BLOCK_MS says otherwise. */
  blockMs?: number;
}

/**
 * The service's configuration: the environment's chain settings, each missing one taken from the
 * devnet when there is one. Throws ConfigError naming the first one still missing. The operator
 * tools need no chain, so loadConfig does not ask for one.
 */
export function serviceConfig(config: Config, devnet?: DevnetChain): ServiceConfig {
  const rpcUrl = config.rpcUrl ?? devnet?.rpcUrl;
  const payTo = config.payTo ?? devnet?.payTo;
  const relayerPrivateKey = config.relayerPrivateKey ?? devnet?.relayerPrivateKey.replace(/^0x/, '');
  if (!rpcUrl)
    throw new ConfigError('RPC_URL', 'is required (DEVNET=off or NODE_ENV=production: no development devnet)');
  if (!payTo) throw new ConfigError('PAY_TO', 'is required outside the development devnet');
  if (config.settlement === 'self' && !relayerPrivateKey)
    throw new ConfigError('RELAYER_PRIVATE_KEY', 'is required when SETTLEMENT=self');
  const chainBlockMs = config.chainBlockMs ?? devnet?.blockMs;
  return { ...config, rpcUrl, payTo, relayerPrivateKey, chainBlockMs };
}

function parseConnectTo(value: string | undefined): Record<string, { address: string; port: number }> {
  const out: Record<string, { address: string; port: number }> = {};
  if (!value) return out;
  for (const item of value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const m = /^([a-z0-9.-]+):(127\.\d+\.\d+\.\d+|localhost):(\d{1,5})$/i.exec(item);
    if (!m) throw new ConfigError('FETCH_CONNECT_TO', `entry "${item}" must look like host:127.0.0.1:port`);
    out[m[1]!.toLowerCase()] = { address: m[2]!, port: Number(m[3]) };
  }
  return out;
}
