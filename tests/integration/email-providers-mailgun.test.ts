/**
 * Delivery through Mailgun (its local fake), on both backends: what is sent and recorded, each
 * refusal and what the queue does with it (failed at once, Retry-After, backoff then recovery, a
 * timeout retried).
 */
import { describe, expect, it } from 'vitest';
import { BACKENDS } from '../support/backends.ts';
import {
  fakes,
  mailgunProvider,
  TEST_FROM_HEADER,
  useProviderFakes,
  useProviderSuite,
} from '../support/email-providers-suite.ts';
import { deliveryById } from '../support/email-suite.ts';

useProviderFakes();

describe.each(BACKENDS)('e-mail providers on %s', (backend) => {
  const { suite, queue, sentContent, unsubscribeHeaders, deliver, nextAttemptAt, later } = useProviderSuite(
    backend,
    'email-providers-mailgun',
  );

  describe('Mailgun', () => {
    it("delivers: the row is 'sent' with Mailgun's id; Basic auth and form fields as published", async () => {
      const id = await queue('dana@example.com', 'Dana Lopez');
      expect(await deliver(mailgunProvider(), [id])).toEqual({ sent: [id], retrying: [], failed: [], suppressed: [] });
      expect(fakes.mailgun.messages).toHaveLength(1);
      const sent = fakes.mailgun.messages[0];
      expect(sent).toMatchObject({
        domain: 'mg.example.com',
        from: TEST_FROM_HEADER,
        to: ['"Dana Lopez" <dana@example.com>'],
        subject: 'Your estimate, dana@example.com',
        ...sentContent('dana@example.com'),
        variables: { delivery_id: String(id) },
        headers: unsubscribeHeaders('dana@example.com'),
        contentType: 'application/x-www-form-urlencoded',
      });
      expect(sent?.id).toMatch(/^<\d{14}\.[0-9a-f]{12}@mg\.example\.com>$/);
      expect(await deliveryById(suite.db, id)).toMatchObject({
        status: 'sent',
        provider: 'mailgun',
        provider_message_id: sent?.id,
        attempts: 1,
        last_error: null,
      });
      expect(fakes.mailgun.requests[0]?.headers.authorization).toBe(
        `Basic ${Buffer.from(`api:${fakes.mailgun.apiKey}`).toString('base64')}`,
      );
    });

    it("400: 'failed' at once with Mailgun's message", async () => {
      const id = await queue('not-an-address');
      expect(await deliver(mailgunProvider(), [id])).toEqual({ sent: [], retrying: [], failed: [id], suppressed: [] });
      expect(await deliveryById(suite.db, id)).toMatchObject({
        status: 'failed',
        provider: 'mailgun',
        attempts: 1,
        last_error: "Mailgun 400: 'to' parameter is not a valid address. please check documentation",
      });
    });

    it("401 for a bad key: 'failed' at once, without the key or its Basic credentials in the error", async () => {
      const id = await queue();
      const apiKey = 'wrong-mailgun-key-9876543210';
      expect(await deliver(mailgunProvider({ apiKey }), [id])).toEqual({
        sent: [],
        retrying: [],
        failed: [id],
        suppressed: [],
      });
      const row = await deliveryById(suite.db, id);
      expect(row).toMatchObject({ status: 'failed', last_error: 'Mailgun 401: Forbidden' });
      expect(row?.last_error).not.toContain(apiKey);
      expect(fakes.mailgun.messages).toHaveLength(0);
    });

    it("404 for a domain Mailgun does not know: 'failed' at once", async () => {
      const id = await queue();
      await deliver(mailgunProvider({ domain: 'other.example.com' }), [id]);
      expect(await deliveryById(suite.db, id)).toMatchObject({
        status: 'failed',
        last_error: 'Mailgun 404: Domain not found: other.example.com',
      });
    });

    it('429 with Retry-After: queued again exactly that much later', async () => {
      const id = await queue();
      fakes.mailgun.trouble({ kind: 'rate-limit', retryAfter: 30 });
      const now = new Date(Date.now() + 1000);
      expect(await deliver(mailgunProvider(), [id], now)).toEqual({
        sent: [],
        retrying: [id],
        failed: [],
        suppressed: [],
      });
      expect(await deliveryById(suite.db, id)).toMatchObject({
        status: 'queued',
        last_error: 'Mailgun 429: Too many requests',
      });
      expect((await nextAttemptAt(id)) - now.getTime()).toBe(30_000);
      expect(await deliver(mailgunProvider(), [id], later(now, 30))).toEqual({
        sent: [id],
        retrying: [],
        failed: [],
        suppressed: [],
      });
    });

    it.each([500, 502, 503])('%i: retried with backoff, then sent once Mailgun recovers', async (status) => {
      const id = await queue();
      fakes.mailgun.trouble({ kind: 'server-error', status });
      const now = new Date(Date.now() + 1000);
      expect(await deliver(mailgunProvider(), [id], now)).toEqual({
        sent: [],
        retrying: [id],
        failed: [],
        suppressed: [],
      });
      expect(await deliveryById(suite.db, id)).toMatchObject({
        status: 'queued',
        last_error: `Mailgun ${status}: Internal Server Error`,
      });
      expect((await nextAttemptAt(id)) - now.getTime()).toBe(60_000);
      expect(await deliver(mailgunProvider(), [id], later(now, 60))).toEqual({
        sent: [id],
        retrying: [],
        failed: [],
        suppressed: [],
      });
      expect(await deliveryById(suite.db, id)).toMatchObject({ status: 'sent', attempts: 2 });
    });

    it('a timeout is retried', async () => {
      const id = await queue();
      fakes.mailgun.trouble({ kind: 'slow', ms: 600 });
      await deliver(mailgunProvider({ timeoutMs: 200 }), [id]);
      expect(await deliveryById(suite.db, id)).toMatchObject({
        status: 'queued',
        last_error: 'Mailgun did not answer within 0.2 s',
      });
    });
  });
});
