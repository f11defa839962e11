/** A test file's database for seller updates; the data helpers are seller-updates-data.ts's. */
import { afterAll, beforeAll } from 'vitest';
import { openTestDatabase, type Backend, type TestDatabase } from './backends.ts';

export * from './seller-updates-data.ts';

/** A fresh database for a test file on `backend`, with the featured (active) agent. */
export function useSellerUpdatesDatabase(backend: Backend, label: string): { readonly test: TestDatabase } {
  let test: TestDatabase | undefined;
  beforeAll(async () => {
    test = await openTestDatabase(backend, label);
  }, 120_000);
  afterAll(async () => {
    await test?.close();
  });
  return {
    get test() {
      if (!test) throw new Error('the database is not open yet');
      return test;
    },
  };
}
