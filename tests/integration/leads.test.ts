/**
 * POST /api/leads over real HTTP, on both backends: the three form shapes, the agent each lead is
 * stored for, and validation that writes nothing.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createEstimate } from '../support/estimates.ts';
import { BACKENDS } from '../support/backends.ts';
import { anyNumber, anyString, expectError, expectJson, useApiSuite } from '../support/api-suite.ts';
import { leadResponse } from '../support/schemas.ts';
import { countRows, createAgent, leadById } from '../support/fixtures.ts';

const SOURCES = 'showcase, calculator, nassau_county_page, suffolk_county_page';
const CONSENT = 'Please agree to be contacted about your home sale';
const ONLY_NAME_CHARACTERS = 'can only contain letters, spaces, apostrophes, hyphens and periods';

describe.each(BACKENDS)('leads on %s', (backend) => {
  const suite = useApiSuite(backend, 'leads');
  const send = (body: unknown) => suite.api.postJson('/api/leads', body);

  /** Posts a lead that must be accepted; answers the stored row. */
  async function sendOk(body: unknown) {
    const response = await send(body);
    const result = await expectJson(response, 201, leadResponse);
    expect(result).toMatchObject({
      success: true,
      lead: { id: anyNumber(), created_at: anyString() },
      fub_sync_status: 'no_integration',
    });
    // Only an agent-page unlock with an estimate asks for the visitor's estimate e-mail.
    const asked = typeof body === 'object' && body !== null && 'first_name' in body && 'estimate_uuid' in body;
    expect(result.estimate_email.status).toBe(asked && body.estimate_uuid ? 'queued' : 'none');
    expect(result.lead.created_at).toBe(new Date(Date.parse(result.lead.created_at)).toISOString());
    const row = await leadById(suite.db, result.lead.id);
    if (!row) throw new Error(`lead ${result.lead.id} is not in the leads table`);
    return row;
  }

  /** Posts a lead that must be refused with 400, checks the message and that nothing was written. */
  async function sendRejected(body: unknown, field: string, message: string) {
    const before = await countRows(suite.db, 'leads');
    const result = await expectError(await send(body), 400);
    expect(result.fields[field], JSON.stringify(result.fields)).toBe(message);
    expect(Object.values(result.fields)).toContain(result.error);
    expect(await countRows(suite.db, 'leads')).toBe(before);
    return result;
  }

  const newEstimate = (agentSlug?: string) => createEstimate(suite.api, agentSlug);

  // A repeat of a lead within minutes is the same lead: each form gets an e-mail of its own.
  let forms = 0;
  const uniqueEmail = (local: string) => {
    forms += 1;
    return `${local}+${forms}@example.com`;
  };

  const contactForm = (change: Record<string, unknown> = {}) => ({
    agent_slug: 'alexmorgan',
    firstName: 'Dana',
    lastName: 'Lopez',
    phone: '(516) 555-0123',
    email: uniqueEmail('dana.lopez'),
    address: '12 Elm Street, Garden City, NY 11530',
    source: 'nassau_county_page',
    consent_marketing: true,
    ...change,
  });

  const agentPageForm = (agentId: number, change: Record<string, unknown> = {}) => ({
    agent_id: agentId,
    first_name: 'Chris',
    last_name: 'Nguyen',
    email: uniqueEmail('chris.nguyen'),
    phone: '631-555-0199',
    address: '7 Bay Road, Huntington, NY 11743',
    source: 'calculator',
    consent_marketing: true,
    ...change,
  });

  const estimatePageForm = (estimateUuid: string, change: Record<string, unknown> = {}) => ({
    name: 'Robin Q Baker',
    email: uniqueEmail('robin.baker'),
    phone: '+1 516 555 0177',
    message: 'Please call me after 5pm.',
    estimate_uuid: estimateUuid,
    email_body: 'Your estimated net proceeds: $279,341.00',
    consent_marketing: true,
    ...change,
  });

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

  describe('agent page form', () => {
    it('stores the lead for the agent named by id, with the estimate and e-mail body', async () => {
      const agent = await createAgent(suite.db);
      const estimate = await newEstimate(agent.slug);
      const form = agentPageForm(agent.id, { estimate_uuid: estimate.uuid, email_body: '<p>Net: $279,341.00</p>' });
      const row = await sendOk(form);
      expect(row).toEqual({
        id: anyNumber(),
        agent_id: agent.id,
        first_name: 'Chris',
        last_name: 'Nguyen',
        email: form.email,
        phone: '631-555-0199',
        address: '7 Bay Road, Huntington, NY 11743',
        message: null,
        source: 'calculator',
        consent_marketing: true,
        estimate_uuid: estimate.uuid,
        email_body: '<p>Net: $279,341.00</p>',
        page_path: null,
      });
    });

    it('stores a lead without an estimate for the agent named by id', async () => {
      const agent = await createAgent(suite.db);
      const row = await sendOk(agentPageForm(agent.id, { source: undefined, address: null }));
      expect(row).toMatchObject({ agent_id: agent.id, estimate_uuid: null, source: 'calculator', address: null });
    });

    it("stores a lead about an estimate for the estimate's agent, whatever agent_id says", async () => {
      const second = await createAgent(suite.db);
      const estimate = await newEstimate(second.slug);
      const row = await sendOk(agentPageForm(suite.test.featuredAgent.id, { estimate_uuid: estimate.uuid }));
      expect(row.agent_id).toBe(second.id);
    });

    it('answers 404 for an agent id nobody has', async () => {
      const before = await countRows(suite.db, 'leads');
      await expectError(await send(agentPageForm(99999999)), 404, 'Agent not found');
      expect(await countRows(suite.db, 'leads')).toBe(before);
    });

    it('answers 404 "Estimate not found" for an estimate nobody has', async () => {
      const before = await countRows(suite.db, 'leads');
      const body = await expectError(
        await send(agentPageForm(suite.test.featuredAgent.id, { estimate_uuid: randomUUID() })),
        404,
        'Estimate not found',
      );
      expect(body.fields).toEqual({ estimate_uuid: 'Estimate not found' });
      expect(await countRows(suite.db, 'leads')).toBe(before);
    });

    it.each([
      ['agent_id is missing', { agent_id: undefined }, 'agent_id', 'Agent id must be a number'],
      ['agent_id is a string', { agent_id: '1' }, 'agent_id', 'Agent id must be a number'],
      ['agent_id is a fraction', { agent_id: 1.5 }, 'agent_id', 'Agent id must be a whole number'],
      ['first_name is blank', { first_name: '' }, 'first_name', 'First name is required'],
      ['last_name is missing', { last_name: undefined }, 'last_name', 'Last name is required'],
      ['email is missing', { email: undefined }, 'email', 'Email is required'],
      ['email is invalid', { email: 'chris@@example.com' }, 'email', 'Please enter a valid email address'],
      ['phone is missing', { phone: undefined }, 'phone', 'Phone is required'],
      ['phone is invalid', { phone: '12' }, 'phone', 'Please enter a valid phone number'],
      ['consent is false', { consent_marketing: false }, 'consent_marketing', CONSENT],
      ['source is unknown', { source: 'billboard' }, 'source', `Source must be one of ${SOURCES}`],
      ['estimate_uuid is malformed', { estimate_uuid: 'abc' }, 'estimate_uuid', 'Estimate id is not valid'],
      [
        'email_body is too long',
        { email_body: 'b'.repeat(5001) },
        'email_body',
        'Email body must be at most 5000 characters',
      ],
      ['address is too long', { address: 'A'.repeat(301) }, 'address', 'Address must be at most 300 characters'],
      [
        'first_name has a link',
        { first_name: 'www.spam.example' },
        'first_name',
        'First name cannot contain a web address',
      ],
      ['last_name has an @', { last_name: 'chris@spam.example' }, 'last_name', `Last name ${ONLY_NAME_CHARACTERS}`],
      [
        'first_name is too long',
        { first_name: 'C'.repeat(51) },
        'first_name',
        'First name must be at most 50 characters',
      ],
    ])('answers 400 when %s, and stores nothing', async (_label, change, field, message) => {
      await sendRejected(agentPageForm(suite.test.featuredAgent.id, change), field, message);
    });

    it('answers 400 "First name is required" when first_name is left out', async () => {
      // Only the name fields tell the shapes apart; a form without first_name must still be told
      // about first_name, not about another form's fields.
      await sendRejected(
        agentPageForm(suite.test.featuredAgent.id, { first_name: undefined }),
        'first_name',
        'First name is required',
      );
    });
  });

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
