/**
 * The signing half of Standard Webhooks 1.0 (https://www.standardwebhooks.com, the spec's
 * "Signature scheme" and "Webhook headers"), symmetric scheme only: HMAC-SHA256 over
 * `id.timestamp.body`, keyed with the secret's bytes. A receiver verifies with any Standard
 * Webhooks library (the reference one, `standardwebhooks` on npm, checks ours in the tests).
 *
 * - A secret is shown and stored as `whsec_` + base64 of its bytes; the key is the decoded bytes,
 *   not the text.
 * - The message id stays the same on every retry of one event (receivers use it to drop
 *   duplicates); the timestamp is the attempt's, so a retry is signed again.
 * - `webhook-signature` holds one `v1,<base64>` per secret, space-separated: during a rotation the
 *   new and the old secret both sign, and a receiver that still knows only the old one verifies.
 */
import { createHmac, randomBytes } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';
/** The spec allows 24 to 64 bytes; 32 is what the reference libraries generate. */
const SECRET_BYTES = 32;
const MESSAGE_PREFIX = 'msg_';
/** Crockford's base32 (no I, L, O, U): the alphabet of ULIDs, readable and case-safe. */
const BASE32 = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const MESSAGE_ID_LENGTH = 26;
/** Tells a receiver's logs (and firewall) who is calling. */
export const WEBHOOK_USER_AGENT = 'LongIslandNetSheet-Webhooks/1.0';

/** A new signing secret for an endpoint: `whsec_` + base64 of 32 random bytes. */
export function newWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(SECRET_BYTES).toString('base64');
}

/**
 * A new message id: `msg_` + 26 base32 characters (130 random bits, ULID-sized). It holds no `.`,
 * which the spec asks of anything inside the signed `id.timestamp.body`.
 */
export function newMessageId(): string {
  // 256 is a multiple of 32, so `byte % 32` picks every character equally often.
  const characters = [...randomBytes(MESSAGE_ID_LENGTH)].map((byte) => BASE32.charAt(byte % BASE32.length));
  return MESSAGE_PREFIX + characters.join('');
}

/** The key a secret stands for: the bytes its base64 encodes, after the `whsec_` prefix. */
function keyOf(secret: string): Buffer {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  const key = Buffer.from(encoded, 'base64');
  // Buffer.from ignores characters outside base64 instead of failing: an empty key means the
  // secret was not a secret at all, and signing with it would only look like signing.
  if (key.length === 0) throw new Error('A webhook secret must be whsec_ followed by base64 bytes');
  return key;
}

/**
 * The `webhook-signature` value: `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` for each of
 * `secrets`, space-separated (several secrets: a rotation's overlap).
 */
export function signatureHeaderValue(
  secrets: readonly string[],
  id: string,
  timestampSeconds: number,
  body: string,
): string {
  if (secrets.length === 0) throw new Error('A webhook is signed with at least one secret');
  if (!Number.isSafeInteger(timestampSeconds)) throw new Error('A webhook timestamp is whole seconds');
  // The parts are joined with dots: an id holding one could pass one message's signature off as another's.
  if (id.includes('.')) throw new Error('A webhook message id holds no "."');
  // The body is signed as the UTF-8 bytes that are sent: the receiver verifies the raw body.
  const signed = `${id}.${timestampSeconds}.${body}`;
  return secrets
    .map((secret) => `v1,${createHmac('sha256', keyOf(secret)).update(signed, 'utf8').digest('base64')}`)
    .join(' ');
}

export interface WebhookMessage {
  /** The signing secrets, current first; an old one stays here until its rotation ends. */
  secrets: readonly string[];
  /** The message id (newMessageId()), the same on every attempt of one event. */
  id: string;
  /** The attempt's time, in whole seconds since the epoch. */
  timestampSeconds: number;
  /** The JSON body exactly as it is sent. */
  body: string;
}

/** The headers of one attempt: the three Standard Webhooks headers, the content type and who sends. */
export function webhookHeaders({ secrets, id, timestampSeconds, body }: WebhookMessage): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': WEBHOOK_USER_AGENT,
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': signatureHeaderValue(secrets, id, timestampSeconds, body),
  };
}
