import { describe, expect, it } from 'vitest';
import { BACKENDS, openTestDatabase } from '../support/backends.ts';

describe.each(BACKENDS)('%s', (backend) => {
  it('opens', async () => {
    const t = await openTestDatabase(backend, 'smoke');
    const rows = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM agents');
    expect(rows[0]?.n).toBe(1);
    await t.close();
  });
});
