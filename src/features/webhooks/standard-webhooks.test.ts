/**
 * Our signatures, checked by the reference implementation of Standard Webhooks (the npm package
 * `standardwebhooks`, from github.com/standard-webhooks/standard-webhooks): what a receiver using
 * any Standard Webhooks library will run.
 */
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import {
  newMessageId,
  newWebhookSecret,
  signatureHeaderValue,
  WEBHOOK_USER_AGENT,
  webhookHeaders,
} from './standard-webhooks.server.ts';

const body = JSON.stringify({ type: 'lead.created', data: { id: 41, town: 'Huntington', note: 'Café ✓' } });
/** The reference library refuses a timestamp more than five minutes from its clock. */
const now = () => Math.floor(Date.now() / 1000);

describe('newWebhookSecret', () => {
  it('is whsec_ and the base64 of 32 random bytes', () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
    expect(newWebhookSecret()).not.toBe(secret);
  });
});

describe('newMessageId', () => {
  it('is msg_ and 26 base32 characters, without a dot, new each time', () => {
    const ids = Array.from({ length: 1000 }, newMessageId);
    for (const id of ids) expect(id).toMatch(/^msg_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('signatureHeaderValue', () => {
  it('signs the reference library’s own example the way it does', () => {
    // The vector of the reference library's test "sign function works".
    const value = signatureHeaderValue(
      ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'],
      'msg_p5jXN8AQM9LWM0D4loKWxJek',
      1614265330,
      '{"test": 2432232314}',
    );
    expect(value).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('holds one v1 signature per secret, space-separated, in the order given', () => {
    const [current, old] = [newWebhookSecret(), newWebhookSecret()];
    const both = signatureHeaderValue([current, old], 'msg_1', 1700000000, body);
    expect(both.split(' ')).toEqual([
      signatureHeaderValue([current], 'msg_1', 1700000000, body),
      signatureHeaderValue([old], 'msg_1', 1700000000, body),
    ]);
    expect(both).toMatch(/^v1,[A-Za-z0-9+/]{43}= v1,[A-Za-z0-9+/]{43}=$/);
  });

  it('refuses to sign without a secret, with a secret that is no base64, or with a dotted id', () => {
    expect(() => signatureHeaderValue([], 'msg_1', 1700000000, body)).toThrow(/at least one secret/);
    expect(() => signatureHeaderValue(['whsec_'], 'msg_1', 1700000000, body)).toThrow(/base64/);
    expect(() => signatureHeaderValue([newWebhookSecret()], 'msg_1.2', 1700000000, body)).toThrow(/no "."/);
    expect(() => signatureHeaderValue([newWebhookSecret()], 'msg_1', 1700000000.5, body)).toThrow(/whole seconds/);
  });
});

describe('webhookHeaders, verified by the reference library', () => {
  it('verifies, and the receiver reads the body we sent', () => {
    const secret = newWebhookSecret();
    const headers = webhookHeaders({ secrets: [secret], id: newMessageId(), timestampSeconds: now(), body });
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it('carries the content type, who sends, the id and the timestamp', () => {
    const id = newMessageId();
    const timestampSeconds = now();
    const headers = webhookHeaders({ secrets: [newWebhookSecret()], id, timestampSeconds, body });
    const { 'webhook-signature': signature, ...rest } = headers;
    expect(rest).toEqual({
      'content-type': 'application/json',
      'user-agent': WEBHOOK_USER_AGENT,
      'webhook-id': id,
      'webhook-timestamp': String(timestampSeconds),
    });
    expect(signature).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(WEBHOOK_USER_AGENT).toBe('LongIslandNetSheet-Webhooks/1.0');
  });

  it('fails when the body was changed on the way, by a single character', () => {
    const secret = newWebhookSecret();
    const headers = webhookHeaders({ secrets: [secret], id: newMessageId(), timestampSeconds: now(), body });
    const tampered = body.replace('41', '42');
    expect(() => new Webhook(secret).verify(tampered, headers)).toThrow(WebhookVerificationError);
  });

  it('fails when the id or the timestamp was changed: both are signed', () => {
    const secret = newWebhookSecret();
    const headers = webhookHeaders({ secrets: [secret], id: newMessageId(), timestampSeconds: now(), body });
    const otherId = { ...headers, 'webhook-id': newMessageId() };
    const otherTime = { ...headers, 'webhook-timestamp': String(now() - 1) };
    expect(() => new Webhook(secret).verify(body, otherId)).toThrow(WebhookVerificationError);
    expect(() => new Webhook(secret).verify(body, otherTime)).toThrow(WebhookVerificationError);
  });

  it('fails with a secret that did not sign', () => {
    const headers = webhookHeaders({
      secrets: [newWebhookSecret()],
      id: newMessageId(),
      timestampSeconds: now(),
      body,
    });
    expect(() => new Webhook(newWebhookSecret()).verify(body, headers)).toThrow(WebhookVerificationError);
  });

  it('during a rotation, verifies for a receiver that knows only the old secret, or only the new one', () => {
    const [current, old] = [newWebhookSecret(), newWebhookSecret()];
    const headers = webhookHeaders({ secrets: [current, old], id: newMessageId(), timestampSeconds: now(), body });
    expect(headers['webhook-signature']?.split(' ')).toHaveLength(2);
    expect(new Webhook(old).verify(body, headers)).toEqual(JSON.parse(body));
    expect(new Webhook(current).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(newWebhookSecret()).verify(body, headers)).toThrow(WebhookVerificationError);
  });

  it('is refused by the receiver when the attempt is older than its tolerance (replays)', () => {
    const secret = newWebhookSecret();
    const headers = webhookHeaders({ secrets: [secret], id: newMessageId(), timestampSeconds: now() - 3600, body });
    expect(() => new Webhook(secret).verify(body, headers)).toThrow(/too old/);
  });
});
