/**
 * Which provider sends, on both backends: the outbox, Resend or Mailgun from the environment and
 * the stored Mailgun settings, read at send time (a short cache, one reading per batch), and a key
 * saved under another ENCRYPTION_KEY.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { EncryptionError } from '../../src/platform/encryption.ts';
import { createOutboxProvider, queueEmails } from '../../src/features/email/public/email.server.ts';
import { chooseProvider, settingsAwareProvider } from '../../src/features/email/providers/choose-provider.server.ts';
import { BACKENDS } from '../support/backends.ts';
import {
  completeSettings,
  envWith,
  fakes,
  MAILGUN_FROM,
  OTHER_ENCRYPTION_KEY,
  TEST_FROM_HEADER,
  useProviderFakes,
  useProviderSuite,
} from '../support/email-providers-suite.ts';
import { deliveryById } from '../support/email-suite.ts';

useProviderFakes();

describe.each(BACKENDS)('e-mail providers on %s', (backend) => {
  const { suite, message, queue, deliver, saveSettings } = useProviderSuite(backend, 'email-providers-choice');

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
      const env = envWith({ RESEND_API_KEY: fakes.resend.apiKey });
      expect(await chooseProvider(suite.db, env)).toEqual({ kind: 'resend', apiKey: fakes.resend.apiKey });
      const id = await queue();
      await deliver(settingsAwareProvider(suite.db, env, outbox), [id]);
      expect(await deliveryById(suite.db, id)).toMatchObject({
        status: 'sent',
        provider: 'resend',
        provider_message_id: fakes.resend.emails[0]?.id,
      });
      expect(fakes.resend.emails[0]?.from).toBe(TEST_FROM_HEADER);
      expect(outboxLines).toHaveLength(0);
    });

    it('complete Mailgun settings win over Resend, and the sender comes from them', async () => {
      await saveSettings(completeSettings);
      const env = envWith({ RESEND_API_KEY: fakes.resend.apiKey });
      expect(await chooseProvider(suite.db, env)).toEqual({
        kind: 'mailgun',
        settings: {
          domain: 'mg.example.com',
          apiKey: fakes.mailgun.apiKey,
          fromName: MAILGUN_FROM.name,
          fromEmail: MAILGUN_FROM.email,
        },
      });
      const id = await queue();
      await deliver(settingsAwareProvider(suite.db, env, outbox), [id]);
      expect(await deliveryById(suite.db, id)).toMatchObject({
        status: 'sent',
        provider: 'mailgun',
        provider_message_id: fakes.mailgun.messages[0]?.id,
      });
      expect(fakes.mailgun.messages[0]?.from).toBe(`"${MAILGUN_FROM.name}" <${MAILGUN_FROM.email}>`);
      expect(fakes.resend.emails).toHaveLength(0);
    });

    it.each([
      ['the domain', { domain: null }],
      ['the API key', { apiKey: null }],
      ['the sender name', { fromName: '' }],
      ['the sender address', { fromEmail: null }],
    ])('Mailgun settings without %s fall through to Resend, else the outbox', async (_label, missing) => {
      await saveSettings({ ...completeSettings, ...missing });
      expect(await chooseProvider(suite.db, envWith({ RESEND_API_KEY: fakes.resend.apiKey }))).toMatchObject({
        kind: 'resend',
      });
      expect(await chooseProvider(suite.db, envWith())).toEqual({ kind: 'outbox' });
      const id = await queue();
      await deliver(settingsAwareProvider(suite.db, envWith({ RESEND_API_KEY: fakes.resend.apiKey }), outbox), [id]);
      expect((await deliveryById(suite.db, id))?.provider).toBe('resend');
      expect(fakes.mailgun.requests).toHaveLength(0);
    });

    it('settings are read at send time: a change is used once the few-second cache runs out', async () => {
      let clock = 0;
      const provider = settingsAwareProvider(suite.db, envWith({ RESEND_API_KEY: fakes.resend.apiKey }), outbox, {
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
      expect(fakes.mailgun.messages).toHaveLength(3);
    });

    it('a key saved under another ENCRYPTION_KEY: retried, with a message that says why', async () => {
      await saveSettings(completeSettings);
      const env = envWith({ ENCRYPTION_KEY: OTHER_ENCRYPTION_KEY, RESEND_API_KEY: fakes.resend.apiKey });
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
      expect(fakes.resend.requests).toHaveLength(0);
      expect(fakes.mailgun.requests).toHaveLength(0);
      expect(outboxLines).toHaveLength(0);
    });
  });
});
