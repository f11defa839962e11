/**
 * Delivery through Resend (its local fake), on both backends: what is sent and recorded, each
 * refusal and what the queue does with it (failed at once, Retry-After, backoff then recovery, a
 * timeout retried under the same Idempotency-Key, unreachable).
 */
import { describe, expect, it } from 'vitest';
import { MAX_RETRY_AFTER_SECONDS } from '../../src/features/email/public/email.server.ts';
import { matching } from '../support/api-suite.ts';
import { BACKENDS } from '../support/backends.ts';
import {
  fakes,
  resendProvider,
  TEST_FROM_HEADER,
  useProviderFakes,
  useProviderSuite,
} from '../support/email-providers-suite.ts';
import { deliveryById } from '../support/email-suite.ts';

useProviderFakes();

describe.each(BACKENDS)('e-mail providers on %s', (backend) => {
  const { suite, queue, sentContent, unsubscribeHeaders, deliver, nextAttemptAt, later } = useProviderSuite(
    backend,
    'email-providers-resend',
  );

  describe('Resend', () => {
    it("delivers: the row is 'sent' with Resend's id; Idempotency-Key, auth and sender as published", async () => {
      const id = await queue('dana@example.com', 'Dana Lopez');
      expect(await deliver(resendProvider(), [id])).toEqual({ sent: [id], retrying: [], failed: [], suppressed: [] });
      expect(fakes.resend.emails).toHaveLength(1);
      const email = fakes.resend.emails[0];
      expect(email).toMatchObject({
        from: TEST_FROM_HEADER,
        to: ['"Dana Lopez" <dana@example.com>'],
        subject: 'Your estimate, dana@example.com',
        ...sentContent('dana@example.com'),
        idempotencyKey: `delivery-${id}`,
        headers: unsubscribeHeaders('dana@example.com'),
      });
      expect(await deliveryById(suite.db, id)).toMatchObject({
        status: 'sent',
        provider: 'resend',
        provider_message_id: email?.id,
        attempts: 1,
        last_error: null,
      });
      const headers = fakes.resend.requests[0]?.headers;
      expect(headers?.authorization).toBe(`Bearer ${fakes.resend.apiKey}`);
      expect(headers?.['content-type']).toBe('application/json');
      expect(headers?.['user-agent']).toMatch(/^li-net-to-seller\//);
    });

    it('a recipient without a name is sent as the bare address', async () => {
      const id = await queue('bare@example.com', null);
      await deliver(resendProvider(), [id]);
      expect(fakes.resend.emails[0]?.to).toEqual(['bare@example.com']);
    });

    it("422: 'failed' at once with Resend's message, never tried again", async () => {
      const id = await queue('not-an-address');
      expect(await deliver(resendProvider(), [id])).toEqual({ sent: [], retrying: [], failed: [id], suppressed: [] });
      expect(await deliveryById(suite.db, id)).toMatchObject({
        status: 'failed',
        provider: 'resend',
        attempts: 1,
        provider_message_id: null,
        sent_at: null,
        last_error:
          'Resend 422 validation_error: Invalid `to` field. The email address needs to follow the `email@example.com` or `Name <email@example.com>` format.',
      });
      expect(await deliver(resendProvider(), [id], later(new Date(), 86_400))).toEqual({
        sent: [],
        retrying: [],
        failed: [],
        suppressed: [],
      });
      expect(fakes.resend.requests).toHaveLength(1);
    });

    it.each([
      [
        'a wrong key (403 invalid_api_key)',
        're_wrong_key_0123456789',
        'Resend 403 invalid_api_key: API key is invalid.',
      ],
      ['no key (401 missing_api_key)', '', 'Resend 401 missing_api_key: Missing API key in the authorization header.'],
    ])("%s: 'failed' at once, without the key in the error", async (_label, apiKey, lastError) => {
      const id = await queue();
      expect(await deliver(resendProvider({ apiKey }), [id])).toEqual({
        sent: [],
        retrying: [],
        failed: [id],
        suppressed: [],
      });
      const row = await deliveryById(suite.db, id);
      expect(row).toMatchObject({ status: 'failed', attempts: 1, last_error: lastError });
      if (apiKey) expect(row?.last_error).not.toContain(apiKey);
      expect(fakes.resend.emails).toHaveLength(0);
    });

    it('429 with Retry-After: queued again exactly that much later, then sent', async () => {
      const id = await queue();
      fakes.resend.trouble({ kind: 'rate-limit', retryAfter: 120 });
      const now = new Date(Date.now() + 1000);
      expect(await deliver(resendProvider(), [id], now)).toEqual({
        sent: [],
        retrying: [id],
        failed: [],
        suppressed: [],
      });
      expect(await deliveryById(suite.db, id)).toMatchObject({
        status: 'queued',
        attempts: 1,
        last_error: matching(/^Resend 429 rate_limit_exceeded: Too many requests\./),
      });
      expect((await nextAttemptAt(id)) - now.getTime()).toBe(120_000);
      // Not before then (the default backoff would have made it due after 60 s).
      expect(await deliver(resendProvider(), [id], later(now, 119))).toEqual({
        sent: [],
        retrying: [],
        failed: [],
        suppressed: [],
      });
      expect(await deliver(resendProvider(), [id], later(now, 120))).toEqual({
        sent: [id],
        retrying: [],
        failed: [],
        suppressed: [],
      });
      expect(await deliveryById(suite.db, id)).toMatchObject({ status: 'sent', attempts: 2 });
    });

    it('429 with Retry-After as an HTTP date, by the database clock', async () => {
      const id = await queue();
      fakes.resend.trouble({ kind: 'rate-limit', retryAfter: new Date(Date.now() + 90_000).toUTCString() });
      await deliver(resendProvider(), [id]);
      const row = await deliveryById(suite.db, id);
      expect(row?.status).toBe('queued');
      expect(row?.due_in_seconds).toBeGreaterThan(80);
      expect(row?.due_in_seconds).toBeLessThanOrEqual(91);
    });

    it('a Retry-After of a day is bounded to an hour', async () => {
      const id = await queue();
      fakes.resend.trouble({ kind: 'rate-limit', retryAfter: 86_400 });
      const now = new Date(Date.now() + 1000);
      await deliver(resendProvider(), [id], now);
      expect((await nextAttemptAt(id)) - now.getTime()).toBe(MAX_RETRY_AFTER_SECONDS * 1000);
    });

    it('429 without Retry-After backs off as any failure (1 minute)', async () => {
      const id = await queue();
      fakes.resend.trouble({ kind: 'rate-limit' });
      const now = new Date(Date.now() + 1000);
      expect(await deliver(resendProvider(), [id], now)).toEqual({
        sent: [],
        retrying: [id],
        failed: [],
        suppressed: [],
      });
      expect((await nextAttemptAt(id)) - now.getTime()).toBe(60_000);
    });

    it('500: retried with backoff, and sent once Resend recovers', async () => {
      const id = await queue();
      fakes.resend.trouble({ kind: 'server-error' }, 2);
      const start = new Date(Date.now() + 1000);
      expect(await deliver(resendProvider(), [id], start)).toEqual({
        sent: [],
        retrying: [id],
        failed: [],
        suppressed: [],
      });
      expect((await nextAttemptAt(id)) - start.getTime()).toBe(60_000);
      const second = later(start, 60);
      expect(await deliver(resendProvider(), [id], second)).toEqual({
        sent: [],
        retrying: [id],
        failed: [],
        suppressed: [],
      });
      expect((await nextAttemptAt(id)) - second.getTime()).toBe(120_000);
      expect(await deliveryById(suite.db, id)).toMatchObject({
        status: 'queued',
        attempts: 2,
        last_error: 'Resend 500 internal_server_error: An unexpected error occurred.',
      });
      expect(await deliver(resendProvider(), [id], later(second, 120))).toEqual({
        sent: [id],
        retrying: [],
        failed: [],
        suppressed: [],
      });
      expect(await deliveryById(suite.db, id)).toMatchObject({
        status: 'sent',
        attempts: 3,
        provider_message_id: fakes.resend.emails[0]?.id,
      });
      expect(fakes.resend.emails).toHaveLength(1);
      expect(fakes.resend.requests.map((request) => request.status)).toEqual([500, 500, 200]);
    });

    it('a timeout is retried, and the retry (same Idempotency-Key) does not send the e-mail twice', async () => {
      const id = await queue();
      fakes.resend.trouble({ kind: 'slow', ms: 600 });
      const now = new Date(Date.now() + 1000);
      expect(await deliver(resendProvider({ timeoutMs: 150 }), [id], now)).toEqual({
        sent: [],
        retrying: [id],
        failed: [],
        suppressed: [],
      });
      expect((await deliveryById(suite.db, id))?.last_error).toBe('Resend did not answer within 0.15 s');
      // Resend had accepted it; the answer was lost.
      expect(fakes.resend.emails).toHaveLength(1);
      expect(await deliver(resendProvider(), [id], later(now, 60))).toEqual({
        sent: [id],
        retrying: [],
        failed: [],
        suppressed: [],
      });
      expect(fakes.resend.emails).toHaveLength(1);
      expect((await deliveryById(suite.db, id))?.provider_message_id).toBe(fakes.resend.emails[0]?.id);
    });

    it('unreachable: retried with backoff', async () => {
      const id = await queue();
      expect(await deliver(resendProvider({ baseUrl: fakes.unreachable }), [id])).toEqual({
        sent: [],
        retrying: [id],
        failed: [],
        suppressed: [],
      });
      expect(await deliveryById(suite.db, id)).toMatchObject({
        status: 'queued',
        last_error: 'Resend could not be reached (ECONNREFUSED)',
      });
    });
  });
});
