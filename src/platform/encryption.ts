/**
 * Encryption at rest for secrets the product keeps in its database (the admin's Mailgun API key).
 *
 * AES-256-GCM with a fresh 12-byte IV per value. The 32-byte key is derived from ENCRYPTION_KEY
 * (see secrets.ts) with HKDF-SHA-256, so any secret of at least 32 characters serves and the key
 * used for this purpose is never the configured string itself. An optional `context` (such as
 * 'email_settings.mailgun_api_key') is bound in as additional authenticated data: a value copied
 * into another column does not decrypt there.
 *
 * Stored form: `v1:{iv}:{tag}:{ciphertext}`, each part base64url. Decrypting checks the GCM tag, so
 * a tampered value, a value of another context and a wrong key are all refused with
 * EncryptionError rather than answered with garbage.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const ALGORITHM = 'aes-256-gcm';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;
const HKDF_SALT = 'li-net-to-seller';
const HKDF_INFO = 'encryption-at-rest/v1';
const BASE64URL = /^[A-Za-z0-9_-]*$/;

/** A value that cannot be decrypted: malformed, tampered with, of another context, or another key. */
export class EncryptionError extends Error {
  override readonly name = 'EncryptionError';
}

const derivedKeys = new Map<string, Buffer>();

function keyFor(secret: string): Buffer {
  if (secret.length < 32) throw new EncryptionError('The encryption secret must be at least 32 characters');
  let key = derivedKeys.get(secret);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', secret, HKDF_SALT, HKDF_INFO, KEY_BYTES));
    derivedKeys.set(secret, key);
  }
  return key;
}

/** Encrypts `plaintext` with a key derived from `secret`; answers `v1:iv:tag:ciphertext`. */
export function encrypt(plaintext: string, secret: string, context = ''): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(ALGORITHM, keyFor(secret), iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [VERSION, iv.toString('base64url'), tag.toString('base64url'), ciphertext.toString('base64url')].join(':');
}

/** The plaintext of a value made by `encrypt` with the same secret and context; throws EncryptionError. */
export function decrypt(value: string, secret: string, context = ''): string {
  const parts = value.split(':');
  const [version, ivText, tagText, ciphertextText] = parts;
  if (
    parts.length !== 4 ||
    version !== VERSION ||
    ivText === undefined ||
    tagText === undefined ||
    ciphertextText === undefined ||
    ![ivText, tagText, ciphertextText].every((part) => BASE64URL.test(part))
  ) {
    throw new EncryptionError('The encrypted value is not in the v1:iv:tag:ciphertext form');
  }
  const iv = Buffer.from(ivText, 'base64url');
  const tag = Buffer.from(tagText, 'base64url');
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) {
    throw new EncryptionError('The encrypted value has an IV or tag of the wrong length');
  }
  const decipher = createDecipheriv(ALGORITHM, keyFor(secret), iv, { authTagLength: TAG_BYTES });
  decipher.setAAD(Buffer.from(context, 'utf8'));
  decipher.setAuthTag(tag);
  try {
    return Buffer.concat([decipher.update(Buffer.from(ciphertextText, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  } catch {
    throw new EncryptionError(
      'The encrypted value cannot be decrypted: it was changed, or ENCRYPTION_KEY is not the key it was saved with',
    );
  }
}

/** Whether `value` looks like the output of `encrypt` (it may still fail to decrypt). */
export const isEncrypted = (value: string): boolean => /^v1:[A-Za-z0-9_-]+:[A-Za-z0-9_-]+:[A-Za-z0-9_-]*$/.test(value);

/** ENCRYPTION_KEY itself, or a function that finds it (called only when a key must be (de)crypted). */
export type SecretSource = string | (() => string);
export const resolveSecret = (secret: SecretSource): string => (typeof secret === 'function' ? secret() : secret);

/** A key shown without giving it away: its last 4 characters at most, the rest as dots. */
export function maskedKey(key: string | null | undefined): string {
  if (key === null || key === undefined || key.trim() === '') return '';
  const trimmed = key.trim();
  // Short keys show nothing of themselves; longer ones their last 4 characters, as providers do.
  return trimmed.length <= 12 ? '•'.repeat(8) : `${'•'.repeat(8)}${trimmed.slice(-4)}`;
}
