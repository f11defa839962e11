/**
 * A job of the worker pool for tests: it holds its worker until the test opens the gate (a shared
 * flag), so a test can keep every worker busy and see what the server does meanwhile, by events
 * rather than by timing. Imported by the worker from this file, like any job module.
 */
import * as z from 'zod';
import { POOL_SIZE, workerJob } from '../../src/platform/worker-pool.server.ts';

const gateJob = workerJob({
  name: 'test-gate',
  moduleUrl: import.meta.url,
  input: z.object({ flag: z.instanceof(SharedArrayBuffer) }),
  output: z.boolean(),
  budgetMs: 60_000,
  handler({ flag }) {
    // Bounded: a gate never opened lets its worker go after 30 s.
    Atomics.wait(new Int32Array(flag), 0, 0, 30_000);
    return Promise.resolve({ output: true });
  },
});

/** Holds every worker of the pool until `open()`; `done` settles when they have all let go. */
export function closeGates(): { open: () => void; done: Promise<unknown> } {
  const flag = new SharedArrayBuffer(4);
  const done = Promise.all(Array.from({ length: POOL_SIZE }, () => gateJob.run({ flag })));
  return {
    open() {
      const cell = new Int32Array(flag);
      Atomics.store(cell, 0, 1);
      Atomics.notify(cell, 0);
    },
    done,
  };
}
