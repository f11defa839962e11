/**
 * On PostgreSQL, a parameterised query is a named (prepared) statement: the server parses it once
 * per connection and keeps its plan. Queries without parameters stay simple-protocol text, so a
 * script of several statements still runs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, type TestDatabase } from '../support/backends.ts';

describe('statements on PostgreSQL', () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await openTestDatabase('postgres', 'prepared');
  });
  afterAll(() => test.close());

  const READ = 'SELECT slug FROM agents WHERE id = $1';

  it('prepares a parameterised query once per connection and reuses it with other values', async () => {
    const { featuredAgent } = test;
    const seen = await test.db.transaction(async (tx) => {
      const first = await tx.query<{ slug: string }>(READ, [featuredAgent.id]);
      const second = await tx.query<{ slug: string }>(READ, [featuredAgent.id + 1_000]);
      const third = await tx.query<{ slug: string }>(READ, [featuredAgent.id]);
      const prepared = await tx.query<{ count: number; executions: number }>(
        `SELECT count(*)::int AS count, coalesce(sum(generic_plans + custom_plans), 0)::int AS executions
           FROM pg_prepared_statements WHERE statement = $1`,
        [READ],
      );
      return { first, second, third, prepared };
    });
    expect(seen.first).toEqual([{ slug: featuredAgent.slug }]);
    expect(seen.second).toEqual([]);
    expect(seen.third).toEqual([{ slug: featuredAgent.slug }]);
    expect(seen.prepared).toEqual([{ count: 1, executions: 3 }]);
  });

  it('runs a script of several statements without parameters as before', async () => {
    await test.db.exec('CREATE TEMP TABLE scratch (n int); INSERT INTO scratch VALUES (1), (2); DROP TABLE scratch');
    expect(await test.db.query<{ n: number }>('SELECT 1 + 1 AS n')).toEqual([{ n: 2 }]);
  });
});
