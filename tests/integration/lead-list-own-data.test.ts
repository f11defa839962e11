/**
 * The lead list's own data only, on both backends: agent B never sees, exports or clears agent A's
 * leads; an admin gets their own leads here; signed out, stale or inactive reads nothing.
 */
import { describe, expect, it } from 'vitest';
import { expectError, expectJson } from '../support/api-suite.ts';
import { useAuthSuite } from '../support/auth-suite.ts';
import { BACKENDS } from '../support/backends.ts';
import { addLeads, series } from '../support/lead-list-suite.ts';
import { cleared, leadListRequests } from '../support/lead-list-requests.ts';

describe.each(BACKENDS)('the agent’s leads on %s', (backend) => {
  const suite = useAuthSuite(backend, 'leadlist-own-data');
  const { signedIn, list, clear, csv } = leadListRequests(suite);

  describe('own data only', () => {
    it('agent B never sees, exports or clears agent A’s leads, whatever ids B sends', async () => {
      const a = await signedIn();
      const b = await signedIn();
      const aLeads = await addLeads(suite.db, a.id, series(3, Date.UTC(2026, 1, 1), { first_name: 'Alpha' }));
      const [bLead] = await addLeads(suite.db, b.id, [{ first_name: 'Bravo' }]);

      for (const query of ['', `?agent_id=${a.id}`, `?agent_id=${a.id}&id=${aLeads[0]}`, '?search=Alpha']) {
        const body = await list(b.client, query);
        expect(body.leads.every((lead) => lead.id === bLead)).toBe(true);
      }
      // Whatever agent B names, B's export is B's own leads (every agent's is the admin's export).
      expect((await csv(b.client, `?agent_id=${a.id}&agent=${a.id}`)).records).toHaveLength(2);
      const exported = await csv(b.client, `?search=Alpha`);
      expect(exported.records).toHaveLength(1);
      const own = await csv(b.client);
      expect(own.records).toHaveLength(2);
      expect(own.records[1]?.[0]).toMatch(/^Bravo /);

      const response = await b.client.request(`/api/leads?agent_id=${a.id}`, {
        method: 'DELETE',
        headers: { origin: suite.api.origin },
      });
      expect(await expectJson(response, 200, cleared)).toEqual({ success: true, deleted: 1 });
      expect((await list(a.client)).leads.map((lead) => lead.id)).toEqual([...aLeads].reverse());
    });

    it('an admin gets their own leads here, not every agent’s', async () => {
      const admin = await signedIn(true);
      const other = await signedIn();
      await addLeads(suite.db, other.id, series(2));
      const [own] = await addLeads(suite.db, admin.id, [{ first_name: 'Own' }]);
      expect((await list(admin.client)).leads.map((lead) => lead.id)).toEqual([own]);
      expect((await csv(admin.client)).records).toHaveLength(2);
      expect(await expectJson(await clear(admin.client), 200, cleared)).toEqual({ success: true, deleted: 1 });
      expect((await list(other.client)).total).toBe(2);
    });

    it('answers 401 signed out, and once the session is stale or the agent inactive, reading nothing', async () => {
      const agent = await signedIn();
      await addLeads(suite.db, agent.id, series(2));
      const anonymous = suite.client();
      await expectError(await anonymous.get('/api/leads'), 401, 'Please log in');
      await expectError(await anonymous.get('/api/leads/export.csv'), 401, 'Please log in');
      await expectError(await clear(anonymous), 401, 'Please log in');

      await suite.db.query('UPDATE agents SET session_version = session_version + 1 WHERE id = $1', [agent.id]);
      await expectError(await agent.client.get('/api/leads'), 401, 'Please log in');
      await expectError(await agent.client.get('/api/leads/export.csv'), 401, 'Please log in');
      await expectError(await clear(agent.client), 401, 'Please log in');

      const inactive = await signedIn();
      await addLeads(suite.db, inactive.id, series(1));
      await suite.db.query(`UPDATE agents SET status = 'inactive' WHERE id = $1`, [inactive.id]);
      await expectError(await clear(inactive.client), 401, 'Please log in');
      const [left] = await suite.db.query<{ n: number }>('SELECT count(*)::int AS n FROM leads WHERE agent_id = $1', [
        inactive.id,
      ]);
      expect(left?.n).toBe(1);
    });
  });
});
