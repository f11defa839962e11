/**
 * The admin's e-mail sending: GET and PATCH /api/agents/me/integrations/mailgun (the Mailgun
 * settings, key write-only) and POST /api/admin/email/test, which sends a test e-mail to the
 * signed-in admin's own address through the provider the site would use now and answers which
 * one sent it, or the provider's error.
 */
import { assertAdmin, sessionAgentCte, sessionOf, sessionParams } from '../auth/public/access.server.ts';
import type { SessionClaims } from '../auth/public/sessions.server.ts';
import type { Db } from '../../platform/db.ts';
import type { SecretSource } from '../../platform/encryption.ts';
import { HttpError } from '../../platform/http.ts';
import { apiGroup, ok } from '../../platform/operation.ts';
import {
  EMAIL_SETTINGS_MESSAGES,
  mailgunSaveSchema,
  testEmailAnswerSchema,
  type MailgunView,
} from './email-settings.ts';
import { mailgunSettingsView, readMailgunSettings, saveMailgunSettings } from './email-settings.server.ts';
import { type EmailAddress, type EmailProvider, type UnsubscribeLinks } from './public/email.server.ts';
import { deliverQueued } from './email-delivery.server.ts';

export interface EmailSettingsDeps {
  /** ENCRYPTION_KEY, which the stored Mailgun key is encrypted with. */
  secret: SecretSource;
  /** The app's sender; `refresh` (settingsAwareProvider) makes the next send read the settings again. */
  email?: { provider: EmailProvider & { refresh?(): void }; from: EmailAddress };
  unsubscribe: (request: Request) => UnsubscribeLinks;
}

const toView = (view: ReturnType<typeof mailgunSettingsView>): MailgunView => ({
  mailgun_domain: view.domain,
  mailgun_from_name: view.fromName,
  mailgun_from_email: view.fromEmail,
  mailgun_api_key_masked: view.apiKeyMasked,
  complete: view.complete,
});

/** One round trip: whether the session's agent is a current admin (401 or 403 otherwise). */
async function checkAdmin(db: Db, claims: SessionClaims): Promise<void> {
  const [me] = await db.query<{ is_admin: boolean }>(
    `WITH ${sessionAgentCte(1)} SELECT is_admin FROM me`,
    sessionParams(claims),
  );
  assertAdmin(me);
}

const TEST_SUBJECT = 'Test e-mail from your net proceeds site';
const TEST_TEXT = [
  'This is a test e-mail sent from the admin settings of your net proceeds site.',
  'If you are reading it, e-mail sending works.',
].join('\n\n');
const TEST_HTML = TEST_TEXT.split('\n\n')
  .map((line) => `<p>${line}</p>`)
  .join('');

/** What the e-mail settings routes are built from (src/app/api-groups.server.ts). */
export type EmailSettingsInput = EmailSettingsDeps & { db: Db };

export const emailSettingsApi = apiGroup(
  (deps: EmailSettingsInput) => deps,
  (op) => [
    /** Two round trips: the admin check, then the settings (the key decrypted only to mask it). */
    op({
      method: 'GET',
      path: '/api/agents/me/integrations/mailgun',
      access: 'admin',
      summary: "The site's Mailgun settings (the key masked)",
      tag: 'Admin settings',
      success: ok('The settings'),
      handler: async (c, { db, secret }) => {
        await checkAdmin(db, sessionOf(c));
        const settings = await readMailgunSettings(db, secret);
        return c.json({ success: true, settings: toView(mailgunSettingsView(settings)) });
      },
    }),
    op({
      method: 'PATCH',
      path: '/api/agents/me/integrations/mailgun',
      access: 'admin',
      summary: "Saves the site's Mailgun settings (the key is write-only)",
      tag: 'Admin settings',
      json: mailgunSaveSchema,
      success: ok('Saved'),
      handler: async (c, { db, secret, email }, input) => {
        const save = await input.body();
        await checkAdmin(db, sessionOf(c));
        const view = await saveMailgunSettings(db, secret, save);
        // The next e-mail goes through the provider these settings call for, not a cached choice.
        email?.provider.refresh?.();
        return c.json({ success: true, message: EMAIL_SETTINGS_MESSAGES.saved, settings: toView(view) });
      },
    }),
    /**
     * No body is read: the test goes only to the admin's own address. Round trips: queue it (with
     * the admin check), send it, then record a failure as final (the admin has the answer now; it
     * is not retried later).
     */
    op({
      method: 'POST',
      path: '/api/admin/email/test',
      access: 'admin',
      summary: "Sends a test e-mail to the admin's own address",
      tag: 'Admin settings',
      success: ok('Sent', testEmailAnswerSchema),
      errors: [502],
      handler: async (c, { db, email, unsubscribe }) => {
        if (!email) throw new HttpError(500, 'E-mail sending is not configured on this server');
        const [queued] = await db.query<{ is_admin: boolean; id: number | null; to_email: string | null }>(
          `WITH ${sessionAgentCte(1)},
           queued AS (
             INSERT INTO email_deliveries (kind, to_email, to_name, subject, html, text)
             SELECT 'test', a.email, a.first_name || ' ' || a.last_name, $3, $4, $5
               FROM me JOIN agents a ON a.id = me.id WHERE me.is_admin
             RETURNING id, to_email
           )
           SELECT me.is_admin, queued.id, queued.to_email FROM me LEFT JOIN queued ON true`,
          [...sessionParams(sessionOf(c)), TEST_SUBJECT, TEST_HTML, TEST_TEXT],
        );
        assertAdmin(queued);
        if (!queued?.id || !queued.to_email) throw new HttpError(500, 'The test e-mail could not be queued');
        email.provider.refresh?.();
        await deliverQueued(db, email.provider, {
          ids: [queued.id],
          from: email.from,
          unsubscribe: unsubscribe(c.req.raw),
        });
        const [result] = await db.query<{ status: string; provider: string | null; last_error: string | null }>(
          `UPDATE email_deliveries SET status = CASE WHEN status = 'queued' THEN 'failed' ELSE status END
            WHERE id = $1 RETURNING status, provider, last_error`,
          [queued.id],
        );
        const provider = result?.provider ?? email.provider.name;
        if (result?.status !== 'sent') {
          throw new HttpError(
            502,
            `${EMAIL_SETTINGS_MESSAGES.testFailed} through ${provider}: ${result?.last_error ?? 'unknown error'}`,
          );
        }
        return c.json({
          success: true,
          provider,
          to: queued.to_email,
          message: `Test e-mail sent to ${queued.to_email} through ${provider}.`,
        });
      },
    }),
  ],
);
