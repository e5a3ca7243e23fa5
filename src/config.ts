import * as t from 'io-ts';
import { isLeft } from 'fp-ts/lib/Either.js';
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
  (u, c) => (typeof u === 'string' && /^[1-9][0-9]{0,9}$/.test(u) ? t.success(Number(u)) : t.failure(u, c, 'must be a positive integer')),
  String,
);
const BoolString = new t.Type<boolean, string, unknown>(
  'Bool',
  (u): u is boolean => typeof u === 'boolean',
  (u, c) => (u === 'true' || u === '1' ? t.success(true) : u === 'false' || u === '0' || u === '' ? t.success(false) : t.failure(u, c, 'must be true or false')),
  String,
);
const Hex32Key = new t.Type<string, string, unknown>(
  'Hex32Key',
  (u): u is string => typeof u === 'string',
  (u, c) => (typeof u === 'string' && /^(0x)?[0-9a-fA-F]{64}$/.test(u) ? t.success(u.replace(/^0x/, '').toLowerCase()) : t.failure(u, c, 'must be 32 bytes as 64 hex characters')),
  String,
);
const OriginList = originListCodec('OriginList', 'https', 'https://example.com');
const Url = new t.Type<string, string, unknown>(
  'Url',
  (u): u is string => typeof u === 'string',
  (u, c) => { if (typeof u !== 'string') return t.failure(u, c, 'must be a URL'); try { new URL(u); return t.success(u); } catch { return t.failure(u, c, 'must be a URL'); } },
  String,
);
const Address = new t.Type<`0x${string}`, string, unknown>(
  'Address',
  (u): u is `0x${string}` => typeof u === 'string',
  (u, c) => (typeof u === 'string' && /^0x[0-9a-fA-F]{40}$/.test(u) ? t.success(u as `0x${string}`) : t.failure(u, c, 'must be a 0x-prefixed 20-byte address')),
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
  QUOTE_TTL_SECONDS: PositiveIntString,
  RECOVERY_INTERVAL_MS: PositiveIntString,
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
  /** Like curl --connect-to: "host:127.0.0.1:8443,host2:127.0.0.1:9443"; only honoured with FETCH_ALLOW_LOOPBACK (tests, demo). */
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
  quoteTtlSeconds: number;
  recoveryIntervalMs: number;
} & DeployConfig;

export class ConfigError extends Error {
  constructor(readonly variable: string, readonly problem: string) {
    super(`configuration: ${variable} ${problem}`);
  }
}

export const BASE_USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913' as const;

/** Decodes the environment; throws ConfigError naming the first wrong variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const present = Object.fromEntries(Object.entries(env).filter(([k, v]) => k in ConfigEnv.props && v !== undefined && v !== ''));
  const decoded = ConfigEnv.decode(present);
  if (isLeft(decoded)) {
    const first = decoded.left[0]!;
    const variable = first.context.map((c) => c.key).filter(Boolean)[0] ?? 'environment';
    throw new ConfigError(variable, `is invalid (${JSON.stringify(first.value)}): ${first.message ?? 'wrong format'}`);
  }
  const e = decoded.right;
  const dataDir = path.resolve(e.DATA_DIR ?? './data');
  const settlement = e.SETTLEMENT ?? 'self';
  if (settlement === 'facilitator' && !e.FACILITATOR_URL) throw new ConfigError('FACILITATOR_URL', 'is required when SETTLEMENT=facilitator');
  return {
    production: env.NODE_ENV === 'production',
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
    devnet: e.DEVNET ?? (e.RPC_URL ? 'off' : 'auto'),
    quoteTtlSeconds: e.QUOTE_TTL_SECONDS ?? 900,
    recoveryIntervalMs: e.RECOVERY_INTERVAL_MS ?? 30_000,
    ...deployConfig(e),
  };
}

function parseConnectTo(value: string | undefined): Record<string, { address: string; port: number }> {
  const out: Record<string, { address: string; port: number }> = {};
  if (!value) return out;
  for (const item of value.split(',').map((s) => s.trim()).filter(Boolean)) {
    const m = /^([a-z0-9.-]+):(127\.\d+\.\d+\.\d+|localhost):(\d{1,5})$/i.exec(item);
    if (!m) throw new ConfigError('FETCH_CONNECT_TO', `entry "${item}" must look like host:127.0.0.1:port`);
    out[m[1]!.toLowerCase()] = { address: m[2]!, port: Number(m[3]) };
  }
  return out;
}
