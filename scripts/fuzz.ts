/**
 * `npm run fuzz`: the fuzz of every API operation (tests/integration/fuzz.test.ts) at length,
 * FUZZ_RUNS cases per backend (default 50,000) from FUZZ_SEED (default: a new one, printed), on
 * FUZZ_BACKENDS (default pglite,postgres). A refused write is checked against the digest of every
 * table on one write in FUZZ_DIGEST_EVERY (default 5 here: the digest reads every row, and tens of
 * thousands of cases grow the tables; npm test checks every write). Exits non-zero on a finding,
 * printing the failing request and the seed that makes it again.
 */
import { spawnSync } from 'node:child_process';

const env = {
  ...process.env,
  FUZZ_RUNS: process.env.FUZZ_RUNS ?? '50000',
  FUZZ_SEED: process.env.FUZZ_SEED ?? String(Math.floor(Math.random() * 2 ** 31)),
  FUZZ_DIGEST_EVERY: process.env.FUZZ_DIGEST_EVERY ?? '5',
};
console.log(`fuzz: FUZZ_RUNS=${env.FUZZ_RUNS} FUZZ_SEED=${env.FUZZ_SEED} FUZZ_DIGEST_EVERY=${env.FUZZ_DIGEST_EVERY}`);
const run = spawnSync(
  'vitest',
  ['run', '--project', 'integration', '--reporter', 'verbose', 'tests/integration/fuzz.test.ts'],
  {
    env,
    stdio: 'inherit',
  },
);
process.exit(run.status ?? 1);
