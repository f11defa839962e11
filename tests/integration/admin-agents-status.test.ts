/**
 * The admin changing an agent's status over real HTTP, on both backends (PATCH
 * /api/admin/agents/{id}): an inactive agent's sessions end and their page goes; bad input, an
 * unknown agent, the admin's own account and the featured agent refused; the last sign-in listed.
 */
import { describe, expect, it } from 'vitest';
import { expectError, expectJson } from '../support/api-suite.ts';
import { done, newAgentBody, useAdminAgentsSuite } from '../support/admin-agents-suite.ts';
import { clientAs } from '../support/auth-suite.ts';
import { BACKENDS } from '../support/backends.ts';
import { createAgent } from '../support/fixtures.ts';

describe.each(BACKENDS)('the admin’s agents on %s', (backend) => {
  const { suite, signedIn, list, featuredAgentId, statusOf } = useAdminAgentsSuite(backend);
  describe('PATCH /api/admin/agents/{id}', () => {
    it('answers 401 signed out and 403 to an agent, changing nothing', async () => {
      const target = await createAgent(suite.db);
      const path = `/api/admin/agents/${target.id}`;
      await expectError(await suite.client().send('PATCH', path, { status: 'inactive' }), 401, 'Please log in');
      const agent = await signedIn(false);
      await expectError(await agent.client.send('PATCH', path, { status: 'inactive' }), 403, 'Admins only');
      expect(await statusOf(target.id)).toBe('active');
    });

    it('makes an agent inactive: their sessions end and their page is not available', async () => {
      const admin = await signedIn(true);
      const target = await createAgent(suite.db);
      const theirs = await clientAs(suite, target.id);
      expect((await theirs.get('/api/auth/me')).status).toBe(200);
      expect((await suite.api.fetch(`/api/agents/public/${target.slug}`)).status).toBe(200);

      const changed = await admin.client.send('PATCH', `/api/admin/agents/${target.id}`, { status: 'inactive' });
      expect((await expectJson(changed, 200, done)).message).toBe('Status updated.');
      expect(await statusOf(target.id)).toBe('inactive');
      await expectError(await theirs.get('/api/auth/me'), 401, 'Please log in');
      await expectError(
        await suite.api.fetch(`/api/agents/public/${target.slug}`),
        410,
        'This calculator is not available',
      );

      await expectJson(
        await admin.client.send('PATCH', `/api/admin/agents/${target.id}`, { status: 'active' }),
        200,
        done,
      );
      expect((await suite.api.fetch(`/api/agents/public/${target.slug}`)).status).toBe(200);
    });

    it('refuses a bad status, a bad id, an unknown agent and the admin’s own account', async () => {
      const admin = await signedIn(true);
      const target = await createAgent(suite.db);
      const patch = (id: number | string, body: unknown) => admin.client.send('PATCH', `/api/admin/agents/${id}`, body);
      expect((await expectError(await patch(target.id, { status: 'banned' }), 400)).fields).toEqual({
        status: 'Status must be active, inactive or pending',
      });
      await expectError(await patch(target.id, {}), 400, 'Status must be active, inactive or pending');
      await expectError(await patch(target.id, '{"status":'), 400, 'The request body is not valid JSON');
      await expectError(await patch('abc', { status: 'inactive' }), 400);
      await expectError(await patch(2_000_000_000, { status: 'inactive' }), 404, 'Agent not found');
      await expectError(
        await patch(admin.id, { status: 'inactive' }),
        409,
        'You cannot change the status of your own account.',
      );
      expect(await statusOf(admin.id)).toBe('active');
      expect(await statusOf(target.id)).toBe('active');
    });

    it('keeps the featured agent active, naming the reason (minor 25), and lists them as featured', async () => {
      const admin = await signedIn(true);
      const featuredId = await featuredAgentId();
      await suite.db.query(`UPDATE agents SET status = 'active' WHERE id = $1`, [featuredId]);
      for (const status of ['inactive', 'pending']) {
        await expectError(
          await admin.client.send('PATCH', `/api/admin/agents/${featuredId}`, { status }),
          409,
          'The featured agent’s name brands the public pages, so they must stay active. Choose another featured agent first (the FEATURED_AGENT_* settings of the site).',
        );
      }
      expect(await statusOf(featuredId)).toBe('active');
      await expectJson(
        await admin.client.send('PATCH', `/api/admin/agents/${featuredId}`, { status: 'active' }),
        200,
        done,
      );
      const { agents } = await list(admin.client);
      expect(agents.filter((agent) => agent.featured).map((agent) => agent.id)).toEqual([featuredId]);
    });

    it('records the last sign-in, shown in the list', async () => {
      const admin = await signedIn(true);
      const body = newAgentBody();
      await suite.client().post('/api/auth/signup', { ...body, password: 'robins-long-password' });
      await suite.db.query(`UPDATE agents SET status = 'active' WHERE slug = $1`, [body.slug]);
      const before = (await list(admin.client)).agents.find((agent) => agent.slug === body.slug);
      expect(before?.last_sign_in_at).toBeNull();
      const login = await suite
        .client()
        .post('/api/auth/login', { email: body.email, password: 'robins-long-password' });
      expect(login.status, await login.clone().text()).toBe(200);
      const after = (await list(admin.client)).agents.find((agent) => agent.slug === body.slug);
      expect(Date.parse(after?.last_sign_in_at ?? '')).toBeGreaterThan(Date.now() - 60_000);
    });
  });
});
