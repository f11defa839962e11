/**
 * The lead's page and estimate in the agent's new-lead notice, over real HTTP on both backends:
 * the Source line from the page or the source label, the estimate's figures for a contact lead
 * after an estimate, and a 404 for another agent's estimate with nothing stored.
 */
import { describe, expect, it } from 'vitest';
import { BACKENDS } from '../support/backends.ts';
import { expectError } from '../support/api-suite.ts';
import { countDeliveries } from '../support/email-suite.ts';
import { leadById } from '../support/fixtures.ts';
import { useLeadLimitsSuite } from '../support/lead-limits-suite.ts';

describe.each(BACKENDS)('lead and send-estimate limits on %s', (backend) => {
  const { suite, post, newAgent, newVisitor, newEstimate, sendLead, contactForm, leadsOf, noticesOf } =
    useLeadLimitsSuite(backend, 'lead-limits-notice-context');

  describe("the lead's page and estimate in the agent's notice", () => {
    it.each([
      ['/long-island-real-estate/bay-shore', 'Town page: Bay Shore'],
      ['/long-island-real-estate/nassau-county', 'Nassau County page'],
      ['/long-island-real-estate/suffolk-county', 'Suffolk County page'],
      ['/', 'Home page'],
      ['/r/alexmorgan', 'Calculator page /r/alexmorgan'],
    ])('a lead from %s says "Source: %s"', async (page, label) => {
      const agent = await newAgent();
      const leadId = await sendLead(contactForm(newVisitor(), { agent_slug: agent.slug, page, source: 'showcase' }));
      expect((await leadById(suite.db, leadId))?.page_path).toBe(page);
      const [notice] = await noticesOf(leadId);
      expect(notice).toContain(`Source: ${label}`);
    });

    it('falls back to the source label without a page', async () => {
      const agent = await newAgent();
      const leadId = await sendLead(
        contactForm(newVisitor(), { agent_slug: agent.slug, source: 'suffolk_county_page' }),
      );
      const [notice] = await noticesOf(leadId);
      expect(notice).toContain('Source: Suffolk County page');
    });

    it.each([
      ['a full URL', 'https://evil.example/', 'Page must be a site path such as /long-island-real-estate/bay-shore'],
      ['capitals', '/Long-Island', 'Page must be a site path such as /long-island-real-estate/bay-shore'],
      ['a query', '/?q=1', 'Page must be a site path such as /long-island-real-estate/bay-shore'],
      ['too long', `/${'a'.repeat(200)}`, 'Page must be at most 200 characters'],
    ])('answers 400 on page when it is %s, and stores nothing', async (_label, page, message) => {
      const visitor = newVisitor();
      const body = await expectError(await post('/api/leads', contactForm(visitor, { page })), 400, message);
      expect(body.fields).toEqual({ page: message });
      expect(await leadsOf(visitor)).toEqual([]);
    });

    it("a contact lead after an estimate stores it and shows the agent the estimate's figures", async () => {
      const agent = await newAgent();
      const estimate = await newEstimate(agent.slug);
      const leadId = await sendLead(
        contactForm(newVisitor(), { agent_slug: agent.slug, estimate_uuid: estimate.uuid }),
      );
      expect((await leadById(suite.db, leadId))?.estimate_uuid).toBe(estimate.uuid);
      const [notice] = await noticesOf(leadId);
      for (const figure of ['$780,200.00', '$450,000.00', '$279,341.00', `/estimate/${estimate.uuid}`]) {
        expect(notice).toContain(figure);
      }
    });

    it("answers 404 for a contact lead naming another agent's estimate, and stores nothing", async () => {
      const agent = await newAgent();
      const estimate = await newEstimate(agent.slug);
      const visitor = newVisitor();
      const before = await countDeliveries(suite.db);
      const body = await expectError(
        await post('/api/leads', contactForm(visitor, { estimate_uuid: estimate.uuid })),
        404,
        'Estimate not found',
      );
      expect(body.fields).toEqual({ estimate_uuid: 'Estimate not found' });
      expect(await leadsOf(visitor)).toEqual([]);
      expect(await countDeliveries(suite.db)).toBe(before);
    });
  });
});
