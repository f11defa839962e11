/**
 * DELETE /api/leads (Clear All) on both backends: the caller's leads cleared in one round trip
 * with their e-mail records kept, the list's filters deleting exactly what the list matches, and a
 * request from another site refused.
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { expectFieldError, expectJson } from '../support/api-suite.ts';
import { useAuthSuite } from '../support/auth-suite.ts';
import { BACKENDS } from '../support/backends.ts';
import { deliveryById } from '../support/email-suite.ts';
import { addLeads, series } from '../support/lead-list-suite.ts';
import { cleared, leadListRequests } from '../support/lead-list-requests.ts';

describe.each(BACKENDS)('the agent’s leads on %s', (backend) => {
  const suite = useAuthSuite(backend, 'leadlist-clear');
  const { signedIn, list, clear } = leadListRequests(suite);

  describe('DELETE /api/leads', () => {
    it('clears the caller’s leads in one round trip and answers how many; their e-mail records stay', async () => {
      const agent = await signedIn();
      await addLeads(suite.db, agent.id, series(4));
      // A lead through the public form queues the agent's notice, tied to the lead.
      const visitor = suite.client();
      const posted = await expectJson(
        await visitor.post('/api/leads', {
          agent_id: agent.id,
          first_name: 'Dana',
          last_name: 'Lopez',
          email: 'dana.clear@example.com',
          phone: '516-555-0123',
          consent_marketing: true,
        }),
        201,
        z.object({ lead: z.object({ id: z.number() }) }).loose(),
      );
      await suite.settle();
      const [notice] = await suite.db.query<{ id: number }>('SELECT id FROM email_deliveries WHERE lead_id = $1', [
        posted.lead.id,
      ]);
      if (!notice) throw new Error('no notice was queued for the lead');

      const before = suite.db.roundTrips;
      expect(await expectJson(await clear(agent.client), 200, cleared)).toEqual({ success: true, deleted: 5 });
      expect(suite.db.roundTrips - before).toBe(1);
      expect(await list(agent.client)).toEqual({
        success: true,
        leads: [],
        towns: [],
        total: 0,
        page: 1,
        per_page: 25,
      });
      expect(await deliveryById(suite.db, notice.id)).toMatchObject({ lead_id: null, kind: 'new_lead' });
      expect(await expectJson(await clear(agent.client), 200, cleared)).toEqual({ success: true, deleted: 0 });

      // The same visitor may leave a new lead at once: the repeat window went with the lead.
      const again = await visitor.post('/api/leads', {
        agent_id: agent.id,
        first_name: 'Dana',
        last_name: 'Lopez',
        email: 'dana.clear@example.com',
        phone: '516-555-0123',
        consent_marketing: true,
      });
      expect(again.status).toBe(201);
      expect((await list(agent.client)).total).toBe(1);
    });

    it('with the list’s filters deletes exactly the leads the list matches, in one round trip', async () => {
      const agent = await signedIn();
      const other = await signedIn();
      await addLeads(suite.db, agent.id, [
        { first_name: 'Dana', email: 'dana.keep@example.com', created_at: '2026-07-01T12:00:00Z' },
        { first_name: 'Dana', email: 'dana.go@example.com', source: 'showcase', created_at: '2026-07-02T12:00:00Z' },
        { first_name: 'Pat', email: 'pat.go@example.com', source: 'showcase', created_at: '2026-07-03T12:00:00Z' },
        { first_name: 'Lee', email: 'lee.keep@example.com', source: 'showcase', created_at: '2026-05-01T12:00:00Z' },
      ]);
      await addLeads(suite.db, other.id, [
        { first_name: 'Dana', source: 'showcase', created_at: '2026-07-02T12:00:00Z' },
      ]);
      const query = '?search=go%40&source=home&from=2026-06-01';
      const matched = await list(agent.client, query);
      expect(matched.total).toBe(2);

      const before = suite.db.roundTrips;
      const response = await agent.client.request(`/api/leads${query}`, {
        method: 'DELETE',
        headers: { origin: suite.api.origin },
      });
      expect(await expectJson(response, 200, cleared)).toEqual({ success: true, deleted: 2 });
      expect(suite.db.roundTrips - before).toBe(1);
      expect((await list(agent.client)).leads.map((lead) => lead.email)).toEqual([
        'dana.keep@example.com',
        'lee.keep@example.com',
      ]);
      expect((await list(other.client)).total).toBe(1);

      // A filter the list would refuse deletes nothing.
      const bad = await agent.client.request('/api/leads?from=2026-07-10&to=2026-07-01', {
        method: 'DELETE',
        headers: { origin: suite.api.origin },
      });
      await expectFieldError(bad, 'to', 'From date must be on or before To date');
      expect((await list(agent.client)).total).toBe(2);
    });

    it('is refused from another site (no Origin of ours), deleting nothing', async () => {
      const agent = await signedIn();
      await addLeads(suite.db, agent.id, series(2));
      const response = await agent.client.request('/api/leads', {
        method: 'DELETE',
        headers: { origin: 'https://evil.example' },
      });
      expect(response.status).toBe(403);
      expect((await list(agent.client)).total).toBe(2);
    });
  });
});
