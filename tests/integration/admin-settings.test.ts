/**
 * The admin's settings over HTTP, on both backends: e-mail sending (Mailgun settings with the key
 * write-only, and the test e-mail, which goes only to the admin, through the fake Mailgun when
 * the settings are complete and through the outbox otherwise), SEO, bad input, and who may call
 * each route.
 */
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { fubClient } from '../../src/features/crm/fub-client.server.ts';
import { mailgunViewSchema, testEmailAnswerSchema } from '../../src/features/email/email-settings.ts';
import { createOutboxProvider } from '../../src/features/email/public/email.server.ts';
import { settingsAwareProvider } from '../../src/features/email/providers/choose-provider.server.ts';
import { seoAnswerSchema, seoSavedSchema } from '../../src/features/seo/seo-settings.ts';
import { parseEnv } from '../../src/platform/env.ts';
import { startFakeMailgun } from '../fakes/mailgun.ts';
import { expectError, expectFieldError, expectJson } from '../support/api-suite.ts';
import { clientAs, useAuthSuite, type Client } from '../support/auth-suite.ts';
import { BACKENDS } from '../support/backends.ts';
import { createAgent } from '../support/fixtures.ts';

const SECRET = 'admin-settings-test-encryption-secret-0123456789';
const mailgun = await startFakeMailgun();
afterAll(() => mailgun.close());

const MAILGUN = '/api/agents/me/integrations/mailgun';
const TEST_EMAIL = '/api/admin/email/test';
const SEO = '/api/seo/settings';

const mailgunAnswer = z.object({ success: z.literal(true), settings: mailgunViewSchema });
const mailgunSaved = mailgunAnswer.extend({ message: z.string() });

const completeSettings = {
  mailgun_domain: mailgun.domain,
  mailgun_api_key: mailgun.apiKey,
  mailgun_from_name: 'Long Island Net Proceeds',
  mailgun_from_email: 'hello@mg.example.com',
};

const seoBody = {
  seo_title: 'Net proceeds on Long Island',
  seo_description: 'What you keep when you sell: commission, transfer tax and fees.',
  og_title: 'Know your number before you list',
  og_description: 'A free estimate in seconds.',
  og_url: 'https://homes.example.com/',
  twitter_card: 'summary',
  seo_keywords: 'net proceeds, long island',
};

describe.each(BACKENDS)('admin settings on %s', (backend) => {
  const suite = useAuthSuite(backend, 'adminsettings', {
    crm: { client: fubClient('http://127.0.0.1:9'), secret: SECRET },
  });
  /** What the outbox delivered in this test (its printed summaries). */
  let outbox: string[] = [];

  beforeEach(() => {
    outbox = [];
    // The site's own choice of provider: Mailgun with complete settings, else the outbox.
    suite.useProvider(
      settingsAwareProvider(
        suite.db,
        parseEnv({ MAILGUN_API_URL: mailgun.url, ENCRYPTION_KEY: SECRET }),
        createOutboxProvider((line) => outbox.push(line)),
        { encryptionKey: SECRET },
      ),
    );
  });
  afterEach(async () => {
    mailgun.reset();
    await suite.db.query('DELETE FROM email_settings');
  });

  async function adminClient(): Promise<{ email: string; client: Client }> {
    const agent = await createAgent(suite.db, { is_admin: true });
    return { email: agent.email, client: await clientAs(suite, agent.id) };
  }
  const agentClient = async () => clientAs(suite, (await createAgent(suite.db)).id);

  describe('who may call each route', () => {
    const calls: [string, string, unknown][] = [
      ['GET', MAILGUN, undefined],
      ['PATCH', MAILGUN, completeSettings],
      ['POST', TEST_EMAIL, {}],
      ['GET', SEO, undefined],
      ['PUT', SEO, seoBody],
    ];

    it.each(calls)('%s %s: 401 signed out, 403 to an agent, 200 to an admin', async (method, path, body) => {
      const call = (client: Client) => (method === 'GET' ? client.get(path) : client.send(method, path, body));
      await expectError(await call(suite.client()), 401, 'Please log in');
      await expectError(await call(await agentClient()), 403, 'Only admins can change site-wide settings');
      const answer = await call((await adminClient()).client);
      expect(answer.status, await answer.clone().text()).toBe(200);
    });

    it("an agent's saves change nothing and send nothing", async () => {
      const row = await createAgent(suite.db);
      const agent = await clientAs(suite, row.id);
      await expectError(await agent.send('PUT', SEO, { ...seoBody, seo_title: 'Hijacked' }), 403);
      await expectError(await agent.send('PATCH', MAILGUN, completeSettings), 403);
      await expectError(await agent.send('POST', TEST_EMAIL, {}), 403);
      const [seo] = await suite.db.query<{ seo_title: string }>('SELECT seo_title FROM seo_settings');
      expect(seo?.seo_title).not.toBe('Hijacked');
      expect(await suite.db.query('SELECT 1 FROM email_settings')).toEqual([]);
      expect(await suite.db.query('SELECT 1 FROM email_deliveries WHERE to_email = $1', [row.email])).toEqual([]);
    });
  });

  describe('e-mail sending settings', () => {
    it('saves them; the key is never answered, only masked, and a blank key keeps it', async () => {
      const { client } = await adminClient();
      const empty = await expectJson(await client.get(MAILGUN), 200, mailgunAnswer);
      expect(empty.settings).toEqual({
        mailgun_domain: null,
        mailgun_from_name: null,
        mailgun_from_email: null,
        mailgun_api_key_masked: '',
        complete: false,
      });

      const saved = await client.send('PATCH', MAILGUN, completeSettings);
      const savedText = await saved.clone().text();
      expect(savedText).not.toContain(mailgun.apiKey);
      const answer = await expectJson(saved, 200, mailgunSaved);
      expect(answer.message).toBe('Email settings saved successfully!');
      expect(answer.settings).toMatchObject({ mailgun_domain: mailgun.domain, complete: true });
      expect(answer.settings.mailgun_api_key_masked).toMatch(/^•+cdef$/);

      const kept = await expectJson(
        await client.send('PATCH', MAILGUN, { ...completeSettings, mailgun_api_key: '', mailgun_from_name: 'Homes' }),
        200,
        mailgunSaved,
      );
      expect(kept.settings).toMatchObject({ mailgun_from_name: 'Homes', complete: true });
      expect(kept.settings.mailgun_api_key_masked).toBe(answer.settings.mailgun_api_key_masked);
      const read = await client.get(MAILGUN);
      expect(await read.clone().text()).not.toContain(mailgun.apiKey);
      expect((await expectJson(read, 200, mailgunAnswer)).settings).toEqual(kept.settings);
      const [row] = await suite.db.query<{ mailgun_api_key_encrypted: string }>(
        'SELECT mailgun_api_key_encrypted FROM email_settings',
      );
      expect(row?.mailgun_api_key_encrypted).not.toContain(mailgun.apiKey);
    });

    it('refuses bad input field by field', async () => {
      const { client } = await adminClient();
      await expectError(
        await client.send('PATCH', MAILGUN, '{"mailgun_domain":'),
        400,
        'The request body is not valid JSON',
      );
      await expectFieldError(
        await client.send('PATCH', MAILGUN, { mailgun_domain: 'not a domain' }),
        'mailgun_domain',
        'Enter a domain such as mg.example.com',
      );
      await expectFieldError(
        await client.send('PATCH', MAILGUN, { mailgun_domain: 42 }),
        'mailgun_domain',
        'Enter a domain such as mg.example.com',
      );
      await expectFieldError(
        await client.send('PATCH', MAILGUN, { mailgun_from_email: 'nobody' }),
        'mailgun_from_email',
        'Please enter a valid email address',
      );
      await expectFieldError(
        await client.send('PATCH', MAILGUN, { mailgun_api_key: 'k'.repeat(201) }),
        'mailgun_api_key',
        'The API key is too long',
      );
      await expectFieldError(
        await client.send('PATCH', MAILGUN, { mailgun_from_name: 'n'.repeat(101) }),
        'mailgun_from_name',
        'Sender name must be at most 100 characters',
      );
      await expectError(await client.send('PATCH', MAILGUN, { mailgun_password: 'x' }), 400);
      expect(await suite.db.query('SELECT 1 FROM email_settings')).toEqual([]);
    });
  });

  describe('the test e-mail', () => {
    it('without complete settings goes through the outbox to the admin, never to an address in the body', async () => {
      const { client, email } = await adminClient();
      await client.send('PATCH', MAILGUN, { ...completeSettings, mailgun_from_email: null });
      const answer = await expectJson(
        await client.send('POST', TEST_EMAIL, { to: 'someone-else@example.com' }),
        200,
        testEmailAnswerSchema,
      );
      expect(answer).toEqual({
        success: true,
        provider: 'outbox',
        to: email,
        message: `Test e-mail sent to ${email} through outbox.`,
      });
      expect(outbox).toHaveLength(1);
      expect(outbox[0]).toContain(`to "Jamie Rivera" <${email}>`);
      expect(outbox.join('\n')).not.toContain('someone-else@example.com');
      expect(mailgun.messages).toEqual([]);
    });

    it('with complete settings goes through Mailgun, from the sender the settings name', async () => {
      const { client, email } = await adminClient();
      await expectJson(await client.send('PATCH', MAILGUN, completeSettings), 200, mailgunSaved);
      const answer = await expectJson(await client.send('POST', TEST_EMAIL, {}), 200, testEmailAnswerSchema);
      expect(answer).toMatchObject({ provider: 'mailgun', to: email });
      expect(mailgun.messages).toHaveLength(1);
      expect(mailgun.messages[0]).toMatchObject({
        to: [`"Jamie Rivera" <${email}>`],
        from: '"Long Island Net Proceeds" <hello@mg.example.com>',
        subject: 'Test e-mail from your net proceeds site',
      });
      expect(outbox).toEqual([]);
    });

    it("answers the provider's error, and the failed test is not tried again later", async () => {
      const { client, email } = await adminClient();
      await client.send('PATCH', MAILGUN, { ...completeSettings, mailgun_api_key: 'wrong-key-0000' });
      const refused = await expectError(await client.send('POST', TEST_EMAIL, {}), 502);
      expect(refused.error).toMatch(/^The test e-mail could not be sent through mailgun: .*(401|Forbidden)/);
      expect(refused.error).not.toContain('wrong-key-0000');
      const rows = await suite.db.query('SELECT status, provider FROM email_deliveries WHERE to_email = $1', [email]);
      expect(rows).toEqual([{ status: 'failed', provider: 'mailgun' }]);
    });
  });

  describe('SEO settings', () => {
    it('shows the stored values, saves every field, and shows them saved', async () => {
      const { client } = await adminClient();
      const [stored] = await suite.db.query<{ seo_title: string; twitter_card: string }>(
        'SELECT seo_title, twitter_card FROM seo_settings',
      );
      const shown = await expectJson(await client.get(SEO), 200, seoAnswerSchema);
      expect(shown.settings).toMatchObject({ seo_title: stored?.seo_title, twitter_card: stored?.twitter_card });

      const saved = await expectJson(await client.send('PUT', SEO, seoBody), 200, seoSavedSchema);
      expect(saved.message).toBe('SEO settings saved successfully!');
      expect(saved.settings).toEqual(seoBody);
      expect((await expectJson(await client.get(SEO), 200, seoAnswerSchema)).settings).toEqual(seoBody);

      const cleared = { ...seoBody, og_title: '', og_description: '  ', og_url: '', seo_keywords: '' };
      const answer = await expectJson(await client.send('PUT', SEO, cleared), 200, seoSavedSchema);
      expect(answer.settings).toMatchObject({ og_title: null, og_description: null, og_url: null, seo_keywords: null });
    });

    it('takes exactly the limits (60, 160, 90, 200) and refuses one character more', async () => {
      const { client } = await adminClient();
      const atLimits = {
        ...seoBody,
        seo_title: 't'.repeat(60),
        seo_description: 'd'.repeat(160),
        og_title: 'o'.repeat(90),
        og_description: 'g'.repeat(200),
      };
      await expectJson(await client.send('PUT', SEO, atLimits), 200, seoSavedSchema);
      const over: [string, number, string][] = [
        ['seo_title', 61, 'Page title must be at most 60 characters'],
        ['seo_description', 161, 'Meta description must be at most 160 characters'],
        ['og_title', 91, 'OG title must be at most 90 characters'],
        ['og_description', 201, 'OG description must be at most 200 characters'],
      ];
      for (const [field, length, message] of over) {
        await expectFieldError(
          await client.send('PUT', SEO, { ...seoBody, [field]: 'x'.repeat(length) }),
          field,
          message,
        );
      }
      expect((await expectJson(await client.get(SEO), 200, seoAnswerSchema)).settings).toEqual(atLimits);
    });

    it('refuses malformed, missing and wrongly typed fields', async () => {
      const { client } = await adminClient();
      await expectError(await client.send('PUT', SEO, 'nope'), 400, 'The request body is not valid JSON');
      await expectFieldError(
        await client.send('PUT', SEO, { ...seoBody, seo_title: undefined }),
        'seo_title',
        'Page title is required',
      );
      await expectFieldError(
        await client.send('PUT', SEO, { ...seoBody, seo_description: '   ' }),
        'seo_description',
        'Meta description is required',
      );
      await expectFieldError(
        await client.send('PUT', SEO, { ...seoBody, twitter_card: 'large' }),
        'twitter_card',
        'Choose summary, summary_large_image, app or player',
      );
      await expectFieldError(
        await client.send('PUT', SEO, { ...seoBody, og_url: 'javascript:alert(1)' }),
        'og_url',
        'Enter a full address starting with https://',
      );
      await expectFieldError(
        await client.send('PUT', SEO, { ...seoBody, og_title: 12 }),
        'og_title',
        'OG title must be text',
      );
      await expectError(await client.send('PUT', SEO, { ...seoBody, og_image_data: 'x' }), 400);
    });
  });
});
