/**
 * The stored Mailgun settings, on both backends: the API key encrypted at rest and masked in what a
 * screen may show, kept or removed on save, trimmed, refused when malformed, read as empty without
 * a row; and maskedKey itself.
 */
import { describe, expect, it } from 'vitest';
import { $ZodError } from 'zod/v4/core';
import {
  loadMailgunSettings,
  mailgunSettingsView,
  readMailgunSettings,
} from '../../src/features/email/email-settings.server.ts';
import { EncryptionError, maskedKey } from '../../src/platform/encryption.ts';
import { BACKENDS } from '../support/backends.ts';
import {
  completeSettings,
  ENCRYPTION_KEY,
  MAILGUN_FROM,
  OTHER_ENCRYPTION_KEY,
  useProviderFakes,
  useProviderSuite,
} from '../support/email-providers-suite.ts';

const anyDate = (): unknown => expect.any(Date);

useProviderFakes();

describe.each(BACKENDS)('e-mail providers on %s', (backend) => {
  const { suite, saveSettings } = useProviderSuite(backend, 'email-providers-mailgun-settings');

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
