/**
 * POST /api/leads from the contact form (home and county pages), on both backends: the lead stored
 * for the agent named by slug, its page and campaign, trimming, unknown agents and invalid fields
 * refused with nothing stored, fields at their limits; and text stored exactly as given.
 */
import { describe, expect, it } from 'vitest';
import { BACKENDS } from '../support/backends.ts';
import { anyNumber, expectError, useApiSuite } from '../support/api-suite.ts';
import { countRows, createAgent } from '../support/fixtures.ts';
import { CONSENT, leadForms, ONLY_NAME_CHARACTERS, SOURCES } from '../support/lead-forms.ts';

describe.each(BACKENDS)('leads on %s', (backend) => {
  const suite = useApiSuite(backend, 'leads-contact-form');
  const { send, sendOk, sendRejected, newEstimate, contactForm, estimatePageForm } = leadForms(suite);

  describe('contact form (home and county pages)', () => {
    it('stores the lead for the agent named by slug', async () => {
      const form = contactForm();
      const row = await sendOk(form);
      expect(row).toEqual({
        id: anyNumber(),
        agent_id: suite.test.featuredAgent.id,
        first_name: 'Dana',
        last_name: 'Lopez',
        email: form.email,
        phone: '(516) 555-0123',
        address: '12 Elm Street, Garden City, NY 11530',
        message: null,
        source: 'nassau_county_page',
        consent_marketing: true,
        estimate_uuid: null,
        email_body: null,
        page_path: null,
      });
    });

    it('stores it for another agent by their slug, with source showcase by default and no address', async () => {
      const agent = await createAgent(suite.db);
      const row = await sendOk(contactForm({ agent_slug: agent.slug, source: undefined, address: undefined }));
      expect(row).toMatchObject({ agent_id: agent.id, source: 'showcase', address: null });
    });

    it('keeps the page and the campaign the visitor arrived from, and files it by that page (issue 23, M1)', async () => {
      const row = await sendOk(
        contactForm({
          page: '/long-island-real-estate/huntington',
          utm: { source: ' facebook ', medium: 'social', campaign: 'fall-listings' },
        }),
      );
      const [stored] = await suite.db.query<{ origin: string; page_town: string; utm: unknown }>(
        'SELECT origin, page_town, utm FROM leads WHERE id = $1',
        [row.id],
      );
      expect(stored).toEqual({
        origin: 'town',
        page_town: 'huntington',
        utm: { source: 'facebook', medium: 'social', campaign: 'fall-listings' },
      });
      const without = await sendOk(contactForm({ page: '/', utm: {} }));
      const [plain] = await suite.db.query<{ origin: string; utm: unknown }>(
        'SELECT origin, utm FROM leads WHERE id = $1',
        [without.id],
      );
      expect(plain).toEqual({ origin: 'home', utm: null });
    });

    it('refuses a campaign with a key it does not know or a value too long, and stores nothing', async () => {
      await sendRejected(
        contactForm({ utm: { source: 'x', gclid: 'abc' } }),
        'utm',
        'utm takes only source, medium, campaign, term, content',
      );
      await sendRejected(
        contactForm({ utm: { campaign: 'c'.repeat(201) } }),
        'utm.campaign',
        'utm_campaign must be at most 200 characters',
      );
    });

    it('trims the names and e-mail', async () => {
      const row = await sendOk(
        contactForm({ firstName: '  Dana ', lastName: ' Lopez  ', email: ' dana@example.com ' }),
      );
      expect(row).toMatchObject({ first_name: 'Dana', last_name: 'Lopez', email: 'dana@example.com' });
    });

    it('answers 404 for an unknown or inactive agent, and stores nothing', async () => {
      const pending = await createAgent(suite.db, { status: 'pending' });
      for (const slug of ['nosuchagent999', pending.slug]) {
        const before = await countRows(suite.db, 'leads');
        await expectError(await send(contactForm({ agent_slug: slug })), 404, 'Agent not found');
        expect(await countRows(suite.db, 'leads')).toBe(before);
      }
    });

    it.each([
      ['agent_slug is missing', { agent_slug: undefined }, 'agent_slug', 'Agent is required'],
      ['firstName is missing', { firstName: undefined }, 'firstName', 'First name is required'],
      ['firstName is blank', { firstName: '   ' }, 'firstName', 'First name is required'],
      ['lastName is missing', { lastName: undefined }, 'lastName', 'Last name is required'],
      ['phone is missing', { phone: undefined }, 'phone', 'Phone is required'],
      ['phone has too few digits', { phone: '555-0123' }, 'phone', 'Please enter a valid phone number'],
      ['phone has letters only', { phone: 'call me' }, 'phone', 'Please enter a valid phone number'],
      ['phone has 12 digits', { phone: '151655501234' }, 'phone', 'Please enter a valid phone number'],
      ['email is missing', { email: undefined }, 'email', 'Email is required'],
      ['email is blank', { email: ' ' }, 'email', 'Email is required'],
      ['email is invalid', { email: 'dana.lopez' }, 'email', 'Please enter a valid email address'],
      ['email has no domain', { email: 'dana@' }, 'email', 'Please enter a valid email address'],
      ['consent is false', { consent_marketing: false }, 'consent_marketing', CONSENT],
      ['consent is missing', { consent_marketing: undefined }, 'consent_marketing', CONSENT],
      ['consent is the string "true"', { consent_marketing: 'true' }, 'consent_marketing', CONSENT],
      ['source is unknown', { source: 'facebook' }, 'source', `Source must be one of ${SOURCES}`],
      ['firstName is too long', { firstName: 'F'.repeat(51) }, 'firstName', 'First name must be at most 50 characters'],
      ['lastName is too long', { lastName: 'L'.repeat(51) }, 'lastName', 'Last name must be at most 50 characters'],
      ['phone is too long', { phone: '5'.repeat(31) }, 'phone', 'Phone must be at most 30 characters'],
      ['email is too long', { email: `${'e'.repeat(243)}@example.com` }, 'email', 'Email is too long'],
      ['address is too long', { address: 'A'.repeat(301) }, 'address', 'Address must be at most 300 characters'],
      ['address is not text', { address: 12 }, 'address', 'Address must be text'],
      ['firstName has a link', { firstName: 'http://spam.example' }, 'firstName', `First name ${ONLY_NAME_CHARACTERS}`],
      ['firstName has an @', { firstName: 'dana@spam.example' }, 'firstName', `First name ${ONLY_NAME_CHARACTERS}`],
      ['lastName is a web address', { lastName: 'spam.example' }, 'lastName', 'Last name cannot contain a web address'],
      ['lastName has markup', { lastName: '<b>Lopez</b>' }, 'lastName', `Last name ${ONLY_NAME_CHARACTERS}`],
    ])('answers 400 when %s, and stores nothing', async (_label, change, field, message) => {
      await sendRejected(contactForm(change), field, message);
    });

    it('accepts fields at their limits', async () => {
      const row = await sendOk(
        contactForm({
          firstName: 'F'.repeat(50),
          lastName: 'L'.repeat(50),
          address: 'A'.repeat(300),
          email: `${'e'.repeat(242)}@example.com`,
          phone: '1 (516) 555-0123',
        }),
      );
      expect(row.first_name).toHaveLength(50);
      expect(row.address).toHaveLength(300);
      expect(row.email).toHaveLength(254);
    });
  });

  describe('stored text', () => {
    it('stores markup exactly as given', async () => {
      const script = '<script>alert("x")</script>';
      const estimate = await newEstimate();
      const contact = await sendOk(contactForm({ lastName: "O'Brien", address: `<b>1</b> ${script}` }));
      expect(contact).toMatchObject({ last_name: "O'Brien", address: `<b>1</b> ${script}` });
      const fromEstimate = await sendOk(
        estimatePageForm(estimate.uuid, {
          message: `${script}\n'; DROP TABLE leads; --`,
          email_body: `<img src=x onerror=alert(1)>${script}`,
        }),
      );
      expect(fromEstimate).toMatchObject({
        message: `${script}\n'; DROP TABLE leads; --`,
        email_body: `<img src=x onerror=alert(1)>${script}`,
      });
    });

    it('stores non-ASCII text intact', async () => {
      const row = await sendOk(contactForm({ firstName: 'Zoë', lastName: 'Ñúñez 李' }));
      expect(row).toMatchObject({ first_name: 'Zoë', last_name: 'Ñúñez 李' });
    });
  });
});
