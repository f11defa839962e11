/**
 * The Resend and Mailgun clients on their own, against the local fakes (tests/fakes/): Resend's
 * idempotency keys, an unreachable provider, an answer without an id, the API key kept out of
 * errors, and the Mailgun fake's multipart form. (How a Retry-After header is read:
 * src/platform/retry-after.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { createResendProvider } from '../../src/features/email/providers/resend.server.ts';
import { anyString, matching } from '../support/api-suite.ts';
import {
  fakes,
  mailgunProvider,
  providerMessage,
  rejection,
  resendProvider,
  useProviderFakes,
} from '../support/email-providers-suite.ts';

useProviderFakes();

describe('the provider clients', () => {
  it('Resend: a replay with the same Idempotency-Key answers the first id and sends nothing more', async () => {
    const provider = resendProvider();
    const first = await provider.send(providerMessage('dana@example.com', 41));
    const second = await provider.send(providerMessage('dana@example.com', 41));
    expect(second).toEqual(first);
    expect(fakes.resend.emails).toHaveLength(1);
    expect(fakes.resend.requests.map((request) => request.headers['idempotency-key'])).toEqual([
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
    ['Resend', () => resendProvider({ baseUrl: fakes.unreachable }), 'Resend could not be reached (ECONNREFUSED)'],
    ['Mailgun', () => mailgunProvider({ baseUrl: fakes.unreachable }), 'Mailgun could not be reached (ECONNREFUSED)'],
  ])('%s unreachable: a retryable error', async (_label, provider, message) => {
    const error = await rejection(provider().send(providerMessage()));
    expect(error).toMatchObject({ retryable: true, status: undefined, message });
  });

  it('a 200 without an id is retryable (Resend keeps the key, so the retry is not a second e-mail)', async () => {
    const fakeFetch: typeof fetch = () => Promise.resolve(new Response('<html>OK</html>', { status: 200 }));
    const error = await rejection(
      createResendProvider({ apiKey: 'k', baseUrl: fakes.resend.url, fetch: fakeFetch }).send(providerMessage()),
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
      createResendProvider({ apiKey, baseUrl: fakes.resend.url, fetch: echo }).send(providerMessage()),
    );
    expect(error.message).toBe('Resend 400 validation_error: Key [redacted] is not allowed');
  });

  it('the Mailgun fake also takes multipart/form-data, as Mailgun does', async () => {
    const form = new FormData();
    form.set('from', 'Sender <sender@mg.example.com>');
    form.set('to', 'a@example.com, "Lopez, Dana" <dana@example.com>');
    form.set('subject', 'Hi');
    form.set('text', 'Hello');
    const response = await fetch(`${fakes.mailgun.url}/v3/${fakes.mailgun.domain}/messages`, {
      method: 'POST',
      headers: { Authorization: `Basic ${Buffer.from(`api:${fakes.mailgun.apiKey}`).toString('base64')}` },
      body: form,
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ id: anyString(), message: 'Queued. Thank you.' });
    expect(fakes.mailgun.messages[0]).toMatchObject({
      to: ['a@example.com', '"Lopez, Dana" <dana@example.com>'],
      contentType: matching(/^multipart\/form-data; boundary=/),
    });
  });
});
