import test from 'ava';
import { localService } from '../../ops/operator/local-service.js';
import type { ReplayProgress } from '../../src/operator/replay.js';
import { loadConfig } from '../../src/config/config.js';
import { embeddedStore } from '../store/fixtures/store-under-test.js';
import { operatorStore } from './operator-store.js';
import { deliveredPurchase, stuckPurchase } from './seed.js';

// `ops replay` with no service running counts its rebuild on a terminal (ops/progress.ts): the replay
// tells the log's head first, then each page committed, and ends where the last page did.

test('a replay the CLI runs itself reports the head, then each page committed, up to its end', async (t) => {
  const w = await operatorStore(embeddedStore);
  t.teardown(() => w.dispose());
  await deliveredPurchase(w.sut.store);
  await stuckPurchase(w.sut.store);
  await w.sut.store.close();

  const heard: ReplayProgress[] = [];
  const service = localService(loadConfig(w.env), () => new Date());
  const done = await service.replay((p) => heard.push(p));
  t.is(done.events, 9);
  t.deepEqual(heard[0], { position: 0n, head: heard[0]!.head });
  t.true(heard[0]!.head > 0n, 'the head is told before the first page');
  t.is(heard.at(-1)!.position.toString(), done.position, 'the last page committed is where the replay ended');
  t.is(heard.at(-1)!.position, heard[0]!.head, 'all of the log it was told of');
});
