/**
 * The admin adding an agent over real HTTP, on both backends: POST /api/admin/agents (a pending
 * agent whose e-mailed link sets a password and activates them, duplicates and bad input refused
 * by the sign-up rules) and POST /api/admin/agents/{id}/invitation (sent again only on an admin's
 * asking, limited); signed out (401), as an agent (403) and as an admin.
 */
import { describe, expect, it } from 'vitest';
import { expectError, expectJson } from '../support/api-suite.ts';
import { added, done, newAgentBody, useAdminAgentsSuite } from '../support/admin-agents-suite.ts';
import { lastLinkToken, sentTo, type Client } from '../support/auth-suite.ts';
import { BACKENDS } from '../support/backends.ts';
import { createAgent } from '../support/fixtures.ts';

describe.each(BACKENDS)('the admin’s agents on %s', (backend) => {
  const { suite, signedIn, statusOf } = useAdminAgentsSuite(backend);
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
});
