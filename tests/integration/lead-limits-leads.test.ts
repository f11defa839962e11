/**
 * POST /api/leads' limits over real HTTP, on both backends: one lead per visitor and agent for 10
 * minutes (also when two requests race), the honeypot, the per-IP cap and the cap of an agent's
 * new-lead notices an hour, and that cap as configured (LEAD_NOTICES_PER_HOUR).
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { BACKENDS } from '../support/backends.ts';
import { expectJson, expectTooMany } from '../support/api-suite.ts';
import { randomIp } from '../support/auth-suite.ts';
import { countDeliveries, useEmailSuite } from '../support/email-suite.ts';
import { countRows, createAgent } from '../support/fixtures.ts';
import { leadResponse } from '../support/schemas.ts';
import { parseEnv } from '../../src/platform/env.ts';
import { sendEstimateResponse, useLeadLimitsSuite } from '../support/lead-limits-suite.ts';

describe.each(BACKENDS)('lead and send-estimate limits on %s', (backend) => {
  const {
    suite,
    post,
    newAgent,
    newVisitor,
    newEstimate,
    sendLead,
    leadAnswerOf,
    estimateLead,
    contactForm,
    agentPageForm,
    sendEstimate,
    mailTo,
    leadsOf,
    noticesOf,
  } = useLeadLimitsSuite(backend, 'lead-limits-leads');

  describe('one lead per visitor and agent for 10 minutes', () => {
    it('stores a repeat as the same lead: one row, one notice to the agent, and still answers 201', async () => {
      const agent = await newAgent();
      const visitor = newVisitor();
      const first = await sendLead(contactForm(visitor, { agent_slug: agent.slug }));
      const again = await sendLead(
        contactForm(visitor.toUpperCase(), { agent_slug: agent.slug, firstName: 'Danielle' }),
      );
      expect(again).toBe(first);
      expect(await leadsOf(visitor)).toHaveLength(1);
      expect(await noticesOf(first)).toHaveLength(1);
      expect(await mailTo(agent.email)).toEqual(['new_lead']);
    });

    it('records the newer estimate on the lead, and still e-mails an agent-page visitor the estimate they asked for', async () => {
      const agent = await newAgent();
      const visitor = newVisitor();
      const first = await newEstimate(agent.slug);
      const second = await newEstimate(agent.slug);
      const leadId = await sendLead(agentPageForm(agent.id, visitor, { estimate_uuid: first.uuid }));
      await sendLead(agentPageForm(agent.id, visitor, { estimate_uuid: second.uuid }));
      expect(await leadsOf(visitor)).toEqual([{ id: leadId, estimate_uuid: second.uuid }]);
      expect(await mailTo(visitor)).toEqual(['estimate', 'estimate']);
      expect(await noticesOf(leadId)).toHaveLength(1);
      // The same form again, for an estimate this lead was sent: nothing new, and said as sent.
      const repeat = await leadAnswerOf(agentPageForm(agent.id, visitor, { estimate_uuid: second.uuid }));
      expect(repeat.estimate_email).toEqual({ status: 'already_sent', retry_after_seconds: null });
      expect(await mailTo(visitor)).toHaveLength(2);
      // A contact form asks for no estimate e-mail.
      const contact = await leadAnswerOf(contactForm(newVisitor(), { agent_slug: agent.slug }));
      expect(contact.estimate_email).toEqual({ status: 'none', retry_after_seconds: null });
      // The newer estimate can be sent from the estimate page.
      await expectJson(await sendEstimate(second.uuid, visitor), 202, sendEstimateResponse);
    });

    it('makes a new lead for another agent, or once 10 minutes have passed', async () => {
      const visitor = newVisitor();
      const [agent, other] = [await newAgent(), await newAgent()];
      const first = await sendLead(contactForm(visitor, { agent_slug: agent.slug }));
      const forAgent = await sendLead(contactForm(visitor, { agent_slug: other.slug }));
      expect(forAgent).not.toBe(first);
      await suite.db.query(
        "UPDATE lead_claims SET claimed_at = claimed_at - interval '11 minutes' WHERE lower(email_key) = lower($1)",
        [visitor],
      );
      const later = await sendLead(contactForm(visitor, { agent_slug: agent.slug }));
      expect(later).not.toBe(first);
      expect(await leadsOf(visitor)).toHaveLength(3);
      expect(await noticesOf(later)).toHaveLength(1);
    });

    it('stores two identical leads sent at once as one lead with one notice', async () => {
      const agent = await newAgent();
      const visitor = newVisitor();
      const form = contactForm(visitor, { agent_slug: agent.slug });
      const responses = await Promise.all([1, 2, 3].map(() => post('/api/leads', form)));
      const ids = new Set<number>();
      for (const response of responses) ids.add((await expectJson(response, 201, leadResponse)).lead.id);
      expect(ids.size).toBe(1);
      expect(await leadsOf(visitor)).toHaveLength(1);
      expect(await mailTo(agent.email)).toEqual(['new_lead']);
    });
  });

  describe('the honeypot', () => {
    it.each([
      ['contact', () => contactForm(newVisitor())],
      ['agent page', () => agentPageForm(suite.test.featuredAgent.id, newVisitor())],
      ['estimate page', () => estimateLead(randomUUID(), newVisitor())],
    ])('answers a filled-in company_site on the %s form as a lead (201) and writes nothing', async (_label, form) => {
      const [counters] = await suite.db.query<{ n: number }>('SELECT count(*)::int AS n FROM rate_limits');
      const leadsBefore = await countRows(suite.db, 'leads');
      const deliveriesBefore = await countDeliveries(suite.db);
      const response = await post('/api/leads', { ...form(), company_site: 'https://spam.example' }, randomIp());
      const body = await expectJson(response, 201, leadResponse);
      expect(body).toMatchObject({ success: true, fub_sync_status: 'no_integration' });
      expect(await countRows(suite.db, 'leads')).toBe(leadsBefore);
      expect(await countDeliveries(suite.db)).toBe(deliveriesBefore);
      expect(await suite.db.query('SELECT count(*)::int AS n FROM rate_limits')).toEqual([counters]);
    });

    it('stores the lead when company_site is sent empty, as the forms send it', async () => {
      const visitor = newVisitor();
      await sendLead({ ...contactForm(visitor), company_site: '' });
      expect(await leadsOf(visitor)).toHaveLength(1);
    });
  });

  describe('per-IP and per-agent limits of POST /api/leads', () => {
    it('takes 10 leads in 10 minutes from one IP address, then 429; other addresses and local clients are unaffected', async () => {
      const ip = randomIp();
      for (let lead = 1; lead <= 10; lead += 1) await sendLead(contactForm(newVisitor()), ip);
      const visitor = newVisitor();
      await expectTooMany(await post('/api/leads', contactForm(visitor), ip), 600);
      expect(await leadsOf(visitor)).toEqual([]);
      await sendLead(contactForm(visitor), randomIp());
      await sendLead(contactForm(newVisitor()));
    });

    it('saves every lead but sends an agent at most 20 new-lead notices an hour', async () => {
      const agent = await newAgent();
      const ids: number[] = [];
      for (let lead = 1; lead <= 21; lead += 1)
        ids.push(await sendLead(contactForm(newVisitor(), { agent_slug: agent.slug })));
      expect(new Set(ids).size).toBe(21);
      expect(await mailTo(agent.email)).toHaveLength(20);
      expect(await noticesOf(ids[20] ?? 0)).toEqual([]);
    });
  });
});

describe('the notice cap as configured (LEAD_NOTICES_PER_HOUR)', () => {
  const suite = useEmailSuite('pglite', 'lead-limits-configured', {
    leadNoticesPerHour: parseEnv({ LEAD_NOTICES_PER_HOUR: '2' }).LEAD_NOTICES_PER_HOUR,
  });

  it('sends an agent only as many notices an hour as configured, and saves every lead', async () => {
    const agent = await createAgent(suite.db);
    const ids: number[] = [];
    for (const visitor of ['ana', 'ben', 'cy']) {
      const response = await suite.api.postJson('/api/leads', {
        agent_slug: agent.slug,
        firstName: 'Dana',
        lastName: 'Lopez',
        phone: '(516) 555-0123',
        email: `${visitor}@example.com`,
        consent_marketing: true,
      });
      ids.push((await expectJson(response, 201, leadResponse)).lead.id);
    }
    expect(new Set(ids).size).toBe(3);
    const notices = await suite.db.query<{ lead_id: number }>(
      "SELECT lead_id FROM email_deliveries WHERE kind = 'new_lead' AND to_email = $1 ORDER BY id",
      [agent.email],
    );
    expect(notices.map((row) => row.lead_id)).toEqual(ids.slice(0, 2));
  });
});
