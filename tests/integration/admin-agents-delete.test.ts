/**
 * The admin deleting an agent over real HTTP, on both backends (DELETE /api/admin/agents/{id}): the
 * agent goes with their leads and estimates; yourself, the last admin (two admins deleting each
 * other at once too) and the featured agent are refused.
 */
import { describe, expect, it } from 'vitest';
import { expectError, expectJson } from '../support/api-suite.ts';
import { done, useAdminAgentsSuite } from '../support/admin-agents-suite.ts';
import type { Client } from '../support/auth-suite.ts';
import { BACKENDS } from '../support/backends.ts';
import { createAgent } from '../support/fixtures.ts';

describe.each(BACKENDS)('the admin’s agents on %s', (backend) => {
  const { suite, signedIn, featuredAgentId, statusOf } = useAdminAgentsSuite(backend);
  describe('DELETE /api/admin/agents/{id}', () => {
    const remove = (client: Client, id: number | string) =>
      client.request(`/api/admin/agents/${id}`, { method: 'DELETE', headers: { origin: suite.api.origin } });

    it('answers 401 signed out and 403 to an agent, deleting nothing', async () => {
      const target = await createAgent(suite.db);
      await expectError(await remove(suite.client(), target.id), 401, 'Please log in');
      const agent = await signedIn(false);
      await expectError(await remove(agent.client, target.id), 403, 'Admins only');
      expect(await statusOf(target.id)).toBe('active');
    });

    it('deletes an agent with their leads and estimates', async () => {
      const admin = await signedIn(true);
      const target = await createAgent(suite.db);
      await suite.db.query(
        `INSERT INTO leads (agent_id, first_name, last_name, email, source, consent_marketing)
         VALUES ($1, 'Lee', 'Gone', 'lee.gone@example.com', 'calculator', true)`,
        [target.id],
      );
      const answer = await expectJson(await remove(admin.client, target.id), 200, done);
      expect(answer.message).toBe('Agent deleted.');
      expect(await statusOf(target.id)).toBeUndefined();
      const leads = await suite.db.query('SELECT id FROM leads WHERE agent_id = $1', [target.id]);
      expect(leads).toHaveLength(0);
      await expectError(await remove(admin.client, target.id), 404, 'Agent not found');
    });

    it('refuses to delete yourself, the last admin or the featured agent', async () => {
      const admin = await signedIn(true);
      await expectError(await remove(admin.client, admin.id), 409, 'You cannot delete your own account.');
      expect(await statusOf(admin.id)).toBe('active');

      const featuredId = await featuredAgentId();
      await expectError(
        await remove(admin.client, featuredId),
        409,
        'The featured agent’s name brands the public pages, so they cannot be deleted. Choose another featured agent first (the FEATURED_AGENT_* settings of the site).',
      );
      expect(await statusOf(featuredId)).toBeDefined();
      await expectError(await remove(admin.client, 'x1'), 400);
    });

    it('refuses to delete the last admin when two admins delete each other', async () => {
      const first = await signedIn(true);
      const second = await signedIn(true);
      // Every other admin of the shared test database steps aside for this test's two.
      const others = await suite.db.query<{ id: number }>(
        'UPDATE agents SET is_admin = false WHERE is_admin AND id NOT IN ($1, $2) RETURNING id',
        [first.id, second.id],
      );
      try {
        const answers = await Promise.all([remove(first.client, second.id), remove(second.client, first.id)]);
        const statuses = answers.map((answer) => answer.status).sort();
        // One goes; the other finds the session gone (401) or is refused as the last admin (409).
        expect(statuses[0]).toBe(200);
        expect([401, 409]).toContain(statuses[1]);
        const [left] = await suite.db.query<{ admins: number }>(
          'SELECT count(*)::int AS admins FROM agents WHERE is_admin',
        );
        expect(left?.admins).toBe(1);
      } finally {
        if (others.length > 0) {
          await suite.db.query('UPDATE agents SET is_admin = true WHERE id = ANY ($1::int[])', [
            others.map((row) => row.id),
          ]);
        }
      }
    });
  });
});
