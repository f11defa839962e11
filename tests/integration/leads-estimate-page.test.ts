/**
 * POST /api/leads from the estimate page, on both backends: the lead stored for the estimate's
 * agent with the full name split, without phone or message, an unknown estimate and invalid fields
 * refused with nothing stored.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { BACKENDS } from '../support/backends.ts';
import { anyNumber, expectError, useApiSuite } from '../support/api-suite.ts';
import { countRows, createAgent } from '../support/fixtures.ts';
import { CONSENT, leadForms, ONLY_NAME_CHARACTERS, SOURCES } from '../support/lead-forms.ts';

describe.each(BACKENDS)('leads on %s', (backend) => {
  const suite = useApiSuite(backend, 'leads-estimate-page');
  const { send, sendOk, sendRejected, newEstimate, estimatePageForm } = leadForms(suite);

  describe('estimate page form', () => {
    it("stores the lead for the estimate's agent, splitting the full name", async () => {
      const estimate = await newEstimate();
      const form = estimatePageForm(estimate.uuid);
      const row = await sendOk(form);
      expect(row).toEqual({
        id: anyNumber(),
        agent_id: suite.test.featuredAgent.id,
        first_name: 'Robin',
        last_name: 'Q Baker',
        email: form.email,
        phone: '+1 516 555 0177',
        address: null,
        message: 'Please call me after 5pm.',
        source: 'calculator',
        consent_marketing: true,
        estimate_uuid: estimate.uuid,
        email_body: 'Your estimated net proceeds: $279,341.00',
        page_path: null,
      });
    });

    it('accepts a lead without phone or message', async () => {
      const estimate = await newEstimate();
      const row = await sendOk(
        estimatePageForm(estimate.uuid, { phone: undefined, message: undefined, name: 'Robin' }),
      );
      expect(row).toMatchObject({ first_name: 'Robin', last_name: '', phone: null, message: null });
    });

    it("stores a lead about a second agent's estimate for that agent even when agent_id says 1", async () => {
      const second = await createAgent(suite.db);
      const estimate = await newEstimate(second.slug);
      expect(estimate.agent_id).toBe(second.id);
      const row = await sendOk(estimatePageForm(estimate.uuid, { agent_id: 1 }));
      expect(row.agent_id).toBe(second.id);
      expect(row.estimate_uuid).toBe(estimate.uuid);
    });

    it('answers 404 "Estimate not found" for an estimate nobody has, and stores nothing', async () => {
      const before = await countRows(suite.db, 'leads');
      const body = await expectError(await send(estimatePageForm(randomUUID())), 404, 'Estimate not found');
      expect(body.fields).toEqual({ estimate_uuid: 'Estimate not found' });
      expect(await countRows(suite.db, 'leads')).toBe(before);
    });

    it.each([
      ['name is blank', { name: '  ' }, 'name', 'Full name is required'],
      ['name is too long', { name: 'N'.repeat(101) }, 'name', 'Full name must be at most 100 characters'],
      ['name has a link', { name: 'Robin https://spam.example' }, 'name', `Full name ${ONLY_NAME_CHARACTERS}`],
      ['name is a web address', { name: 'Robin spam.example' }, 'name', 'Full name cannot contain a web address'],
      ['name has an @', { name: 'robin@spam.example' }, 'name', `Full name ${ONLY_NAME_CHARACTERS}`],
      ['email is missing', { email: undefined }, 'email', 'Email is required'],
      ['email is invalid', { email: 'robin at example.com' }, 'email', 'Please enter a valid email address'],
      ['phone is invalid', { phone: '555' }, 'phone', 'Please enter a valid phone number'],
      ['consent is false', { consent_marketing: false }, 'consent_marketing', CONSENT],
      ['consent is missing', { consent_marketing: undefined }, 'consent_marketing', CONSENT],
      ['source is unknown', { source: 'radio' }, 'source', `Source must be one of ${SOURCES}`],
      ['estimate_uuid is malformed', { estimate_uuid: 'not-a-uuid' }, 'estimate_uuid', 'Estimate id is not valid'],
      ['message is too long', { message: 'm'.repeat(2001) }, 'message', 'Message must be at most 2000 characters'],
      [
        'email_body is too long',
        { email_body: 'b'.repeat(5001) },
        'email_body',
        'Email body must be at most 5000 characters',
      ],
    ])('answers 400 when %s, and stores nothing', async (_label, change, field, message) => {
      const estimate = await newEstimate();
      await sendRejected(estimatePageForm(estimate.uuid, change), field, message);
    });

    it('answers 400 naming estimate_uuid when it is left out, and stores nothing', async () => {
      const before = await countRows(suite.db, 'leads');
      const body = await expectError(await send(estimatePageForm('', { estimate_uuid: undefined })), 400);
      expect(Object.keys(body.fields)).toEqual(['estimate_uuid']);
      expect(await countRows(suite.db, 'leads')).toBe(before);
    });

    it('answers 400 "Full name is required" when name is left out', async () => {
      const estimate = await newEstimate();
      await sendRejected(estimatePageForm(estimate.uuid, { name: undefined }), 'name', 'Full name is required');
    });
  });
});
