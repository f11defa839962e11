import { describe, expect, it } from 'vitest';
import { decrypt, encrypt, EncryptionError, isEncrypted } from './encryption.ts';

const SECRET = 'k'.repeat(16) + 'a-test-secret-of-32-plus-chars';
const OTHER_SECRET = 'another-secret-that-is-long-enough-0123456789';

/** Flips one bit of the base64url part `index` (1 iv, 2 tag, 3 ciphertext) of an encrypted value. */
function flipBit(value: string, index: 1 | 2 | 3): string {
  const parts = value.split(':');
  const bytes = Buffer.from(parts[index] ?? '', 'base64url');
  bytes[0] = (bytes[0] ?? 0) ^ 1;
  parts[index] = bytes.toString('base64url');
  return parts.join(':');
}

describe('encryption at rest', () => {
  it.each([
    ['an API key', 'key-3ax6xnjp29jd6fds4gc373sgvjxteol0'],
    ['an empty string', ''],
    ['unicode', 'clé secrète – 秘密 – 🔑'],
    ['a long value', 'x'.repeat(10_000)],
  ])('round-trips %s', (_label, plaintext) => {
    const value = encrypt(plaintext, SECRET);
    expect(decrypt(value, SECRET)).toBe(plaintext);
  });

  it('writes v1:iv:tag:ciphertext in base64url, without the plaintext', () => {
    const plaintext = 'key-3ax6xnjp29jd6fds4gc373sgvjxteol0';
    const value = encrypt(plaintext, SECRET);
    expect(value).toMatch(/^v1:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]{22}:[A-Za-z0-9_-]+$/);
    expect(isEncrypted(value)).toBe(true);
    expect(value).not.toContain(plaintext);
    expect(Buffer.from(value.split(':')[3] ?? '', 'base64url').toString('utf8')).not.toContain(plaintext);
  });

  it('uses a fresh IV each time, so equal plaintexts give different values', () => {
    const values = new Set(Array.from({ length: 20 }, () => encrypt('same', SECRET)));
    expect(values.size).toBe(20);
    expect(new Set([...values].map((value) => value.split(':')[1])).size).toBe(20);
  });

  it.each([1, 2, 3] as const)('refuses a value with part %i tampered with', (part) => {
    const value = encrypt('key-3ax6xnjp29jd6fds4gc373sgvjxteol0', SECRET);
    expect(() => decrypt(flipBit(value, part), SECRET)).toThrow(EncryptionError);
  });

  it('refuses a truncated or extended ciphertext', () => {
    const value = encrypt('key-3ax6xnjp29jd6fds4gc373sgvjxteol0', SECRET);
    expect(() => decrypt(value.slice(0, -2), SECRET)).toThrow(EncryptionError);
    expect(() => decrypt(`${value}AA`, SECRET)).toThrow(EncryptionError);
  });

  it('refuses a wrong key with a message that says so', () => {
    const value = encrypt('key-3ax6xnjp29jd6fds4gc373sgvjxteol0', SECRET);
    expect(() => decrypt(value, OTHER_SECRET)).toThrow(/ENCRYPTION_KEY is not the key it was saved with/);
  });

  it('binds the context: a value does not decrypt under another one', () => {
    const value = encrypt('key-3ax6xnjp29jd6fds4gc373sgvjxteol0', SECRET, 'email_settings.mailgun_api_key');
    expect(decrypt(value, SECRET, 'email_settings.mailgun_api_key')).toBe('key-3ax6xnjp29jd6fds4gc373sgvjxteol0');
    expect(() => decrypt(value, SECRET, 'agents.fub_api_key')).toThrow(EncryptionError);
    expect(() => decrypt(value, SECRET)).toThrow(EncryptionError);
  });

  it.each([
    ['plaintext', 'key-3ax6xnjp29jd6fds4gc373sgvjxteol0'],
    ['another version', 'v2:AAAAAAAAAAAAAAAA:AAAAAAAAAAAAAAAAAAAAAA:AAAA'],
    ['too few parts', 'v1:AAAAAAAAAAAAAAAA:AAAA'],
    ['too many parts', 'v1:AAAAAAAAAAAAAAAA:AAAAAAAAAAAAAAAAAAAAAA:AAAA:AAAA'],
    ['a short IV', 'v1:AAAA:AAAAAAAAAAAAAAAAAAAAAA:AAAA'],
    ['a short tag', 'v1:AAAAAAAAAAAAAAAA:AAAA:AAAA'],
    ['characters outside base64url', 'v1:AAAAAAAAAAAAAAAA:AAAAAAAAAAAAAAAAAAAAAA:AA+/'],
  ])('refuses %s', (_label, value) => {
    expect(() => decrypt(value, SECRET)).toThrow(EncryptionError);
  });

  it('refuses a secret shorter than 32 characters', () => {
    expect(() => encrypt('x', 'short')).toThrow(EncryptionError);
  });
});
