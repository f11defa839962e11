/**
 * Resend and Mailgun, each against its local fake (tests/fakes/), on both backends: delivery,
 * each kind of refusal and what the delivery queue does with it (failed at once, Retry-After,
 * backoff then recovery), the choice of provider from the settings at send time, the Mailgun key
 * encrypted at rest, and a provider failure during POST /api/leads.
 */
import { createServer } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { $ZodError } from 'zod/v4/core';
import {
  loadMailgunSettings,
  mailgunSettingsView,
  readMailgunSettings,
  saveMailgunSettings,
} from '../../src/features/email/email-settings.server.ts';
import type { MailgunSettingsInput } from '../../src/features/email/email-settings.ts';
import {
  createOutboxProvider,
  MAX_RETRY_AFTER_SECONDS,
  parseRetryAfter,
  ProviderError,
  queueEmail,
  queueEmails,
  type EmailProvider,
  type OutgoingEmail,
  type ProviderMessage,
} from '../../src/features/email/email.server.ts';
import { deliverQueued } from '../../src/features/email/email-delivery.server.ts';
import { chooseProvider, settingsAwareProvider } from '../../src/features/email/providers/choose-provider.server.ts';
import { createMailgunProvider } from '../../src/features/email/providers/mailgun.server.ts';
import { createResendProvider } from '../../src/features/email/providers/resend.server.ts';
import { withUnsubscribeFooter } from '../../src/features/email/unsubscribe-footer.ts';
import { maskedKey } from '../../src/platform/encryption.ts';
import { EncryptionError } from '../../src/platform/encryption.ts';
import { parseEnv } from '../../src/platform/env.ts';
import { startFakeMailgun, type FakeMailgun } from '../fakes/mailgun.ts';
import { startFakeResend, type FakeResend } from '../fakes/resend.ts';
import { anyNumber, anyString, expectJson, matching } from '../support/api-suite.ts';
import { BACKENDS } from '../support/backends.ts';
import { deliveriesOfLead, deliveryById, TEST_DELIVERY, TEST_FROM, useEmailSuite } from '../support/email-suite.ts';
import { leadById } from '../support/fixtures.ts';
import { leadResponse } from '../support/schemas.ts';

const ENCRYPTION_KEY = 'test-encryption-key-for-email-providers-0001';
const OTHER_ENCRYPTION_KEY = 'another-encryption-key-that-was-not-used-0002';
const MAILGUN_FROM = { name: 'Harbor Point Realty', email: 'homes@mg.example.com' };
const TEST_FROM_HEADER = `"${TEST_FROM.name}" <${TEST_FROM.email}>`;
const anyDate = (): unknown => expect.any(Date);
/** A URL nothing listens on: a port the system just gave out and took back. */
let UNREACHABLE = '';
async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no TCP port');
  return `http://127.0.0.1:${address.port}`;
}

let resend: FakeResend;
let mailgun: FakeMailgun;

beforeAll(async () => {
  [resend, mailgun, UNREACHABLE] = await Promise.all([startFakeResend(), startFakeMailgun(), closedPortUrl()]);
});
afterAll(async () => {
  await Promise.all([resend.close(), mailgun.close()]);
});
afterEach(() => {
  resend.reset();
  mailgun.reset();
});

const resendProvider = (options: { apiKey?: string; baseUrl?: string; timeoutMs?: number } = {}) =>
  createResendProvider({ apiKey: resend.apiKey, baseUrl: resend.url, ...options });
const mailgunProvider = (options: { apiKey?: string; baseUrl?: string; domain?: string; timeoutMs?: number } = {}) =>
  createMailgunProvider({ apiKey: mailgun.apiKey, domain: mailgun.domain, baseUrl: mailgun.url, ...options });

/** The environment as the server would parse it, with the fakes as the providers' base URLs. */
const envWith = (variables: Record<string, string> = {}) =>
  parseEnv({
    RESEND_API_URL: resend.url,
    MAILGUN_API_URL: mailgun.url,
    ENCRYPTION_KEY,
    ...variables,
  });

const providerMessage = (to = 'dana@example.com', deliveryId = 1): ProviderMessage => ({
  deliveryId,
  from: TEST_FROM,
  to: { email: to, name: 'Dana Lopez' },
  subject: 'Your estimated net proceeds: $279,341.00',
  html: '<p>Hello Dana</p>',
  text: 'Hello Dana',
  headers: {},
});

/** What a send is rejected with. */
async function rejection(promise: Promise<unknown>): Promise<ProviderError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ProviderError) return error;
    throw error;
  }
  throw new Error('expected the send to be rejected');
}

describe('Retry-After', () => {
  const now = Date.parse('2026-03-02T12:00:00Z');
  it.each([
    ['seconds', '120', 120],
    ['zero', '0', 0],
    ['a fraction, rounded up', '1.2', 2],
    ['an HTTP date', 'Mon, 02 Mar 2026 12:01:30 GMT', 90],
    ['an HTTP date in the past', 'Mon, 02 Mar 2026 11:00:00 GMT', 0],
    ['missing', null, undefined],
    ['blank', '  ', undefined],
    ['negative', '-5', undefined],
    ['nonsense', 'soon', undefined],
  ])('reads %s', (_label, header, expected) => {
    expect(parseRetryAfter(header, now)).toBe(expected);
  });
});

describe('the provider clients', () => {
  it('Resend: a replay with the same Idempotency-Key answers the first id and sends nothing more', async () => {
    const provider = resendProvider();
    const first = await provider.send(providerMessage('dana@example.com', 41));
    const second = await provider.send(providerMessage('dana@example.com', 41));
    expect(second).toEqual(first);
    expect(resend.emails).toHaveLength(1);
    expect(resend.requests.map((request) => request.headers['idempotency-key'])).toEqual([
      'delivery-41',
      'delivery-41',
    ]);
  });

  it('Resend: the same key with another message is refused as not retryable (409)', async () => {
    const provider = resendProvider();
    await provider.send(providerMessage('dana@example.com', 42));
    const error = await rejection(provider.send(providerMessage('other@example.com', 42)));
    expect(error).toMatchObject({
      retryable: false,
      status: 409,
      message: 'Resend 409 invalid_idempotent_request: Same idempotency key used with a different request payload.',
    });
  });

  it.each([
    ['Resend', () => resendProvider({ baseUrl: UNREACHABLE }), 'Resend could not be reached (ECONNREFUSED)'],
    ['Mailgun', () => mailgunProvider({ baseUrl: UNREACHABLE }), 'Mailgun could not be reached (ECONNREFUSED)'],
  ])('%s unreachable: a retryable error', async (_label, provider, message) => {
    const error = await rejection(provider().send(providerMessage()));
    expect(error).toMatchObject({ retryable: true, status: undefined, message });
  });

  it('a 200 without an id is retryable (Resend keeps the key, so the retry is not a second e-mail)', async () => {
    const fakeFetch: typeof fetch = () => Promise.resolve(new Response('<html>OK</html>', { status: 200 }));
    const error = await rejection(
      createResendProvider({ apiKey: 'k', baseUrl: resend.url, fetch: fakeFetch }).send(providerMessage()),
    );
    expect(error).toMatchObject({ retryable: true, message: 'Resend answered 200 without an e-mail id' });
  });

  it('never puts the API key in an error, even when the provider echoes it', async () => {
    const apiKey = 're_echoed_secret_key_123456';
    const echo: typeof fetch = () =>
      Promise.resolve(
        Response.json(
          { statusCode: 400, name: 'validation_error', message: `Key ${apiKey} is not allowed` },
          { status: 400 },
        ),
      );
    const error = await rejection(
      createResendProvider({ apiKey, baseUrl: resend.url, fetch: echo }).send(providerMessage()),
    );
    expect(error.message).toBe('Resend 400 validation_error: Key [redacted] is not allowed');
  });

  it('the Mailgun fake also takes multipart/form-data, as Mailgun does', async () => {
    const form = new FormData();
    form.set('from', 'Sender <sender@mg.example.com>');
    form.set('to', 'a@example.com, "Lopez, Dana" <dana@example.com>');
    form.set('subject', 'Hi');
    form.set('text', 'Hello');
    const response = await fetch(`${mailgun.url}/v3/${mailgun.domain}/messages`, {
      method: 'POST',
      headers: { Authorization: `Basic ${Buffer.from(`api:${mailgun.apiKey}`).toString('base64')}` },
      body: form,
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ id: anyString(), message: 'Queued. Thank you.' });
    expect(mailgun.messages[0]).toMatchObject({
      to: ['a@example.com', '"Lopez, Dana" <dana@example.com>'],
      contentType: matching(/^multipart\/form-data; boundary=/),
    });
  });
});

describe.each(BACKENDS)('e-mail providers on %s', (backend) => {
  const suite = useEmailSuite(backend, 'email-providers');

  afterEach(async () => {
    await suite.db.query('DELETE FROM email_settings');
  });

  const message = (to: string, name: string | null = 'Dana Lopez'): OutgoingEmail => ({
    kind: 'estimate',
    to: { email: to, name },
    subject: `Your estimate, ${to}`,
    html: `<p>Hello <b>${to}</b></p>`,
    text: `Hello ${to}`,
  });
  const queue = (to = 'dana@example.com', name?: string | null) => queueEmail(suite.db, message(to, name));
  /** The message as sent: with the recipient's unsubscribe footer. */
  const sentContent = (to: string) =>
    withUnsubscribeFooter({ html: message(to).html, text: message(to).text }, TEST_DELIVERY.unsubscribe(to).page);
  /** RFC 8058 one-click unsubscribe, on every message. */
  const unsubscribeHeaders = (to: string) => ({
    'List-Unsubscribe': `<${TEST_DELIVERY.unsubscribe(to).oneClick}>`,
    'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
  });
  const deliver = (provider: EmailProvider, ids: number[], now?: Date) =>
    deliverQueued(suite.db, provider, { ...TEST_DELIVERY, ids, ...(now ? { now } : {}) });
  const nextAttemptAt = async (id: number): Promise<number> => {
    const [row] = await suite.db.query<{ next_attempt_at: Date }>(
      'SELECT next_attempt_at FROM email_deliveries WHERE id = $1',
      [id],
    );
    return row?.next_attempt_at.getTime() ?? Number.NaN;
  };
  const later = (base: Date, seconds: number) => new Date(base.getTime() + seconds * 1000);
  const saveSettings = (input: MailgunSettingsInput) => saveMailgunSettings(suite.db, ENCRYPTION_KEY, input);
  const completeSettings: MailgunSettingsInput = {
    domain: 'mg.example.com',
    apiKey: 'fake-mailgun-key-0123456789abcdef',
    fromName: MAILGUN_FROM.name,
    fromEmail: MAILGUN_FROM.email,
  };

  describe('Resend', () => {
    it("delivers: the row is 'sent' with Resend's id; Idempotency-Key, auth and sender as published", async () => {
      const id = await queue('dana@example.com', 'Dana Lopez');
      expect(await deliver(resendProvider(), [id])).toEqual({ sent: [id], retrying: [], failed: [], suppressed: [] });
      expect(resend.emails).toHaveLength(1);
      const email = resend.emails[0];
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
      const headers = resend.requests[0]?.headers;
      expect(headers?.authorization).toBe(`Bearer ${resend.apiKey}`);
      expect(headers?.['content-type']).toBe('application/json');
      expect(headers?.['user-agent']).toMatch(/^li-net-to-seller\//);
    });

    it('a recipient without a name is sent as the bare address', async () => {
      const id = await queue('bare@example.com', null);
      await deliver(resendProvider(), [id]);
      expect(resend.emails[0]?.to).toEqual(['bare@example.com']);
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
      expect(resend.requests).toHaveLength(1);
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
      expect(resend.emails).toHaveLength(0);
    });

    it('429 with Retry-After: queued again exactly that much later, then sent', async () => {
      const id = await queue();
      resend.trouble({ kind: 'rate-limit', retryAfter: 120 });
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
      resend.trouble({ kind: 'rate-limit', retryAfter: new Date(Date.now() + 90_000).toUTCString() });
      await deliver(resendProvider(), [id]);
      const row = await deliveryById(suite.db, id);
      expect(row?.status).toBe('queued');
      expect(row?.due_in_seconds).toBeGreaterThan(80);
      expect(row?.due_in_seconds).toBeLessThanOrEqual(91);
    });

    it('a Retry-After of a day is bounded to an hour', async () => {
      const id = await queue();
      resend.trouble({ kind: 'rate-limit', retryAfter: 86_400 });
      const now = new Date(Date.now() + 1000);
      await deliver(resendProvider(), [id], now);
      expect((await nextAttemptAt(id)) - now.getTime()).toBe(MAX_RETRY_AFTER_SECONDS * 1000);
    });

    it('429 without Retry-After backs off as any failure (1 minute)', async () => {
      const id = await queue();
      resend.trouble({ kind: 'rate-limit' });
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
      resend.trouble({ kind: 'server-error' }, 2);
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
        provider_message_id: resend.emails[0]?.id,
      });
      expect(resend.emails).toHaveLength(1);
      expect(resend.requests.map((request) => request.status)).toEqual([500, 500, 200]);
    });

    it('a timeout is retried, and the retry (same Idempotency-Key) does not send the e-mail twice', async () => {
      const id = await queue();
      resend.trouble({ kind: 'slow', ms: 600 });
      const now = new Date(Date.now() + 1000);
      expect(await deliver(resendProvider({ timeoutMs: 150 }), [id], now)).toEqual({
        sent: [],
        retrying: [id],
        failed: [],
        suppressed: [],
      });
      expect((await deliveryById(suite.db, id))?.last_error).toBe('Resend did not answer within 0.15 s');
      // Resend had accepted it; the answer was lost.
      expect(resend.emails).toHaveLength(1);
      expect(await deliver(resendProvider(), [id], later(now, 60))).toEqual({
        sent: [id],
        retrying: [],
        failed: [],
        suppressed: [],
      });
      expect(resend.emails).toHaveLength(1);
      expect((await deliveryById(suite.db, id))?.provider_message_id).toBe(resend.emails[0]?.id);
    });

    it('unreachable: retried with backoff', async () => {
      const id = await queue();
      expect(await deliver(resendProvider({ baseUrl: UNREACHABLE }), [id])).toEqual({
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

  describe('Mailgun', () => {
    it("delivers: the row is 'sent' with Mailgun's id; Basic auth and form fields as published", async () => {
      const id = await queue('dana@example.com', 'Dana Lopez');
      expect(await deliver(mailgunProvider(), [id])).toEqual({ sent: [id], retrying: [], failed: [], suppressed: [] });
      expect(mailgun.messages).toHaveLength(1);
      const sent = mailgun.messages[0];
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
      expect(mailgun.requests[0]?.headers.authorization).toBe(
        `Basic ${Buffer.from(`api:${mailgun.apiKey}`).toString('base64')}`,
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
      expect(mailgun.messages).toHaveLength(0);
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
      mailgun.trouble({ kind: 'rate-limit', retryAfter: 30 });
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
      mailgun.trouble({ kind: 'server-error', status });
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
      mailgun.trouble({ kind: 'slow', ms: 600 });
      await deliver(mailgunProvider({ timeoutMs: 200 }), [id]);
      expect(await deliveryById(suite.db, id)).toMatchObject({
        status: 'queued',
        last_error: 'Mailgun did not answer within 0.2 s',
      });
    });
  });

  describe('choosing the provider', () => {
    const outboxLines: string[] = [];
    const outbox = createOutboxProvider((line) => outboxLines.push(line));
    afterEach(() => {
      outboxLines.length = 0;
    });

    it('nothing configured: the outbox', async () => {
      const env = envWith();
      expect(await chooseProvider(suite.db, env)).toEqual({ kind: 'outbox' });
      const id = await queue();
      expect(await deliver(settingsAwareProvider(suite.db, env, outbox), [id])).toEqual({
        sent: [id],
        retrying: [],
        failed: [],
        suppressed: [],
      });
      expect(await deliveryById(suite.db, id)).toMatchObject({ status: 'sent', provider: 'outbox' });
      expect(outboxLines).toHaveLength(1);
      expect(outboxLines[0]).toContain(`from ${TEST_FROM_HEADER}`);
    });

    it('RESEND_API_KEY set: Resend, from the configured sender', async () => {
      const env = envWith({ RESEND_API_KEY: resend.apiKey });
      expect(await chooseProvider(suite.db, env)).toEqual({ kind: 'resend', apiKey: resend.apiKey });
      const id = await queue();
      await deliver(settingsAwareProvider(suite.db, env, outbox), [id]);
      expect(await deliveryById(suite.db, id)).toMatchObject({
        status: 'sent',
        provider: 'resend',
        provider_message_id: resend.emails[0]?.id,
      });
      expect(resend.emails[0]?.from).toBe(TEST_FROM_HEADER);
      expect(outboxLines).toHaveLength(0);
    });

    it('complete Mailgun settings win over Resend, and the sender comes from them', async () => {
      await saveSettings(completeSettings);
      const env = envWith({ RESEND_API_KEY: resend.apiKey });
      expect(await chooseProvider(suite.db, env)).toEqual({
        kind: 'mailgun',
        settings: {
          domain: 'mg.example.com',
          apiKey: mailgun.apiKey,
          fromName: MAILGUN_FROM.name,
          fromEmail: MAILGUN_FROM.email,
        },
      });
      const id = await queue();
      await deliver(settingsAwareProvider(suite.db, env, outbox), [id]);
      expect(await deliveryById(suite.db, id)).toMatchObject({
        status: 'sent',
        provider: 'mailgun',
        provider_message_id: mailgun.messages[0]?.id,
      });
      expect(mailgun.messages[0]?.from).toBe(`"${MAILGUN_FROM.name}" <${MAILGUN_FROM.email}>`);
      expect(resend.emails).toHaveLength(0);
    });

    it.each([
      ['the domain', { domain: null }],
      ['the API key', { apiKey: null }],
      ['the sender name', { fromName: '' }],
      ['the sender address', { fromEmail: null }],
    ])('Mailgun settings without %s fall through to Resend, else the outbox', async (_label, missing) => {
      await saveSettings({ ...completeSettings, ...missing });
      expect(await chooseProvider(suite.db, envWith({ RESEND_API_KEY: resend.apiKey }))).toMatchObject({
        kind: 'resend',
      });
      expect(await chooseProvider(suite.db, envWith())).toEqual({ kind: 'outbox' });
      const id = await queue();
      await deliver(settingsAwareProvider(suite.db, envWith({ RESEND_API_KEY: resend.apiKey }), outbox), [id]);
      expect((await deliveryById(suite.db, id))?.provider).toBe('resend');
      expect(mailgun.requests).toHaveLength(0);
    });

    it('settings are read at send time: a change is used once the few-second cache runs out', async () => {
      let clock = 0;
      const provider = settingsAwareProvider(suite.db, envWith({ RESEND_API_KEY: resend.apiKey }), outbox, {
        cacheMs: 5000,
        now: () => clock,
      });
      const sendOne = async () => {
        const id = await queue();
        await deliver(provider, [id]);
        return (await deliveryById(suite.db, id))?.provider;
      };
      expect(await sendOne()).toBe('resend');
      await saveSettings(completeSettings);
      clock = 4999;
      expect(await sendOne()).toBe('resend');
      clock = 5001;
      expect(await sendOne()).toBe('mailgun');
      await suite.db.query('DELETE FROM email_settings');
      provider.refresh();
      expect(await sendOne()).toBe('resend');
    });

    it('one reading of the settings serves a whole batch: 3 round trips for 3 e-mails', async () => {
      await saveSettings(completeSettings);
      const provider = settingsAwareProvider(suite.db, envWith(), outbox);
      const ids = await queueEmails(suite.db, [
        message('a@example.com'),
        message('b@example.com'),
        message('c@example.com'),
      ]);
      const before = suite.db.roundTrips;
      expect(await deliver(provider, ids)).toEqual({ sent: ids, retrying: [], failed: [], suppressed: [] });
      expect(suite.db.roundTrips - before).toBe(3);
      expect(mailgun.messages).toHaveLength(3);
    });

    it('a key saved under another ENCRYPTION_KEY: retried, with a message that says why', async () => {
      await saveSettings(completeSettings);
      const env = envWith({ ENCRYPTION_KEY: OTHER_ENCRYPTION_KEY, RESEND_API_KEY: resend.apiKey });
      await expect(chooseProvider(suite.db, env)).rejects.toThrow(EncryptionError);
      const id = await queue();
      expect(await deliver(settingsAwareProvider(suite.db, env, outbox), [id])).toEqual({
        sent: [],
        retrying: [id],
        failed: [],
        suppressed: [],
      });
      expect((await deliveryById(suite.db, id))?.last_error).toBe(
        'The e-mail settings could not be read: The encrypted value cannot be decrypted: it was changed, or ENCRYPTION_KEY is not the key it was saved with',
      );
      // Nothing went out through a provider the settings did not ask for.
      expect(resend.requests).toHaveLength(0);
      expect(mailgun.requests).toHaveLength(0);
      expect(outboxLines).toHaveLength(0);
    });
  });

  describe('the Mailgun settings', () => {
    it('keep the API key encrypted at rest and give it back decrypted to server code only', async () => {
      const apiKey = 'key-3ax6xnjp29jd6fds4gc373sgvjxteol0';
      const view = await saveSettings({ ...completeSettings, apiKey });
      const [row] = await suite.db.query<{ encrypted: string; whole: string }>(
        'SELECT mailgun_api_key_encrypted AS encrypted, s::text AS whole FROM email_settings s',
      );
      expect(row?.encrypted).toMatch(/^v1:[A-Za-z0-9_-]+:[A-Za-z0-9_-]+:[A-Za-z0-9_-]+$/);
      expect(row?.whole).not.toContain(apiKey);
      expect(row?.whole).not.toContain(apiKey.slice(4, 20));
      expect(await readMailgunSettings(suite.db, ENCRYPTION_KEY)).toMatchObject({
        domain: 'mg.example.com',
        apiKey,
        fromName: MAILGUN_FROM.name,
        fromEmail: MAILGUN_FROM.email,
      });
      await expect(readMailgunSettings(suite.db, OTHER_ENCRYPTION_KEY)).rejects.toThrow(EncryptionError);
      // What a screen may show: the key masked.
      expect(view).toEqual({
        domain: 'mg.example.com',
        fromName: MAILGUN_FROM.name,
        fromEmail: MAILGUN_FROM.email,
        hasApiKey: true,
        apiKeyMasked: '••••••••eol0',
        complete: true,
        updatedAt: anyDate(),
      });
      expect(JSON.stringify(view)).not.toContain(apiKey);
    });

    it('a save without a key keeps the stored one; a blank key removes it', async () => {
      await saveSettings(completeSettings);
      const before = (await loadMailgunSettings(suite.db)).apiKeyEncrypted;
      const kept = await saveSettings({
        domain: 'mg2.example.com',
        fromName: 'New Name',
        fromEmail: 'new@example.com',
      });
      expect(kept).toMatchObject({ domain: 'mg2.example.com', hasApiKey: true, complete: true });
      expect((await loadMailgunSettings(suite.db)).apiKeyEncrypted).toBe(before);
      const removed = await saveSettings({ ...completeSettings, apiKey: '  ' });
      expect(removed).toMatchObject({ hasApiKey: false, apiKeyMasked: '', complete: false });
      expect((await loadMailgunSettings(suite.db)).apiKeyEncrypted).toBeNull();
    });

    it('trims what is saved and stores blanks as null', async () => {
      const view = await saveSettings({
        domain: ' mg.example.com ',
        apiKey: ' key-abc ',
        fromName: '  ',
        fromEmail: '',
      });
      expect(view).toMatchObject({ domain: 'mg.example.com', fromName: null, fromEmail: null, complete: false });
      expect((await readMailgunSettings(suite.db, ENCRYPTION_KEY)).apiKey).toBe('key-abc');
    });

    it.each([
      ['a domain that is not one', { domain: 'not a domain' }],
      ['a sender address that is not one', { fromEmail: 'homes.example.com' }],
      ['a sender name over 100 characters', { fromName: 'N'.repeat(101) }],
    ])('refuse %s, and change nothing', async (_label, bad) => {
      await saveSettings(completeSettings);
      const before = await loadMailgunSettings(suite.db);
      await expect(saveSettings({ ...completeSettings, ...bad })).rejects.toThrow($ZodError);
      expect(await loadMailgunSettings(suite.db)).toEqual(before);
    });

    it('with no row, read as empty and not complete', async () => {
      const settings = await readMailgunSettings(suite.db, () => {
        throw new Error('the key is not needed when nothing is stored');
      });
      expect(mailgunSettingsView(settings)).toEqual({
        domain: null,
        fromName: null,
        fromEmail: null,
        hasApiKey: false,
        apiKeyMasked: '',
        complete: false,
        updatedAt: null,
      });
    });
  });

  describe('POST /api/leads with a real provider', () => {
    const contactForm = {
      agent_slug: 'alexmorgan',
      firstName: 'Dana',
      lastName: 'Lopez',
      phone: '(516) 555-0123',
      email: 'dana.lopez@example.com',
      address: '12 Elm Street, Garden City, NY 11530',
      source: 'nassau_county_page',
      consent_marketing: true,
    };
    // A repeat of a lead within minutes is the same lead (no second notice): each test is a new visitor.
    let visitors = 0;
    const postLead = async () => {
      visitors += 1;
      const form = { ...contactForm, email: `dana.lopez+${visitors}@example.com` };
      const result = await expectJson(await suite.api.postJson('/api/leads', form), 201, leadResponse);
      expect(result.lead).toEqual({ id: anyNumber(), created_at: anyString() });
      return { leadId: result.lead.id, email: form.email };
    };

    it('Resend failing (500) leaves the lead saved, answers 201, and queues the e-mail for a retry', async () => {
      resend.trouble({ kind: 'server-error' }, Number.POSITIVE_INFINITY);
      suite.useProvider(
        settingsAwareProvider(
          suite.db,
          envWith({ RESEND_API_KEY: resend.apiKey }),
          createOutboxProvider(() => undefined),
        ),
      );
      const { leadId, email } = await postLead();
      await suite.settle();
      expect(await leadById(suite.db, leadId)).toMatchObject({ first_name: 'Dana', email });
      const rows = await deliveriesOfLead(suite.db, leadId);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        status: 'queued',
        provider: 'resend',
        attempts: 1,
        last_error: 'Resend 500 internal_server_error: An unexpected error occurred.',
      });
      expect(resend.requests).toHaveLength(1);
    });

    it("Mailgun refusing the key (401) leaves the lead saved, answers 201, and marks the e-mail 'failed'", async () => {
      await saveSettings({ ...completeSettings, apiKey: 'wrong-mailgun-key-9876543210' });
      suite.useProvider(
        settingsAwareProvider(
          suite.db,
          envWith(),
          createOutboxProvider(() => undefined),
        ),
      );
      const { leadId } = await postLead();
      await suite.settle();
      expect(await leadById(suite.db, leadId)).toMatchObject({ first_name: 'Dana' });
      expect(await deliveriesOfLead(suite.db, leadId)).toMatchObject([
        { status: 'failed', provider: 'mailgun', last_error: 'Mailgun 401: Forbidden' },
      ]);
    });

    it("with complete Mailgun settings the agent's notice goes through Mailgun, from the settings' sender", async () => {
      await saveSettings(completeSettings);
      suite.useProvider(
        settingsAwareProvider(
          suite.db,
          envWith({ RESEND_API_KEY: resend.apiKey }),
          createOutboxProvider(() => undefined),
        ),
      );
      const { leadId } = await postLead();
      await suite.settle();
      const [row] = await deliveriesOfLead(suite.db, leadId);
      expect(row).toMatchObject({ status: 'sent', provider: 'mailgun', provider_message_id: mailgun.messages[0]?.id });
      expect(mailgun.messages[0]).toMatchObject({
        from: `"${MAILGUN_FROM.name}" <${MAILGUN_FROM.email}>`,
        to: ['"Alex Morgan" <alex.morgan@example.com>'],
        subject: 'New lead: Dana Lopez',
      });
      expect(mailgun.messages[0]?.text).toContain('(516) 555-0123');
      expect(resend.emails).toHaveLength(0);
    });
  });
});

describe('maskedKey', () => {
  it.each([
    [null, ''],
    ['', ''],
    ['short-key', '••••••••'],
    ['key-3ax6xnjp29jd6fds4gc373sgvjxteol0', '••••••••eol0'],
  ])('%s → %s', (key, masked) => {
    expect(maskedKey(key)).toBe(masked);
  });
});
