/**
 * What the account-security tests (tests/integration/auth-security-*.test.ts) read back: a success
 * answer of any shape, and an agent's session version (which a refused or replayed request must
 * leave as it was).
 */
import * as z from 'zod';
import type { AuthSuite } from './auth-suite.ts';

export const okResponse = z.object({ success: z.literal(true) }).loose();

export async function sessionVersion(suite: AuthSuite, id: number): Promise<number | undefined> {
  const [row] = await suite.db.query<{ session_version: number }>('SELECT session_version FROM agents WHERE id = $1', [
    id,
  ]);
  return row?.session_version;
}
