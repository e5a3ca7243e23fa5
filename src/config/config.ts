import * as t from 'io-ts';
import { Address } from '@rights-preflight/wire/contract/primitives.js';
import { isLeft } from 'fp-ts/lib/Either.js';
import os from 'node:os';
import path from 'node:path';
import { DeployEnv, deployConfig } from './deploy-config.js';
import { ConfigError, type ConfigProblem } from './config-error.js';
import type { Config } from './config-type.js';
import {
  AddressList,
  BoolString,
  Hex32Key,
  Hex32KeyList,
  OriginList,
  PortString,
  PositiveIntString,
  Url,
  parseConnectTo,
} from './env-values.js';
import { TRUST_PROXY_OFF, TrustProxySetting } from './trust-proxy-setting.js';
import { PaymentNetwork } from '@rights-preflight/wire/payment/network.js';

/** RFC 9309 §2.5: "The parsing limit MUST be at least 500 kibibytes"; the engine's own default is the same. */
const ROBOTS_PARSE_LIMIT_BYTES = 500 * 1024;

// Every setting is an environment variable; the codec is the one place that says what is valid. The
// shapes of single values are in config/env-values.ts; what the service adds (its chain) in
// config/service-config.ts.

export { ConfigError, type ConfigProblem } from './config-error.js';
export {
  serviceConfig,
  serviceConfigProblems,
  type DevnetChain,
  type ServiceConfig,
} from './service-config.js';

/** Variables holding keys or secrets, whose values no error message repeats. */
const SECRET_VARIABLES: ReadonlySet<string> = new Set([
  'EVIDENCE_KEY',
  'CHECKPOINT_KEY',
  'CLAIM_SECRET',
  'RELAYER_PRIVATE_KEY',
  'RELAYER_PRIVATE_KEYS',
]);

const ConfigEnv = t.partial({
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
  RATE_LIMIT_MCP_PER_MINUTE: PositiveIntString,
  RATE_LIMIT_MCP_BURST: PositiveIntString,
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

export type { Config } from './config-type.js';

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
      mcp: { perMinute: e.RATE_LIMIT_MCP_PER_MINUTE ?? 120, burst: e.RATE_LIMIT_MCP_BURST ?? 60 },
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
