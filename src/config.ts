import * as t from 'io-ts';
import { Address } from '../packages/buyer/src/wire/contract/primitives.js';
import { isLeft } from 'fp-ts/lib/Either.js';
import os from 'node:os';
import path from 'node:path';
import { DeployEnv, deployConfig, type DeployConfig } from './deploy-config.js';
import { originListCodec } from './origin-list-codec.js';
import { TRUST_PROXY_OFF, TrustProxySetting, type TrustProxy } from './http/trust-proxy.js';
import { ROBOTS_PARSE_LIMIT_BYTES } from './rsl/robots.js';
import type { DevPublishers } from './devnet/dev-chain-block.js';
import { PaymentNetwork } from '../packages/buyer/src/wire/payment/network.js';

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
/** The non-empty, trimmed items of a comma-separated setting (none when it is not a string). */
const commaList = (u: unknown): string[] =>
  typeof u === 'string'
    ? u
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : [];

const Hex32KeyList = new t.Type<string[], string, unknown>(
  'Hex32KeyList',
  (u): u is string[] => Array.isArray(u),
  (u, c) => {
    const items = commaList(u);
    return typeof u === 'string' && items.length > 0 && items.every((k) => /^(0x)?[0-9a-fA-F]{64}$/.test(k))
      ? t.success([...new Set(items.map((k) => k.replace(/^0x/, '').toLowerCase()))])
      : t.failure(u, c, 'must be a comma-separated list of 32-byte keys as 64 hex characters');
  },
  (a) => a.join(','),
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
const AddressList = new t.Type<`0x${string}`[], string, unknown>(
  'AddressList',
  (u): u is `0x${string}`[] => Array.isArray(u),
  (u, c) => {
    const items = commaList(u);
    return typeof u === 'string' && items.every((a) => /^0x[0-9a-fA-F]{40}$/.test(a))
      ? t.success(items as `0x${string}`[])
      : t.failure(u, c, 'must be a comma-separated list of 0x-prefixed 20-byte addresses');
  },
  (a) => a.join(','),
);

/** Variables holding keys or secrets, whose values no error message repeats. */
const SECRET_VARIABLES: ReadonlySet<string> = new Set([
  'EVIDENCE_KEY',
  'CHECKPOINT_KEY',
  'CLAIM_SECRET',
  'RELAYER_PRIVATE_KEY',
  'RELAYER_PRIVATE_KEYS',
]);

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
  ROBOTS_PARSE_LIMIT_BYTES: PositiveIntString,
  EVIDENCE_KEY: Hex32Key,
  CHECKPOINT_KEY: Hex32Key,
  CLAIM_SECRET: Hex32Key,
  PAYMENT_NETWORK: PaymentNetwork,
  USDC_ASSET: Address,
  PAY_TO: Address,
  REFUND_SENDERS: AddressList,
  SETTLEMENT: t.keyof({ self: null, facilitator: null }),
  RPC_URL: Url,
  RELAYER_PRIVATE_KEY: Hex32Key,
  RELAYER_PRIVATE_KEYS: Hex32KeyList,
  RELAYER_MIN_SETTLEMENTS: PositiveIntString,
  FACILITATOR_URL: Url,
  DEVNET: t.keyof({ auto: null, off: null }),
  CHAIN_BLOCK_MS: PositiveIntString,
  CONFIRMATION: t.keyof({ block: null, preconfirmed: null }),
  SETTLEMENT_BUMP_BLOCKS: PositiveIntString,
  SETTLEMENT_MAX_FEE_GWEI: PositiveIntString,
  DEVNET_BLOCK_MS: PositiveIntString,
  QUOTE_TTL_SECONDS: PositiveIntString,
  RECOVERY_INTERVAL_MS: PositiveIntString,
  RATE_LIMIT_INSPECT_PER_MINUTE: PositiveIntString,
  RATE_LIMIT_INSPECT_BURST: PositiveIntString,
  RATE_LIMIT_QUOTE_PER_MINUTE: PositiveIntString,
  RATE_LIMIT_QUOTE_BURST: PositiveIntString,
  RATE_LIMIT_PREFLIGHT_PER_MINUTE: PositiveIntString,
  RATE_LIMIT_PREFLIGHT_BURST: PositiveIntString,
  RATE_LIMIT_GATE_PER_MINUTE: PositiveIntString,
  RATE_LIMIT_GATE_BURST: PositiveIntString,
  TRUST_PROXY: TrustProxySetting,
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
  rateLimits: Record<'inspect' | 'quote' | 'preflight' | 'gate', { perMinute: number; burst: number }>;
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

/** One wrong or missing setting. */
export interface ConfigProblem {
  variable: string;
  problem: string;
}

/**
 * Every problem of a configuration at once (docs/decisions.md, "Configuration errors at once"):
 * `variable` and `problem` are the first one's, the message lists them all, one line each.
 */
export class ConfigError extends Error {
  readonly problems: readonly ConfigProblem[];
  readonly variable: string;
  readonly problem: string;
  constructor(variable: string | readonly ConfigProblem[], problem?: string) {
    const problems = typeof variable === 'string' ? [{ variable, problem: problem ?? 'is invalid' }] : variable;
    super(problems.map((p) => `configuration: ${p.variable} ${p.problem}`).join('\n'));
    this.problems = problems;
    this.variable = problems[0]?.variable ?? 'environment';
    this.problem = problems[0]?.problem ?? 'is invalid';
  }
}

export const BASE_USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913' as const;

/** Decodes the environment; throws ConfigError naming every wrong variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const { config, problems } = checkConfig(env);
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

/**
 * The configuration of the environment and every problem found in it: each variable is decoded on its
 * own (a wrong one counts as unset for the rest), and each cross-variable rule is checked, so one start
 * reports all of them. The config is only meaningful when there are no problems.
 */
export function checkConfig(env: NodeJS.ProcessEnv = process.env): { config: Config; problems: ConfigProblem[] } {
  const problems: ConfigProblem[] = [];
  const problem = (variable: string, text: string) => problems.push({ variable, problem: text });
  /** A rule that throws ConfigError adds its problems and gives the fallback instead. */
  const collect = <T>(rule: () => T, fallback: T): T => {
    try {
      return rule();
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      problems.push(...err.problems);
      return fallback;
    }
  };
  const decodedEntries: [string, unknown][] = [];
  for (const [k, v] of Object.entries(env)) {
    if (!(k in ConfigEnv.props) || v === undefined || v === '') continue;
    const codec = (ConfigEnv.props as Record<string, t.Mixed>)[k]!;
    const decoded = codec.decode(v);
    // A key's value is never repeated: a mistyped pool would print every good key beside the bad one.
    const shown = SECRET_VARIABLES.has(k) ? '' : ` (${JSON.stringify(v)})`;
    if (isLeft(decoded)) problem(k, `is invalid${shown}: ${decoded.left[0]?.message ?? 'wrong format'}`);
    else decodedEntries.push([k, decoded.right]);
  }
  const e = Object.fromEntries(decodedEntries) as t.TypeOf<typeof ConfigEnv>;
  const dataDir = path.resolve(e.DATA_DIR ?? './data');
  const settlement = e.SETTLEMENT ?? 'self';
  if (settlement === 'facilitator' && !e.FACILITATOR_URL)
    problem('FACILITATOR_URL', 'is required when SETTLEMENT=facilitator');
  const production = env.NODE_ENV === 'production';
  if (e.ROBOTS_PARSE_LIMIT_BYTES !== undefined && e.ROBOTS_PARSE_LIMIT_BYTES < ROBOTS_PARSE_LIMIT_BYTES)
    problem(
      'ROBOTS_PARSE_LIMIT_BYTES',
      `must be at least ${ROBOTS_PARSE_LIMIT_BYTES} (RFC 9309 §2.5: the parsing limit MUST be at least 500 KiB)`,
    );
  // The development devnet is never started in production or beside a configured chain.
  if (e.DEVNET === 'auto' && production) problem('DEVNET', 'cannot be auto when NODE_ENV=production (set RPC_URL)');
  if (e.DEVNET === 'auto' && e.RPC_URL) problem('DEVNET', 'cannot be auto when RPC_URL is set');
  if (e.RELAYER_PRIVATE_KEY && e.RELAYER_PRIVATE_KEYS)
    problem('RELAYER_PRIVATE_KEYS', 'cannot be set with RELAYER_PRIVATE_KEY (a single key is a pool of one)');
  const config: Config = {
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
    fetchConnectTo: collect(() => parseConnectTo(e.FETCH_CONNECT_TO), {}),
    robotsParseLimitBytes: e.ROBOTS_PARSE_LIMIT_BYTES ?? ROBOTS_PARSE_LIMIT_BYTES,
    evidenceKeyHex: e.EVIDENCE_KEY,
    checkpointKeyHex: e.CHECKPOINT_KEY,
    claimSecretHex: e.CLAIM_SECRET,
    network: e.PAYMENT_NETWORK ?? 'eip155:8453',
    usdcAsset: e.USDC_ASSET ?? BASE_USDC,
    payTo: e.PAY_TO,
    refundSenders: e.REFUND_SENDERS ?? [],
    settlement,
    rpcUrl: e.RPC_URL,
    relayerPrivateKey: e.RELAYER_PRIVATE_KEY,
    relayerPrivateKeys: e.RELAYER_PRIVATE_KEYS,
    relayerMinSettlements: e.RELAYER_MIN_SETTLEMENTS ?? 10,
    facilitatorUrl: e.FACILITATOR_URL,
    devnet: e.DEVNET ?? (e.RPC_URL || production ? 'off' : 'auto'),
    chainBlockMs: e.CHAIN_BLOCK_MS,
    confirmation: e.CONFIRMATION ?? 'block',
    settlementBump: { blocks: e.SETTLEMENT_BUMP_BLOCKS ?? 3, maxFeeGwei: e.SETTLEMENT_MAX_FEE_GWEI ?? 50 },
    devnetBlockMs: e.DEVNET_BLOCK_MS,
    quoteTtlSeconds: e.QUOTE_TTL_SECONDS ?? 900,
    recoveryIntervalMs: e.RECOVERY_INTERVAL_MS ?? 30_000,
    rateLimits: {
      inspect: { perMinute: e.RATE_LIMIT_INSPECT_PER_MINUTE ?? 60, burst: e.RATE_LIMIT_INSPECT_BURST ?? 20 },
      quote: { perMinute: e.RATE_LIMIT_QUOTE_PER_MINUTE ?? 30, burst: e.RATE_LIMIT_QUOTE_BURST ?? 10 },
      preflight: { perMinute: e.RATE_LIMIT_PREFLIGHT_PER_MINUTE ?? 30, burst: e.RATE_LIMIT_PREFLIGHT_BURST ?? 10 },
      gate: { perMinute: e.RATE_LIMIT_GATE_PER_MINUTE ?? 30, burst: e.RATE_LIMIT_GATE_BURST ?? 10 },
    },
    trustProxy: e.TRUST_PROXY ?? TRUST_PROXY_OFF,
    // One core stays free for the event loop that answers health checks and paid redemptions.
    inspectWorkers: e.INSPECT_WORKERS ?? Math.max(1, Math.min(4, os.availableParallelism() - 1)),
    inspectQueue: e.INSPECT_QUEUE ?? 1024,
    inspectQueueChars: e.INSPECT_QUEUE_CHARS ?? 16 * 1024 * 1024,
    inspectParseCacheChars: e.INSPECT_PARSE_CACHE_CHARS ?? 1024 * 1024,
    ...collect(() => operatorSettings(dataDir, e.OPERATOR_LISTEN, e.OPERATOR_TOKEN), {
      operatorSocket: path.join(dataDir, 'operator.sock'),
      operatorListen: undefined,
      operatorToken: undefined,
    }),
    // Development: no chain configured and not production (the devnet supplies the chain).
    ...deployConfig(e, { development: !production && !e.RPC_URL }),
  };
  return { config, problems };
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
  /** The example publishers served beside it (npm start in development): covered unless COVERED_ORIGINS is set. */
  publishers?: DevPublishers;
  /** A funded test buyer (Hardhat's public keys), the chain id and USDC: the development buyer settings. */
  buyer?: { address: `0x${string}`; privateKey: `0x${string}` };
  chainId?: number;
  usdc?: `0x${string}`;
}

const ZERO_ADDRESS = /^0x0{40}$/;

/**
 * What a service needs of its chain that the environment (or the devnet, passed in) does not give:
 * RPC_URL, a PAY_TO that can receive (never the zero address: USDC refuses transfers to it, and
 * publishing it would take payments nobody can spend), and with SETTLEMENT=self a relayer key.
 */
export function serviceConfigProblems(config: Config, devnet?: DevnetChain): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  const payTo = config.payTo ?? devnet?.payTo;
  if (!(config.rpcUrl ?? devnet?.rpcUrl))
    problems.push({
      variable: 'RPC_URL',
      problem: 'is required (DEVNET=off or NODE_ENV=production: no development devnet)',
    });
  if (!payTo)
    problems.push({
      variable: 'PAY_TO',
      problem: config.production
        ? 'is required in production (the address reports are paid to)'
        : 'is required outside the development devnet',
    });
  else if (ZERO_ADDRESS.test(payTo))
    problems.push({ variable: 'PAY_TO', problem: 'must not be the zero address (nothing sent to it can be spent)' });
  if (
    config.settlement === 'self' &&
    !(config.relayerPrivateKey ?? config.relayerPrivateKeys ?? devnet?.relayerPrivateKey)
  )
    problems.push({ variable: 'RELAYER_PRIVATE_KEY', problem: 'is required when SETTLEMENT=self' });
  return problems;
}

/**
 * The service's configuration: the environment's chain settings, each missing one taken from the
 * devnet when there is one. Throws ConfigError naming every one still missing or wrong. The operator
 * tools need no chain, so loadConfig does not ask for one.
 */
export function serviceConfig(config: Config, devnet?: DevnetChain): ServiceConfig {
  const problems = serviceConfigProblems(config, devnet);
  if (problems.length > 0) throw new ConfigError(problems);
  const rpcUrl = (config.rpcUrl ?? devnet?.rpcUrl)!;
  const payTo = (config.payTo ?? devnet?.payTo)!;
  const relayerPrivateKey = config.relayerPrivateKeys
    ? undefined
    : (config.relayerPrivateKey ?? devnet?.relayerPrivateKey.replace(/^0x/, ''));
  const chainBlockMs = config.chainBlockMs ?? devnet?.blockMs;
  return { ...config, rpcUrl, payTo, relayerPrivateKey, chainBlockMs, ...examplePublishers(config, devnet) };
}

/**
 * Development: the devnet's example publishers are covered and fetched through its development CA, unless
 * COVERED_ORIGINS names what to cover (docs/decisions.md, "The first hour (issue 27)"). Nothing of this
 * exists with a configured chain: there is no devnet then.
 */
function examplePublishers(
  config: Config,
  devnet: DevnetChain | undefined,
): Partial<Pick<Config, 'coveredOrigins' | 'fetchAllowLoopback' | 'fetchExtraCaFile' | 'fetchConnectTo'>> {
  const p = devnet?.publishers;
  if (!p || config.coveredOrigins.length > 0 || config.fetchExtraCaFile !== undefined) return {};
  return {
    coveredOrigins: p.origins,
    fetchAllowLoopback: true,
    fetchExtraCaFile: p.caFile,
    fetchConnectTo: { ...parseConnectTo(p.connectTo), ...config.fetchConnectTo },
  };
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
