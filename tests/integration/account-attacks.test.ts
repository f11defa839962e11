/**
 * The account attacks of the security test of 2026-11-26 (issue 21, findings 1, 5, 6, 7 and 8),
 * each replayed over HTTP on both backends as the report did it, and the defences around them:
 * e-mail changes that wait for the new address's link (and can be undone from the old one),
 * admin grants only for a proven address and only once, an admin's pending that stands, logout
 * that ends its session on the server, login limits per account and client, and sign-up limits per
 * client.
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { profileSaveAnswerSchema } from '../../src/features/agents/profile.ts';
import { seed } from '../../src/app/seed.ts';
import { expectError, expectJson, expectTooMany } from '../support/api-suite.ts';
import {
  clientAs,
  createAccount,
  lastLinkToken,
  loggedIn,
  randomIp,
  sentTo,
  signupBody,
  useAuthSuite,
  type AuthSuite,
  type Client,
} from '../support/auth-suite.ts';
import { BACKENDS } from '../support/backends.ts';
import { createAgent } from '../support/fixtures.ts';
import { formOf, profileFields, putProfile } from '../support/images.ts';

const meResponse = z.object({
  success: z.literal(true),
  agent: z.object({ id: z.number(), email: z.string(), is_admin: z.boolean(), status: z.string() }).loose(),
});
const okResponse = z.object({ success: z.literal(true) }).loose();
const INVALID_LINK = 'This link is invalid or has already been used.';

async function me(client: Client) {
  return (await expectJson(await client.get('/api/auth/me'), 200, meResponse)).agent;
}

async function agentRow(suite: AuthSuite, id: number) {
  const [row] = await suite.db.query<{
    email: string;
    pending_email: string | null;
    verified_email: string | null;
    status: string;
    is_admin: boolean;
    session_version: number;
  }>(`SELECT email, pending_email, verified_email, status, is_admin, session_version FROM agents WHERE id = $1`, [id]);
  if (!row) throw new Error(`no agent ${id}`);
  return row;
}

/** The deploy's seed with ADMIN_EMAILS, as `npm start` and every build run it. */
const seedWithAdmins = (suite: AuthSuite, adminEmails: string[]) =>
  seed(suite.db, suite.test.featuredAgent, { demo: false, adminEmails });

/** Outbox lines (one per message) sent to `to`. */
const mailTo = (suite: AuthSuite, to: string) => suite.outbox.filter((line) => sentTo(line, to));

/** A profile save of the agent's details with `email`. */
async function changeEmail(suite: AuthSuite, client: Client, email: string) {
  const response = await putProfile(suite, client, formOf(profileFields({ email })));
  const body = await expectJson(response, 200, profileSaveAnswerSchema);
  await suite.settle();
  return body;
}

describe.each(BACKENDS)('account attacks of the 2026-11-26 report on %s', (backend) => {
  const suite = useAuthSuite(backend, 'acctattacks');

  describe('finding 1: an e-mail change waits for the new address, and admin needs a proven address', () => {
    it('the report: an agent who takes an ADMIN_EMAILS address is not an admin after the next seed', async () => {
      const owner = `owner.${randomIp()}@example.com`;
      const mallory = await createAccount(suite, { first_name: 'Mallory' });
      const session = await loggedIn(suite, mallory);
      await changeEmail(suite, session, owner);
      // The address is not hers: only pending, and the link went to the address itself.
      expect(await me(session)).toMatchObject({ email: mallory.email, is_admin: false });
      await seedWithAdmins(suite, [owner]);
      expect(await me(session)).toMatchObject({ email: mallory.email, is_admin: false });
      await expectError(await session.get('/api/admin/agents'), 403);
      expect(await agentRow(suite, mallory.id)).toMatchObject({ is_admin: false, pending_email: owner });
    });

    it('the new address confirms by its link; the old one is told and can undo it, which ends every session', async () => {
      const account = await createAccount(suite);
      const session = await loggedIn(suite, account);
      const newEmail = `moved.${randomIp()}@example.com`;
      suite.outbox.splice(0);
      const saved = await changeEmail(suite, session, newEmail.toUpperCase());
      expect(saved.email_change_sent_to).toBe(newEmail);
      expect(saved.profile).toMatchObject({ email: account.email, pending_email: newEmail });
      expect(mailTo(suite, newEmail)).toHaveLength(1);
      expect(mailTo(suite, account.email)).toHaveLength(1);
      // No text the agent typed reaches the new address (anyone may type any address).
      expect(mailTo(suite, newEmail)[0]).not.toContain('Dana');
      const confirm = lastLinkToken(suite.outbox, 'confirm-email-change', newEmail);
      const undo = lastLinkToken(suite.outbox, 'undo-email-change', account.email);
      // The links are bound to their purpose.
      await expectError(await suite.client().post('/api/auth/verify-email', { token: confirm }), 400, INVALID_LINK);
      await expectError(
        await suite.client().post('/api/auth/confirm-email-change', { token: undo }),
        400,
        INVALID_LINK,
      );

      const versionBefore = (await agentRow(suite, account.id)).session_version;
      await expectJson(
        await suite.client().post('/api/auth/confirm-email-change', { token: confirm }),
        200,
        okResponse,
      );
      expect(await agentRow(suite, account.id)).toMatchObject({
        email: newEmail,
        pending_email: null,
        verified_email: newEmail,
        session_version: versionBefore + 1,
      });
      await expectError(await session.get('/api/auth/me'), 401, 'Please log in');
      await expectError(
        await suite.client().post('/api/auth/confirm-email-change', { token: confirm }),
        400,
        INVALID_LINK,
      );
      const moved = await loggedIn(suite, { email: newEmail, password: account.password });

      // The old address's owner takes the account back.
      await expectJson(await suite.client().post('/api/auth/undo-email-change', { token: undo }), 200, okResponse);
      expect(await agentRow(suite, account.id)).toMatchObject({ email: account.email, pending_email: null });
      await expectError(await moved.get('/api/auth/me'), 401, 'Please log in');
      await expectError(await suite.client().post('/api/auth/undo-email-change', { token: undo }), 400, INVALID_LINK);
      await loggedIn(suite, account);
    });

    it('an undo before the confirmation cancels the pending change: its link no longer works', async () => {
      const account = await createAccount(suite);
      const session = await loggedIn(suite, account);
      const newEmail = `cancel.${randomIp()}@example.com`;
      await changeEmail(suite, session, newEmail);
      const confirm = lastLinkToken(suite.outbox, 'confirm-email-change', newEmail);
      const undo = lastLinkToken(suite.outbox, 'undo-email-change', account.email);
      await expectJson(await suite.client().post('/api/auth/undo-email-change', { token: undo }), 200, okResponse);
      await expectError(
        await suite.client().post('/api/auth/confirm-email-change', { token: confirm }),
        400,
        INVALID_LINK,
      );
      expect(await agentRow(suite, account.id)).toMatchObject({ email: account.email, pending_email: null });
    });

    it('finding 8: the save answers the same whether or not the address is taken, and a taken one cannot be confirmed', async () => {
      const owner = await createAccount(suite);
      const prober = await createAccount(suite);
      const session = await loggedIn(suite, prober);
      const free = `free.${randomIp()}@example.com`;
      suite.outbox.splice(0);
      const strip = (body: z.output<typeof profileSaveAnswerSchema>, address: string) =>
        JSON.stringify(body).replaceAll(address, 'ADDRESS');
      const takenAnswer = await changeEmail(suite, session, owner.email.toUpperCase());
      // The owner of the address is told; no confirmation link exists for it.
      expect(mailTo(suite, owner.email)).toHaveLength(1);
      expect(() => lastLinkToken(suite.outbox, 'confirm-email-change', owner.email)).toThrow();
      const freeAnswer = await changeEmail(suite, session, free);
      expect(strip(takenAnswer, owner.email)).toBe(strip(freeAnswer, free));
      expect(await agentRow(suite, owner.id)).toMatchObject({ email: owner.email });
      expect(await agentRow(suite, prober.id)).toMatchObject({ email: prober.email, pending_email: free });
    });

    it('a confirmation fails once another account has the address (nothing changes, the link is spent)', async () => {
      const account = await createAccount(suite);
      const session = await loggedIn(suite, account);
      const wanted = `race.${randomIp()}@example.com`;
      await changeEmail(suite, session, wanted);
      const confirm = lastLinkToken(suite.outbox, 'confirm-email-change', wanted);
      await createAgent(suite.db, { email: wanted });
      await expectError(
        await suite.client().post('/api/auth/confirm-email-change', { token: confirm }),
        409,
        'Another account uses this address now, so the change cannot be made.',
      );
      expect(await agentRow(suite, account.id)).toMatchObject({ email: account.email });
    });

    it('limits e-mail changes to 5 an hour per agent (each mails two addresses); over it nothing is written', async () => {
      const account = await createAccount(suite);
      const session = await loggedIn(suite, account);
      for (let attempt = 1; attempt <= 5; attempt += 1)
        await changeEmail(suite, session, `n${attempt}.${randomIp()}@example.com`);
      const sixth = `sixth.${randomIp()}@example.com`;
      await expectTooMany(
        await putProfile(suite, session, formOf(profileFields({ email: sixth, first_name: 'Six' }))),
        3600,
      );
      await suite.settle();
      expect(mailTo(suite, sixth)).toEqual([]);
      const row = await agentRow(suite, account.id);
      expect(row.pending_email).not.toBe(sixth);
      // Saves that keep the address are not counted.
      await changeEmail(suite, session, account.email);
    });

    it('admin is granted to a proven address only, once: a demoted admin stays demoted at the next seed', async () => {
      const listed = await createAccount(suite);
      const session = await loggedIn(suite, listed);
      // An agent holding a listed address they never proved (as an e-mail changed before the fix).
      const squatter = await createAgent(suite.db, { email: `squat.${randomIp()}@example.com` });
      await suite.db.query('UPDATE agents SET email_verified_at = now() WHERE id = $1', [squatter.id]);
      const first = await seedWithAdmins(suite, [listed.email, squatter.email]);
      expect(first.agentId).toBeGreaterThan(0);
      expect(await me(session)).toMatchObject({ is_admin: true });
      expect((await agentRow(suite, squatter.id)).is_admin).toBe(false);
      // An admin demotes them; the next build does not make them an admin again.
      await suite.db.query('UPDATE agents SET is_admin = false WHERE id = $1', [listed.id]);
      await seedWithAdmins(suite, [listed.email, squatter.email]);
      expect(await me(session)).toMatchObject({ is_admin: false });
      const grants = await suite.db.query<{ email: string }>('SELECT email FROM admin_grants WHERE email = ANY ($1)', [
        [listed.email, squatter.email],
      ]);
      expect(grants).toEqual([{ email: listed.email }]);
    });
  });

  describe("finding 5: an admin's pending status stands", () => {
    it('resend-verification, an old verify link and a password reset leave it pending', async () => {
      const admin = await clientAs(suite, (await createAgent(suite.db, { is_admin: true })).id);
      const carol = await createAccount(suite, { first_name: 'Carol' });
      const unused = await suite.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM auth_tokens WHERE agent_id = $1',
        [carol.id],
      );
      expect(unused[0]?.n).toBe(1);
      await expectJson(
        await admin.send('PATCH', `/api/admin/agents/${carol.id}`, { status: 'pending' }),
        200,
        okResponse,
      );
      suite.outbox.splice(0);
      // The report: resend-verification, then the link.
      await expectJson(
        await suite.client().post('/api/auth/resend-verification', { email: carol.email }),
        200,
        okResponse,
      );
      await suite.settle();
      expect(() => lastLinkToken(suite.outbox, 'verify-email', carol.email)).toThrow();
      expect((await agentRow(suite, carol.id)).status).toBe('pending');
      // A password reset sets the password and nothing else.
      await expectJson(await suite.client().post('/api/auth/forgot-password', { email: carol.email }), 200, okResponse);
      await suite.settle();
      const reset = lastLinkToken(suite.outbox, 'reset-password', carol.email);
      await expectJson(
        await suite.client().post('/api/auth/reset-password', { token: reset, password: 'carol-new-pass-1' }),
        200,
        okResponse,
      );
      expect((await agentRow(suite, carol.id)).status).toBe('pending');
      const login = await suite.client().post('/api/auth/login', { email: carol.email, password: 'carol-new-pass-1' });
      expect(login.status).toBe(403);
      // The admin's own change stands too.
      await expectJson(
        await admin.send('PATCH', `/api/admin/agents/${carol.id}`, { status: 'active' }),
        200,
        okResponse,
      );
      await loggedIn(suite, { email: carol.email, password: 'carol-new-pass-1' });
    });

    it("an admin's invitation still activates the account it made when its link is followed", async () => {
      const admin = await clientAs(suite, (await createAgent(suite.db, { is_admin: true })).id);
      const email = `invited.${randomIp()}@example.com`;
      const added = await admin.post('/api/admin/agents', {
        first_name: 'Ivy',
        last_name: 'Invited',
        email,
        slug: `ivy${Math.random().toString(36).slice(2, 10)}`,
      });
      expect(added.status, await added.clone().text()).toBe(201);
      await suite.settle();
      const token = lastLinkToken(suite.outbox, 'reset-password', email);
      await expectJson(
        await suite.client().post('/api/auth/reset-password', { token, password: 'ivy first passphrase' }),
        200,
        okResponse,
      );
      await loggedIn(suite, { email, password: 'ivy first passphrase' });
    });
  });

  describe('finding 6: logout ends that session on the server', () => {
    it('the report: the token of a logged-out session no longer works; the other sessions stay', async () => {
      const account = await createAccount(suite);
      const laptop = await loggedIn(suite, account);
      const phone = await loggedIn(suite, account);
      const copied = laptop.session ?? '';
      await expectJson(await laptop.post('/api/auth/logout'), 200, okResponse);
      const thief = suite.client();
      thief.session = copied;
      await expectError(await thief.get('/api/auth/me'), 401, 'Please log in');
      await expectError(await thief.get('/api/agents/profile'), 401, 'Please log in');
      await expectError(await thief.post('/api/auth/logout-everywhere'), 401, 'Please log in');
      expect(await me(phone)).toMatchObject({ id: account.id });
      // Logging out again with the ended token is harmless.
      await expectJson(await thief.post('/api/auth/logout'), 200, okResponse);
      expect(await me(phone)).toMatchObject({ id: account.id });
    });

    it('a session check stays one round trip, and logout one', async () => {
      const account = await createAccount(suite);
      const client = await loggedIn(suite, account);
      let before = suite.db.roundTrips;
      await me(client);
      expect(suite.db.roundTrips - before).toBe(1);
      before = suite.db.roundTrips;
      await expectJson(await client.post('/api/auth/logout'), 200, okResponse);
      expect(suite.db.roundTrips - before).toBe(1);
    });
  });

  describe('finding 7: a stranger cannot lock an owner out', () => {
    it('the report: ten wrong passwords from one client slow that client only; the owner logs in from theirs', async () => {
      const account = await createAccount(suite);
      const stranger = randomIp();
      for (let attempt = 1; attempt <= 10; attempt += 1) {
        const response = await suite
          .client({ ip: stranger })
          .post('/api/auth/login', { email: account.email, password: 'attacker-guess' });
        expect(response.status).toBe(401);
      }
      await expectTooMany(
        await suite
          .client({ ip: stranger })
          .post('/api/auth/login', { email: account.email, password: account.password }),
        15 * 60,
      );
      // The same address in another case is the same account.
      await expectTooMany(
        await suite
          .client({ ip: stranger })
          .post('/api/auth/login', { email: ` ${account.email.toUpperCase()}`, password: account.password }),
        15 * 60,
      );
      await loggedIn(suite, account);
    });
  });

  describe('finding 8: sign-up cannot test addresses in bulk', () => {
    it('a client gets 10 sign-up answers an hour, "Email already registered" included', async () => {
      const registered = await createAccount(suite);
      const ip = randomIp();
      for (let attempt = 1; attempt <= 10; attempt += 1) {
        const probe = await suite.client({ ip }).post('/api/auth/signup', signupBody({ email: registered.email }));
        await expectError(probe, 409, 'Email already registered');
      }
      await expectTooMany(
        await suite.client({ ip }).post('/api/auth/signup', signupBody({ email: registered.email })),
        3600,
      );
      await expectError(
        await suite.client().post('/api/auth/signup', signupBody({ email: registered.email })),
        409,
        'Email already registered',
      );
    });
  });
});
