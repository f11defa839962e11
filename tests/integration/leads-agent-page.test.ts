/**
 * POST /api/leads from an agent's page, on both backends: the lead stored for the agent named by id
 * (or for the estimate's agent), with or without an estimate; unknown agents and estimates, and
 * invalid fields, refused.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { BACKENDS } from '../support/backends.ts';
import { anyNumber, expectError, useApiSuite } from '../support/api-suite.ts';
import { countRows, createAgent } from '../support/fixtures.ts';
import { CONSENT, leadForms, ONLY_NAME_CHARACTERS, SOURCES } from '../support/lead-forms.ts';

describe.each(BACKENDS)('leads on %s', (backend) => {
  const suite = useApiSuite(backend, 'leads-agent-page');
  const { send, sendOk, sendRejected, newEstimate, agentPageForm } = leadForms(suite);

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
});
