/**
 * The delivery queue (deliverQueued) on both backends: retries with exponential backoff until a
 * delivery fails after its last attempt, a retried delivery sent once the provider recovers, no row
 * sent twice by concurrent workers or taken from a worker before its lease runs out, and a queued
 * e-mail rolled back with its transaction.
 */
import { describe, expect, it } from 'vitest';
import {
  CLAIM_LEASE_MINUTES,
  MAX_ATTEMPTS,
  queueEmail,
  queueEmails,
  type OutgoingEmail,
} from '../../src/features/email/public/email.server.ts';
import { deliverQueued } from '../../src/features/email/email-delivery.server.ts';
import { BACKENDS } from '../support/backends.ts';
import {
  countDeliveries,
  deliveryById,
  failingProvider,
  heldProvider,
  recordingProvider,
  TEST_DELIVERY,
  TEST_FROM,
  useEmailSuite,
} from '../support/email-suite.ts';

describe.each(BACKENDS)('e-mail on %s', (backend) => {
  const suite = useEmailSuite(backend, 'email-delivery-queue');

  describe('deliverQueued', () => {
    const message = (to: string): OutgoingEmail => ({
      kind: 'estimate',
      to: { email: to, name: 'Test Recipient' },
      subject: `Subject for ${to}`,
      html: `<p>${to}</p>`,
      text: to,
    });
    const minutesFromNow = (minutes: number) => new Date(Date.now() + minutes * 60_000);

    it('retries with exponential backoff and marks the delivery failed after 5 attempts', async () => {
      const id = await queueEmail(suite.db, message('retry@example.com'));
      const failing = failingProvider('Mailbox unavailable');
      let now = new Date(Date.now() + 1000);
      for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) {
        const report = await deliverQueued(suite.db, failing, { ...TEST_DELIVERY, ids: [id], now });
        const [row] = await suite.db.query<{ status: string; attempts: number; next_attempt_at: Date }>(
          'SELECT status, attempts, next_attempt_at FROM email_deliveries WHERE id = $1',
          [id],
        );
        expect(row?.attempts).toBe(attempt);
        if (attempt < MAX_ATTEMPTS) {
          expect(report).toEqual({ sent: [], retrying: [id], failed: [], suppressed: [] });
          expect(row?.status).toBe('queued');
          // 1, 2, 4, 8 minutes after this attempt.
          expect((row?.next_attempt_at.getTime() ?? 0) - now.getTime()).toBe(2 ** (attempt - 1) * 60_000);
          // Not due again before then.
          const early = new Date(now.getTime() + 2 ** (attempt - 1) * 60_000 - 1000);
          expect(await deliverQueued(suite.db, failing, { ...TEST_DELIVERY, ids: [id], now: early })).toEqual({
            sent: [],
            retrying: [],
            failed: [],
            suppressed: [],
          });
          now = row?.next_attempt_at ?? now;
        } else {
          expect(report).toEqual({ sent: [], retrying: [], failed: [id], suppressed: [] });
          expect(row?.status).toBe('failed');
        }
      }
      expect(failing.calls).toBe(MAX_ATTEMPTS);
      expect(await deliveryById(suite.db, id)).toMatchObject({ status: 'failed', last_error: 'Mailbox unavailable' });
      // A failed delivery is never picked up again.
      const later = await deliverQueued(suite.db, recordingProvider(), {
        ...TEST_DELIVERY,
        ids: [id],
        now: minutesFromNow(24 * 60),
      });
      expect(later).toEqual({ sent: [], retrying: [], failed: [], suppressed: [] });
    });

    it('sends a retried delivery once the provider recovers', async () => {
      const id = await queueEmail(suite.db, message('recovers@example.com'));
      await deliverQueued(suite.db, failingProvider(), { ...TEST_DELIVERY, ids: [id] });
      const recording = recordingProvider();
      const report = await deliverQueued(suite.db, recording, { ...TEST_DELIVERY, ids: [id], now: minutesFromNow(2) });
      expect(report).toEqual({ sent: [id], retrying: [], failed: [], suppressed: [] });
      expect(recording.sent.map((sent) => [sent.deliveryId, sent.to.email, sent.from])).toEqual([
        [id, 'recovers@example.com', TEST_FROM],
      ]);
      expect(await deliveryById(suite.db, id)).toMatchObject({
        status: 'sent',
        attempts: 2,
        provider: 'recording-fake',
        provider_message_id: `rec-${id}-1`,
        last_error: 'Provider unavailable (503)',
      });
    });

    it('never sends a row twice when workers run concurrently', async () => {
      const ids = await queueEmails(
        suite.db,
        Array.from({ length: 30 }, (_, index) => message(`concurrent${index}@example.com`)),
      );
      const recording = recordingProvider(5);
      const reports = await Promise.all(
        Array.from({ length: 6 }, () => deliverQueued(suite.db, recording, { ...TEST_DELIVERY, ids, limit: 10 })),
      );
      // Six workers of 10 share 30 rows: some may claim fewer, none claims a row another claimed.
      const sentByReports = reports.flatMap((report) => report.sent);
      expect(sentByReports.toSorted((a, b) => a - b)).toEqual(ids.toSorted((a, b) => a - b));
      const sentIds = recording.sent.map((sent) => sent.deliveryId);
      expect(new Set(sentIds).size).toBe(sentIds.length);
      const [counts] = await suite.db.query<{ sent: number; single: number }>(
        `SELECT count(*) FILTER (WHERE status = 'sent')::int AS sent, count(*) FILTER (WHERE attempts = 1)::int AS single
           FROM email_deliveries WHERE id = ANY ($1::integer[])`,
        [ids],
      );
      expect(counts).toEqual({ sent: 30, single: 30 });
      // And again later: nothing left to send.
      expect(await deliverQueued(suite.db, recording, { ...TEST_DELIVERY, ids })).toEqual({
        sent: [],
        retrying: [],
        failed: [],
        suppressed: [],
      });
      expect(recording.sent).toHaveLength(30);
    });

    it('leaves a row that is being sent to its worker until the lease runs out', async () => {
      const id = await queueEmail(suite.db, message('lease@example.com'));
      const held = heldProvider();
      const first = deliverQueued(suite.db, held, { ...TEST_DELIVERY, ids: [id] });
      while (held.started === 0) await new Promise((resolve) => setTimeout(resolve, 5));
      const recording = recordingProvider();
      expect(await deliverQueued(suite.db, recording, { ...TEST_DELIVERY, ids: [id] })).toEqual({
        sent: [],
        retrying: [],
        failed: [],
        suppressed: [],
      });
      held.release();
      expect(await first).toEqual({ sent: [id], retrying: [], failed: [], suppressed: [] });
      // Had the worker died, the row would be due again once the lease ran out; it did not, so it is sent.
      expect(
        await deliverQueued(suite.db, recording, {
          ...TEST_DELIVERY,
          ids: [id],
          now: minutesFromNow(CLAIM_LEASE_MINUTES + 1),
        }),
      ).toEqual({ sent: [], retrying: [], failed: [], suppressed: [] });
      expect(recording.sent).toHaveLength(0);
    });

    it('rolls a queued e-mail back with the transaction that queued it', async () => {
      const before = await countDeliveries(suite.db);
      await expect(
        suite.db.transaction(async (tx) => {
          await queueEmail(tx, message('rolled-back@example.com'));
          throw new Error('the write that caused it failed');
        }),
      ).rejects.toThrow('the write that caused it failed');
      expect(await countDeliveries(suite.db)).toBe(before);
    });
  });
});
