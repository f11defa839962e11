/**
 * POST /api/leads with a real provider (the local Resend and Mailgun fakes), on both backends: a
 * provider failing or refusing leaves the lead saved and answered 201, and the e-mail queued or
 * failed; complete Mailgun settings send the agent's notice through Mailgun.
 */
import { describe, expect, it } from 'vitest';
import { createOutboxProvider } from '../../src/features/email/public/email.server.ts';
import { settingsAwareProvider } from '../../src/features/email/providers/choose-provider.server.ts';
import { anyNumber, anyString, expectJson } from '../support/api-suite.ts';
import { BACKENDS } from '../support/backends.ts';
import {
  completeSettings,
  envWith,
  fakes,
  MAILGUN_FROM,
  useProviderFakes,
  useProviderSuite,
} from '../support/email-providers-suite.ts';
import { deliveriesOfLead } from '../support/email-suite.ts';
import { leadById } from '../support/fixtures.ts';
import { leadResponse } from '../support/schemas.ts';

useProviderFakes();

describe.each(BACKENDS)('e-mail providers on %s', (backend) => {
  const { suite, saveSettings } = useProviderSuite(backend, 'email-providers-leads');

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
      fakes.resend.trouble({ kind: 'server-error' }, Number.POSITIVE_INFINITY);
      suite.useProvider(
        settingsAwareProvider(
          suite.db,
          envWith({ RESEND_API_KEY: fakes.resend.apiKey }),
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
      expect(fakes.resend.requests).toHaveLength(1);
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
          envWith({ RESEND_API_KEY: fakes.resend.apiKey }),
          createOutboxProvider(() => undefined),
        ),
      );
      const { leadId } = await postLead();
      await suite.settle();
      const [row] = await deliveriesOfLead(suite.db, leadId);
      expect(row).toMatchObject({
        status: 'sent',
        provider: 'mailgun',
        provider_message_id: fakes.mailgun.messages[0]?.id,
      });
      expect(fakes.mailgun.messages[0]).toMatchObject({
        from: `"${MAILGUN_FROM.name}" <${MAILGUN_FROM.email}>`,
        to: ['"Alex Morgan" <alex.morgan@example.com>'],
        subject: 'New lead: Dana Lopez',
      });
      expect(fakes.mailgun.messages[0]?.text).toContain('(516) 555-0123');
      expect(fakes.resend.emails).toHaveLength(0);
    });
  });
});
