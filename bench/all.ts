// `npm run bench`: every benchmark in turn, each in its own process so one's heap and timers
// never colour another's numbers. Each prints its table and writes bench/results/<name>.json.
import { spawnSync } from 'node:child_process';

const benches = [
  'store',
  'rsl',
  'sign',
  'replay',
  'quote',
  'http',
  'inspect-flood',
  'hostile-pattern',
  'claim-404',
  'settle',
];
let failed = 0;
for (const name of benches) {
  console.log(`\n== bench:${name} ==`);
  const run = spawnSync(process.execPath, ['--import', 'tsx', `bench/${name}.bench.ts`], {
    stdio: 'inherit',
    env: process.env,
  });
  if (run.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
