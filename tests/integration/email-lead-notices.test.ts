/**
 * The e-mails POST /api/leads queues, over real HTTP on both backends: the agent's new-lead notice
 * (contact form, agent page, estimate page), the visitor's copy of an estimate, delivery after the
 * answer, a failing provider (the lead saved, the e-mail queued for a retry), the lead and its
 * e-mails written together or not at all, nothing queued for a refused lead.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createEstimate } from '../support/estimates.ts';
import { BACKENDS } from '../support/backends.ts';
import { anyNumber, anyString, expectError, expectJson } from '../support/api-suite.ts';
import {
  countDeliveries,
  deliveriesOfLead,
  failingProvider,
  heldProvider,
  TEST_SITE_URL,
  useEmailSuite,
} from '../support/email-suite.ts';
import { countRows, createAgent, leadById } from '../support/fixtures.ts';
import { GENERIC_500, withRefusedAddress } from '../support/refused-delivery.ts';
import { leadResponse } from '../support/schemas.ts';

describe.each(BACKENDS)('e-mail on %s', (backend) => {
  const suite = useEmailSuite(backend, 'email-lead-notices');

  const newEstimate = (agentSlug?: string) => createEstimate(suite.api, agentSlug);

  describe('POST /api/leads', () => {
    const postLead = async (body: Record<string, unknown>) => {
      const result = await expectJson(await suite.api.postJson('/api/leads', body), 201, leadResponse);
      expect(result).toMatchObject({
        success: true,
        lead: { id: anyNumber(), created_at: anyString() },
        fub_sync_status: 'no_integration',
      });
      return result.lead.id;
    };

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

    const agentPageForm = (agentId: number, estimateUuid?: string) => ({
      agent_id: agentId,
      first_name: 'Chris',
      last_name: 'Nguyen',
      email: 'chris.nguyen@example.com',
      phone: '631-555-0199',
      address: '7 Bay Road, Huntington, NY 11743',
      consent_marketing: true,
      ...(estimateUuid ? { estimate_uuid: estimateUuid } : {}),
    });

    it('a contact-form lead sends the agent a new-lead notice', async () => {
      const leadId = await postLead(contactForm);
      await suite.settle();
      const rows = await deliveriesOfLead(suite.db, leadId);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        kind: 'new_lead',
        to_email: 'alex.morgan@example.com',
        to_name: 'Alex Morgan',
        subject: 'New lead: Dana Lopez',
        status: 'sent',
        provider: 'outbox',
        attempts: 1,
        lead_id: leadId,
        estimate_uuid: null,
      });
      for (const expected of [
        'Dana Lopez',
        'dana.lopez@example.com',
        '(516) 555-0123',
        '12 Elm Street, Garden City, NY 11530',
        'Nassau County page',
      ]) {
        expect(rows[0]?.html).toContain(expected);
        expect(rows[0]?.text).toContain(expected);
      }
      expect(suite.outbox).toHaveLength(1);
      expect(suite.outbox[0]).toContain('to "Alex Morgan" <alex.morgan@example.com>');
    });

    it("an agent-page lead with an estimate e-mails the visitor the estimate and notifies the estimate's agent", async () => {
      const agent = await createAgent(suite.db, { first_name: 'Jamie', last_name: 'Rivera' });
      const estimate = await newEstimate(agent.slug);
      const leadId = await postLead(agentPageForm(suite.test.featuredAgent.id, estimate.uuid));
      await suite.settle();
      const rows = await deliveriesOfLead(suite.db, leadId);
      expect(rows.map((row) => [row.kind, row.to_email, row.to_name, row.status, row.estimate_uuid])).toEqual([
        ['new_lead', agent.email, 'Jamie Rivera', 'sent', estimate.uuid],
        ['estimate', 'chris.nguyen@example.com', null, 'sent', estimate.uuid],
      ]);
      const [notice, toVisitor] = rows;
      expect(notice?.text).toContain('Chris Nguyen');
      expect(notice?.text).toContain('$279,341.00');
      expect(notice?.text).toContain(`${TEST_SITE_URL}/estimate/${estimate.uuid}`);
      expect(toVisitor?.subject).toBe('Your estimated net proceeds: $279,341.00');
      expect(toVisitor?.html).toContain('$279,341.00');
      expect(toVisitor?.text).not.toContain('Chris Nguyen');
      expect(toVisitor?.text).toContain('Jamie Rivera');
      expect(suite.outbox).toHaveLength(2);
    });

    it('an agent-page lead without an estimate only notifies the agent', async () => {
      const agent = await createAgent(suite.db);
      const leadId = await postLead(agentPageForm(agent.id));
      await suite.settle();
      const rows = await deliveriesOfLead(suite.db, leadId);
      expect(rows.map((row) => [row.kind, row.to_email, row.status])).toEqual([['new_lead', agent.email, 'sent']]);
    });

    it("an estimate-page lead notifies the estimate's agent with the message and the estimate", async () => {
      const estimate = await newEstimate();
      const leadId = await postLead({
        name: 'Robin Q Baker',
        email: 'robin@example.com',
        message: 'Please call me after 5pm.',
        estimate_uuid: estimate.uuid,
        consent_marketing: true,
      });
      await suite.settle();
      const rows = await deliveriesOfLead(suite.db, leadId);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        kind: 'new_lead',
        to_email: 'alex.morgan@example.com',
        status: 'sent',
        estimate_uuid: estimate.uuid,
      });
      expect(rows[0]?.text).toContain('Please call me after 5pm.');
      expect(rows[0]?.text).toContain('$279,341.00');
    });

    it('a failing provider leaves the lead saved, the delivery queued for a retry, and still answers 201', async () => {
      const failing = failingProvider('Provider unavailable (503)');
      suite.useProvider(failing);
      const estimate = await newEstimate();
      const leadId = await postLead(agentPageForm(suite.test.featuredAgent.id, estimate.uuid));
      await suite.settle();
      expect(failing.calls).toBe(2);
      expect(await leadById(suite.db, leadId)).toMatchObject({ first_name: 'Chris', estimate_uuid: estimate.uuid });
      const rows = await deliveriesOfLead(suite.db, leadId);
      expect(rows).toHaveLength(2);
      for (const row of rows) {
        expect(row).toMatchObject({
          status: 'queued',
          attempts: 1,
          last_error: 'Provider unavailable (503)',
          provider: 'failing-fake',
          provider_message_id: null,
          sent_at: null,
        });
        // Retried a minute later (1 minute × 2^0), by the database's clock.
        expect(row.due_in_seconds).toBeGreaterThan(45);
        expect(row.due_in_seconds).toBeLessThanOrEqual(60);
      }
    });

    it('answers before the provider has sent anything', async () => {
      const held = heldProvider();
      suite.useProvider(held);
      const leadId = await postLead({ ...contactForm, email: 'dana.held@example.com' });
      expect((await leadById(suite.db, leadId))?.first_name).toBe('Dana');
      expect((await deliveriesOfLead(suite.db, leadId)).map((row) => row.status)).toEqual(['queued']);
      held.release();
      await suite.settle();
      expect((await deliveriesOfLead(suite.db, leadId)).map((row) => row.status)).toEqual(['sent']);
    });

    it('writes the lead and its e-mails together or not at all', async () => {
      const estimate = await newEstimate();
      const leadsBefore = await countRows(suite.db, 'leads');
      const deliveriesBefore = await countDeliveries(suite.db);
      await withRefusedAddress(suite.db, 'refused@example.com', async () => {
        const form = { ...agentPageForm(suite.test.featuredAgent.id, estimate.uuid), email: 'refused@example.com' };
        await expectError(await suite.api.postJson('/api/leads', form), 500, GENERIC_500);
      });
      expect(suite.logged.splice(0)).toHaveLength(1);
      expect(await countRows(suite.db, 'leads')).toBe(leadsBefore);
      expect(await countDeliveries(suite.db)).toBe(deliveriesBefore);
    });

    it('queues nothing for a refused or unknown lead', async () => {
      const before = await countDeliveries(suite.db);
      await expectError(await suite.api.postJson('/api/leads', { ...contactForm, email: 'nope' }), 400);
      await expectError(
        await suite.api.postJson('/api/leads', { ...contactForm, agent_slug: 'nosuchagent999' }),
        404,
        'Agent not found',
      );
      await expectError(
        await suite.api.postJson('/api/leads', agentPageForm(suite.test.featuredAgent.id, randomUUID())),
        404,
        'Estimate not found',
      );
      expect(await countDeliveries(suite.db)).toBe(before);
    });
  });
});
