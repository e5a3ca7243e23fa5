import { readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import * as t from 'io-ts';
import { isRight } from 'fp-ts/lib/Either.js';
import { chainClient } from '../payment/settlement/chain-reads.js';

// Which chains a data directory's purchases were settled on (docs/decisions.md, "The first hour (issue
// 27)"). The development devnet starts a new chain on every `npm start` (Hardhat keeps no state on
// disk), while DATA_DIR keeps the purchases, whose transactions were on the chain before. So each start
// records the chain it runs against (chain id and genesis block hash) in DATA_DIR/chain-history.json,
// and a new chain under an old record is said at start, and by `ops audit`.

export const CHAIN_HISTORY_FILE = 'chain-history.json';

const ChainEntry = t.type({
  chain_id: t.number,
  genesis_hash: t.string,
  /** First and last start of the service against this chain (ISO). */
  first_seen: t.string,
  last_seen: t.string,
});
export type ChainEntry = t.TypeOf<typeof ChainEntry>;
const ChainHistory = t.type({ chains: t.array(ChainEntry) });
export type ChainHistory = t.TypeOf<typeof ChainHistory>;

export interface ChainIdentity {
  chain_id: number;
  genesis_hash: string;
}

/** The chain at `rpcUrl`: its id and the hash of its block 0 (a new devnet has a new one). */
export async function chainIdentity(rpcUrl: string, network: string): Promise<ChainIdentity> {
  const client = chainClient(rpcUrl, network);
  const [chainId, genesis] = await Promise.all([client.getChainId(), client.getBlock({ blockNumber: 0n })]);
  return { chain_id: chainId, genesis_hash: genesis.hash };
}

/** The recorded history; none (no file, or not one this code wrote) is an empty one. */
export async function readChainHistory(dataDir: string): Promise<ChainHistory> {
  const text = await readFile(path.join(dataDir, CHAIN_HISTORY_FILE), 'utf8').catch(() => undefined);
  if (text === undefined) return { chains: [] };
  try {
    const decoded = ChainHistory.decode(JSON.parse(text));
    return isRight(decoded) ? decoded.right : { chains: [] };
  } catch {
    return { chains: [] };
  }
}

const same = (e: ChainIdentity, c: ChainIdentity) => e.chain_id === c.chain_id && e.genesis_hash === c.genesis_hash;

/** What a start against `current` means for the data recorded before it (pure). */
export function chainChange(history: ChainHistory, current: ChainIdentity): ChainEntry | undefined {
  const last = history.chains.at(-1);
  return last && !same(last, current) ? last : undefined;
}

/** The history with this start recorded: the last entry's last_seen moved on, or a new entry. */
export function recordStart(history: ChainHistory, current: ChainIdentity, now: Date): ChainHistory {
  const at = now.toISOString();
  const last = history.chains.at(-1);
  if (last && same(last, current)) return { chains: [...history.chains.slice(0, -1), { ...last, last_seen: at }] };
  return { chains: [...history.chains, { ...current, first_seen: at, last_seen: at }] };
}

export async function writeChainHistory(dataDir: string, history: ChainHistory): Promise<void> {
  const file = path.join(dataDir, CHAIN_HISTORY_FILE);
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(history, null, 2)}\n`);
  await rename(temporary, file);
}

/** What a change of chain means, in words for the log and for `ops audit`. */
export function chainChangeNotice(previous: ChainEntry, current: ChainIdentity & { first_seen?: string }): string {
  return (
    `this data directory's earlier purchases were settled on another chain (chain id ${previous.chain_id}, ` +
    `genesis ${previous.genesis_hash.slice(0, 18)}…, last used ${previous.last_seen}); the chain now ` +
    `(chain id ${current.chain_id}, genesis ${current.genesis_hash.slice(0, 18)}…) does not hold their ` +
    'transactions. Their signed reports still verify offline, but their settlements cannot be looked up and ' +
    'refunds cannot be paid on this chain. In development the devnet starts anew on every npm start: use a ' +
    'fresh DATA_DIR for a clean start (README, "The development chain and ./data").'
  );
}
