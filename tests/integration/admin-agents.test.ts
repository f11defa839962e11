/**
 * The admin's agents over real HTTP, on both backends: GET and POST /api/admin/agents, PATCH and
 * DELETE /api/admin/agents/{id}, and the admin's CSV of one agent's leads; each signed out (401),
 * as an agent (403) and as an admin, with bad input and the rules (duplicates, the invitation that
 * sets a password and activates, inactive agents locked out, who cannot be deleted).
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { anyString, expectError, expectJson } from '../support/api-suite.ts';
import { clientAs, lastLinkToken, sentTo, useAuthSuite, type Client } from '../support/auth-suite.ts';
import { BACKENDS } from '../support/backends.ts';
import { createAgent } from '../support/fixtures.ts';

const agentRow = z.strictObject({
  id: z.number(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  slug: z.string(),
  brokerage: z.string().nullable(),
  status: z.enum(['active', 'inactive', 'pending']),
  is_admin: z.boolean(),
  created_at: z.string(),
  lead_count: z.number(),
  estimate_count: z.number(),
  featured: z.boolean(),
  last_sign_in_at: z.string().nullable(),
  invitation_open: z.boolean(),
});
const agentList = z.strictObject({ success: z.literal(true), agents: z.array(agentRow) });
const added = z.strictObject({ success: z.literal(true), message: z.string(), agent: agentRow });
const done = z.strictObject({ success: z.literal(true), message: z.string() });

/** The FEATURED_AGENT_* defaults the test app is built with (src/platform/env.ts). */
const FEATURED = { slug: 'alexmorgan', email: 'alex.morgan@example.com' };

let added_count = 0;
const newAgentBody = (overrides: Record<string, unknown> = {}) => {
  added_count += 1;
  const id = `${added_count}${Math.random().toString(36).slice(2, 8)}`;
  return {
    first_name: 'Robin',
    last_name: 'Hale',
    email: `robin.hale.${id}@example.com`,
    slug: `robinhale${id}`,
    brokerage: 'Harbor Point Realty (demo)',
    phone: '5165550142',
    ...overrides,
  };
};

describe.each(BACKENDS)('the admin’s agents on %s', (backend) => {
  const suite = useAuthSuite(backend, 'adminagents');

  async function signedIn(admin: boolean): Promise<{ id: number; client: Client }> {
    const agent = await createAgent(suite.db, { is_admin: admin });
    return { id: agent.id, client: await clientAs(suite, agent.id) };
  }

  const list = async (client: Client) => expectJson(await client.get('/api/admin/agents'), 200, agentList);

  /** The featured agent's id: the seeded one, or one made with the FEATURED_AGENT_* defaults. */
  async function featuredAgentId(): Promise<number> {
    const [existing] = await suite.db.query<{ id: number }>('SELECT id FROM agents WHERE slug = $1', [FEATURED.slug]);
    const id =
      existing?.id ??
      (
        await suite.db.query<{ id: number }>(
          `INSERT INTO agents (first_name, last_name, email, slug, status) VALUES ('Alex', 'Morgan', $1, $2, 'active')
           ON CONFLICT DO NOTHING RETURNING id`,
          [FEATURED.email, FEATURED.slug],
        )
      )[0]?.id;
    if (id === undefined) throw new Error('no featured agent');
    return id;
  }
  const statusOf = async (id: number) =>
    (await suite.db.query<{ status: string }>('SELECT status FROM agents WHERE id = $1', [id]))[0]?.status;

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

  describe('POST /api/admin/agents', () => {
    it('answers 401 signed out and 403 to an agent, adding nobody', async () => {
      const body = newAgentBody();
      await expectError(await suite.client().send('POST', '/api/admin/agents', body), 401, 'Please log in');
      const agent = await signedIn(false);
      await expectError(await agent.client.send('POST', '/api/admin/agents', body), 403, 'Admins only');
      const rows = await suite.db.query('SELECT id FROM agents WHERE slug = $1', [body.slug]);
      expect(rows).toHaveLength(0);
    });

    it('adds a pending agent whose e-mailed link sets their password and activates them', async () => {
      const admin = await signedIn(true);
      const body = newAgentBody({ email: `Robin.Mixed.${Date.now()}@Example.com`, phone: '5165550142' });
      const response = await admin.client.send('POST', '/api/admin/agents', body);
      const answer = await expectJson(response, 201, added);
      expect(answer.message).toBe('Agent added successfully.');
      expect(answer.agent).toMatchObject({ slug: body.slug, email: body.email.toLowerCase(), status: 'pending' });
      expect(answer.agent.is_admin).toBe(false);
      expect(await statusOf(answer.agent.id)).toBe('pending');

      // Not able to sign in before they have chosen a password.
      await expectError(
        await suite.client().post('/api/auth/login', { email: body.email, password: 'anything-at-all' }),
        401,
        'Invalid email or password',
      );
      await suite.settle();
      const token = lastLinkToken(suite.outbox, 'reset-password', body.email.toLowerCase());
      const reset = await suite
        .client()
        .post('/api/auth/reset-password', { token, password: 'a brand new passphrase' });
      expect(reset.status, await reset.clone().text()).toBe(200);
      expect(await statusOf(answer.agent.id)).toBe('active');
      const login = await suite
        .client()
        .post('/api/auth/login', { email: body.email, password: 'a brand new passphrase' });
      expect(login.status, await login.clone().text()).toBe(200);
      const [verified] = await suite.db.query<{ verified: boolean }>(
        'SELECT email_verified_at IS NOT NULL AS verified FROM agents WHERE id = $1',
        [answer.agent.id],
      );
      expect(verified?.verified).toBe(true);
    });

    it('refuses a taken e-mail or slug with the sign-up messages, adding nobody', async () => {
      const admin = await signedIn(true);
      const existing = await createAgent(suite.db);
      const byEmail = await expectError(
        await admin.client.send('POST', '/api/admin/agents', newAgentBody({ email: existing.email.toUpperCase() })),
        409,
        'Email already registered',
      );
      expect(byEmail.fields).toEqual({ email: 'Email already registered' });
      const bySlug = await expectError(
        await admin.client.send('POST', '/api/admin/agents', newAgentBody({ slug: existing.slug })),
        409,
        'Slug already taken',
      );
      expect(bySlug.fields).toEqual({ slug: 'Slug already taken' });
      await suite.settle();
      expect(suite.outbox.join('\n')).not.toContain('Your Long Island Net Proceeds agent account');
    });

    it('refuses malformed JSON, wrong types, missing and oversized fields by the sign-up rules', async () => {
      const admin = await signedIn(true);
      const post = (body: unknown, headers?: Record<string, string>) =>
        admin.client.send('POST', '/api/admin/agents', body, headers);
      await expectError(await post('{"first_name": '), 400, 'The request body is not valid JSON');
      await expectError(await post([newAgentBody()]), 400, 'The request body must be a JSON object');
      await expectError(await post(JSON.stringify(newAgentBody()), { 'content-type': 'text/plain' }), 415);
      await expectError(await post(JSON.stringify({ ...newAgentBody(), pad: 'x'.repeat(70_000) })), 413);
      expect((await expectError(await post(newAgentBody({ first_name: 7 })), 400)).fields).toEqual({
        first_name: 'First name is required',
      });
      expect((await expectError(await post(newAgentBody({ email: undefined })), 400)).fields).toEqual({
        email: 'Email is required',
      });
      expect((await expectError(await post(newAgentBody({ slug: 'Has Spaces' })), 400)).fields).toEqual({
        slug: 'Calculator address can only contain lowercase letters and numbers',
      });
      expect((await expectError(await post(newAgentBody({ last_name: 'x'.repeat(101) })), 400)).fields).toEqual({
        last_name: 'Last name must be at most 100 characters',
      });
      expect((await expectError(await post(newAgentBody({ phone: '123' })), 400)).fields).toEqual({
        phone: 'Phone number is invalid',
      });
    });
  });

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

  describe('POST /api/admin/agents/{id}/invitation', () => {
    const resend = (client: Client, id: number | string) =>
      client.request(`/api/admin/agents/${id}/invitation`, { method: 'POST', headers: { origin: suite.api.origin } });
    const invitationsTo = (email: string) =>
      suite.outbox.filter((line) => sentTo(line, email) && line.includes('/reset-password?token=')).length;

    it('sends the invitation again only when an admin asks, to an agent without a password, at most 5 an hour', async () => {
      const admin = await signedIn(true);
      const answer = await expectJson(await admin.client.send('POST', '/api/admin/agents', newAgentBody()), 201, added);
      expect(answer.agent.invitation_open).toBe(true);
      await suite.settle();
      const email = answer.agent.email;
      const first = lastLinkToken(suite.outbox, 'reset-password', email);

      // A visitor or an agent cannot make it mail anyone.
      await expectError(await resend(suite.client(), answer.agent.id), 401, 'Please log in');
      const agent = await signedIn(false);
      await expectError(await resend(agent.client, answer.agent.id), 403, 'Admins only');
      await suite.settle();
      const sentBefore = invitationsTo(email);

      const again = await expectJson(await resend(admin.client, answer.agent.id), 200, done);
      expect(again.message).toBe('Invitation sent again.');
      await suite.settle();
      expect(invitationsTo(email)).toBe(sentBefore + 1);
      const second = lastLinkToken(suite.outbox, 'reset-password', email);
      expect(second).not.toBe(first);
      // Only the newest link works.
      await expectError(
        await suite.client().post('/api/auth/reset-password', { token: first, password: 'brand-new-pass' }),
        400,
      );

      for (let sent = 1; sent < 5; sent += 1) await expectJson(await resend(admin.client, answer.agent.id), 200, done);
      const limited = await resend(admin.client, answer.agent.id);
      await expectError(limited, 429);
      expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);

      await expectError(await resend(admin.client, 2_000_000_000), 404, 'Agent not found');
    });

    it('refuses an agent who has chosen a password', async () => {
      const admin = await signedIn(true);
      const target = await createAgent(suite.db);
      await expectError(
        await resend(admin.client, target.id),
        409,
        'This agent has already chosen a password; they can use “Forgot password” on the login page.',
      );
    });
  });

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
