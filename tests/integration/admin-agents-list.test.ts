/**
 * What the admin reads of the agents over real HTTP, on both backends: GET /api/admin/agents (every
 * agent with status, admin flag and counts) and the admin's CSV of one agent's leads; signed out
 * (401), as an agent (403) and as an admin.
 */
import { describe, expect, it } from 'vitest';
import { anyString, expectError } from '../support/api-suite.ts';
import { useAdminAgentsSuite } from '../support/admin-agents-suite.ts';
import { BACKENDS } from '../support/backends.ts';
import { createAgent } from '../support/fixtures.ts';

describe.each(BACKENDS)('the admin’s agents on %s', (backend) => {
  const { suite, signedIn, list } = useAdminAgentsSuite(backend);
  describe('GET /api/admin/agents', () => {
    it('answers 401 signed out and 403 to an agent', async () => {
      await expectError(await suite.client().get('/api/admin/agents'), 401, 'Please log in');
      const agent = await signedIn(false);
      await expectError(await agent.client.get('/api/admin/agents'), 403, 'Admins only');
    });

    it('lists every agent with status, admin flag and their lead and estimate counts', async () => {
      const admin = await signedIn(true);
      const other = await createAgent(suite.db, { status: 'inactive', brokerage: null });
      await suite.db.query(
        `INSERT INTO leads (agent_id, first_name, last_name, email, source, consent_marketing)
         VALUES ($1, 'Lee', 'One', 'lee1@example.com', 'calculator', true),
                ($1, 'Lee', 'Two', 'lee2@example.com', 'calculator', true)`,
        [other.id],
      );
      const { agents } = await list(admin.client);
      const row = agents.find((agent) => agent.id === other.id);
      expect(row).toEqual({
        id: other.id,
        first_name: other.first_name,
        last_name: other.last_name,
        email: other.email,
        slug: other.slug,
        brokerage: null,
        status: 'inactive',
        is_admin: false,
        created_at: anyString(),
        lead_count: 2,
        estimate_count: 0,
        featured: false,
        last_sign_in_at: null,
        invitation_open: false,
      });
      expect(agents.find((agent) => agent.id === admin.id)?.is_admin).toBe(true);
    });
  });

  describe('the admin’s CSV of one agent’s leads', () => {
    it('gives an admin that agent’s leads and refuses an agent with 403', async () => {
      const admin = await signedIn(true);
      const target = await createAgent(suite.db);
      await suite.db.query(
        `INSERT INTO leads (agent_id, first_name, last_name, email, source, consent_marketing)
         VALUES ($1, 'Casey', 'Export', 'casey.export@example.com', 'calculator', true)`,
        [target.id],
      );
      const response = await admin.client.get(`/api/admin/leads/export.csv?agent=${target.id}`);
      const text = await response.text();
      expect(response.status, text).toBe(200);
      expect(text).toContain('Casey Export');
      expect(text).toContain('casey.export@example.com');

      const agent = await signedIn(false);
      await expectError(await agent.client.get(`/api/admin/leads/export.csv?agent=${target.id}`), 403, 'Admins only');
      expect((await expectError(await admin.client.get('/api/admin/leads/export.csv?agent=zero'), 400)).fields).toEqual(
        {
          agent: 'Agent must be an agent id',
        },
      );
    });
  });
});
