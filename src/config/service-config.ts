import type { Config } from './config-type.js';
import { parseConnectTo } from './env-values.js';
import { ConfigError, type ConfigProblem } from './config-error.js';

// What the running service needs beyond the operator tools' configuration: a known chain (the
// environment's, or the development devnet's) and, in development, the devnet's example publishers.

/** The example publishers a development chain serves (src/devnet/dev-chain-block.ts hands them over). */
export interface DevPublishers {
  /** https://host of each publisher. */
  origins: string[];
  /** The development CA's certificate (PEM): FETCH_EXTRA_CA_FILE. */
  caFile: string;
  /** host:127.0.0.1:port,…: FETCH_CONNECT_TO. */
  connectTo: string;
  /** One example URL of each kind: permitted, prohibited, licenseRequired, undeclared. */
  resources: Record<string, string>;
}

/** What the service runs on: a configuration whose chain is known (the environment's, or the devnet's). */
export type ServiceConfig = Config & { rpcUrl: string; payTo: `0x${string}` };

/** The chain the development devnet supplies (src/devnet/devnet-child.ts) where the environment names none. */
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
 * COVERED_ORIGINS names what to cover (docs/decisions.md, "The first hour"). Nothing of this
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
