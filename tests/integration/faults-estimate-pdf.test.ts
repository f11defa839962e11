/**
 * An estimate e-mail while its PDF cannot be made (PostgreSQL through the Neon driver): the
 * database away, or every PDF worker busy, when the e-mail is being made or its outcome written.
 * It is never sent without its PDF, spends no attempt, and goes once, with it, after.
 * Decision record: docs/decisions/0023-faults-lose-nothing-and-send-nothing-twice.md.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queueEmail } from '../../src/features/email/public/email.server.ts';
import { deliverQueued, type DeliverOptions } from '../../src/features/email/email-delivery.server.ts';
import { resendIdempotencyKey } from '../../src/features/email/providers/resend.server.ts';
import { unsubscribeLinks, unsubscribeSigner } from '../../src/features/email/unsubscribe.server.ts';
import { estimateAttachments } from '../../src/features/email/estimate-attachments.server.ts';
import { estimatePdfFilename, PDF_MESSAGES } from '../../src/features/net-sheet/public/estimate-pdf.server.ts';
import { WorkersBusy } from '../../src/platform/workers-busy.server.ts';
import { DatabaseUnavailable } from '../../src/platform/db.ts';
import { deliverDueEmail } from '../../src/app/scheduled-jobs.ts';
import { openTestDatabase, type TestDatabase } from '../support/backends.ts';
import { AUTH, FROM, resend, SITE_URL, startHarness, type Harness } from '../support/faults-harness.ts';
import { startWsProxy, type RunningWsProxy } from '../support/ws-proxy.ts';

// What the burst above met on a loaded machine, one step at a time: an estimate e-mail whose row was
// claimed just before the database went away, so that its PDF could not be read.
type Attachments = NonNullable<DeliverOptions['attachments']>;

describe('the database goes away while an estimate e-mail is being made (PostgreSQL through the Neon driver)', () => {
  let proxy: RunningWsProxy;
  let test: TestDatabase;
  let harness: Harness;
  let options: DeliverOptions;
  let pdfs: Attachments;

  beforeAll(async () => {
    proxy = await startWsProxy();
    test = await openTestDatabase('postgres', 'faults-pdf', { wsProxy: proxy.address });
    harness = await startHarness(test, 'resend');
    pdfs = estimateAttachments(test.db, SITE_URL);
    options = {
      from: FROM,
      unsubscribe: unsubscribeLinks(SITE_URL, unsubscribeSigner(AUTH.sessionKey)),
      attachments: pdfs,
    };
  });

  afterAll(async () => {
    proxy.resume();
    await harness.api.close();
    await test.close();
    await proxy.stop();
  });

  /** A queued copy of the agent page's estimate for a visitor, as a lead queues it. */
  const queueEstimate = (visitor: string) =>
    queueEmail(test.db, {
      kind: 'estimate',
      to: { email: `${visitor}@example.com`, name: 'Dana Visitor' },
      subject: 'Your estimated net proceeds',
      html: '<p>Your estimate</p>',
      text: 'Your estimate',
      estimateUuid: harness.agents.page.estimateUuid,
    });

  /** Attachments made with the database gone: every connection dropped and no new one taken. */
  const withDatabaseGone: Attachments = (delivery) => {
    proxy.pause();
    proxy.cut();
    return pdfs(delivery);
  };

  const deliveryRow = async (id: number) => {
    const [row] = await test.db.query<{ status: string; attempts: number; last_error: string | null }>(
      'SELECT status, attempts, last_error FROM email_deliveries WHERE id = $1',
      [id],
    );
    return row;
  };

  /** What Resend was asked and took for one delivery: each request's status, and the files it kept. */
  const resendSaw = (id: number) => ({
    statuses: resend.requests
      .filter((request) => request.headers['idempotency-key'] === resendIdempotencyKey(id))
      .map((request) => request.status),
    files: resend.emails
      .filter((email) => email.idempotencyKey === resendIdempotencyKey(id))
      .map((email) => email.attachments.map((file) => file.filename)),
  });

  it('is not sent without its PDF while the database is away, spends no attempt, and goes once, with it, after', async () => {
    resend.reset();
    const id = await queueEstimate('visitor.pdf.away');
    const first = await deliverQueued(test.db, harness.deps.email.provider, {
      ...options,
      ids: [id],
      attachments: async (delivery) => {
        try {
          return await withDatabaseGone(delivery);
        } finally {
          proxy.resume();
        }
      },
    });
    expect(first.retrying).toEqual([id]);
    expect(resendSaw(id)).toEqual({ statuses: [], files: [] });
    const waiting = await deliveryRow(id);
    expect(waiting).toMatchObject({ status: 'queued', attempts: 0 });
    expect(waiting?.last_error).toMatch(/^Not sent yet: the database was unavailable/);

    await test.db.query('UPDATE email_deliveries SET next_attempt_at = now() WHERE id = $1', [id]);
    expect((await deliverQueued(test.db, harness.deps.email.provider, { ...options, ids: [id] })).sent).toEqual([id]);
    expect(resendSaw(id)).toEqual({
      statuses: [200],
      files: [[estimatePdfFilename(harness.agents.page.estimateUuid)]],
    });
    expect(await deliveryRow(id)).toMatchObject({ status: 'sent', attempts: 1 });
  });

  it('is not sent without its PDF while every PDF worker is busy, spends no attempt, and goes once, with it, after', async () => {
    resend.reset();
    const id = await queueEstimate('visitor.pdf.busy');
    // What renderInWorker throws when the pool's queue is full (a burst of leads, each with its sheet).
    const busy: Attachments = () => Promise.reject(new WorkersBusy(PDF_MESSAGES.busy));
    const first = await deliverQueued(test.db, harness.deps.email.provider, {
      ...options,
      ids: [id],
      attachments: busy,
    });
    expect(first.retrying).toEqual([id]);
    expect(resendSaw(id)).toEqual({ statuses: [], files: [] });
    const waiting = await deliveryRow(id);
    expect(waiting).toMatchObject({ status: 'queued', attempts: 0 });
    expect(waiting?.last_error).toMatch(/^Not sent yet: every PDF worker was busy/);

    await test.db.query('UPDATE email_deliveries SET next_attempt_at = now() WHERE id = $1', [id]);
    expect((await deliverQueued(test.db, harness.deps.email.provider, { ...options, ids: [id] })).sent).toEqual([id]);
    expect(resendSaw(id)).toEqual({
      statuses: [200],
      files: [[estimatePdfFilename(harness.agents.page.estimateUuid)]],
    });
  });

  it('still away when the outcome is written: sent once, with its PDF, by the scheduled run after the claim', async () => {
    resend.reset();
    const id = await queueEstimate('visitor.pdf.gone');
    // The claim was taken; the database goes and stays away, so nothing can be recorded either.
    await expect(
      deliverQueued(test.db, harness.deps.email.provider, { ...options, ids: [id], attachments: withDatabaseGone }),
    ).rejects.toBeInstanceOf(DatabaseUnavailable);
    proxy.resume();
    expect(resendSaw(id)).toEqual({ statuses: [], files: [] });

    // As the burst's test does: the claim's lease has run out.
    await test.db.query('UPDATE email_deliveries SET next_attempt_at = now() WHERE id = $1', [id]);
    const report = await deliverDueEmail(test.db, harness.deps);
    expect(report).toMatchObject({ sent: 1, failed: 0 });
    expect(resendSaw(id)).toEqual({
      statuses: [200],
      files: [[estimatePdfFilename(harness.agents.page.estimateUuid)]],
    });
    expect(await deliveryRow(id)).toMatchObject({ status: 'sent' });
  });
});
