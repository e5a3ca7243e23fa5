import type { ServiceConfig } from '../config/config.js';
import type { Logger } from '../runtime/log.js';
import {
  chainChange,
  chainChangeNotice,
  chainIdentity,
  readChainHistory,
  recordStart,
  writeChainHistory,
} from './chain-history.js';

// At start: records the chain this start runs against in DATA_DIR, and warns when it is not the chain the
// data directory's earlier purchases were settled on (./chain-history.ts). A chain that does not answer
// is not this step's business (readiness reports it): the record is then left as it was.
export async function noticeChainChange(
  config: ServiceConfig,
  log: Logger,
  /** How many purchases of the data directory were paid (none: a new chain changes nothing for them). */
  paidPurchases: () => Promise<number>,
  now = new Date(),
): Promise<void> {
  let current;
  try {
    current = await chainIdentity(config.rpcUrl, config.network);
  } catch (err) {
    log.debug({ err: { message: (err as Error).message } }, 'chain identity not read; chain history unchanged');
    return;
  }
  const history = await readChainHistory(config.dataDir);
  const previous = chainChange(history, current);
  const paid = previous ? await paidPurchases() : 0;
  if (previous && paid > 0)
    log.warn(
      { previous_chain: previous, chain: current, paid_purchases: paid, file: 'chain-history.json' },
      `new chain under an old data directory: ${chainChangeNotice(previous, current)}`,
    );
  await writeChainHistory(config.dataDir, recordStart(history, current, now));
}
