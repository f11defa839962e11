/**
 * An e-mail the database refuses to queue, for the suites that check a request which queues one
 * fails whole (a 500 in the API's error shape, nothing written).
 */
import type { Db } from '../../src/platform/db.ts';

/** The API's answer to a failure of its own. */
export const GENERIC_500 = 'Something went wrong on our side. Please try again.';

/** Runs `work` with a CHECK on email_deliveries that refuses mail to `address`. */
export async function withRefusedAddress(db: Db, address: string, work: () => Promise<void>): Promise<void> {
  await db.query(`ALTER TABLE email_deliveries ADD CONSTRAINT test_refused_address CHECK (to_email <> '${address}')`);
  try {
    await work();
  } finally {
    await db.query('ALTER TABLE email_deliveries DROP CONSTRAINT test_refused_address');
  }
}
