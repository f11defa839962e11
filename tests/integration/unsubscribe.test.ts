/**
 * Unsubscribing, over real HTTP on both backends: every kind of e-mail carries the recipient's
 * unsubscribe link (footer) and RFC 8058 headers; the one-click POST of a mail client and the
 * page's JSON POST record the address; a bad token is refused; GET changes nothing; and after
 * unsubscribing, lead notices to the address are suppressed while e-mail the person asks for is
 * still sent.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import type { ProviderMessage } from '../../src/features/email/public/email.server.ts';
import { INVALID_UNSUBSCRIBE_LINK } from '../../src/features/email/unsubscribe.ts';
import { anyNumber, expectError, expectJson } from '../support/api-suite.ts';
import { signupBody } from '../support/auth-suite.ts';
import { createEstimate } from '../support/estimates.ts';
import { BACKENDS } from '../support/backends.ts';
import {
  deliveriesOfLead,
  recordingProvider,
  TEST_SITE_URL,
  useEmailSuite,
  type DeliveryRow,
} from '../support/email-suite.ts';
import { createAgent } from '../support/fixtures.ts';
import { leadResponse } from '../support/schemas.ts';

const API_PATH = '/api/email/unsubscribe';
const ONE_CLICK_BODY = 'List-Unsubscribe=One-Click';

const unsubscribeAnswer = z.strictObject({
  success: z.literal(true),
  email: z.string(),
  subscribed: z.boolean(),
});

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const PAGE_LINK = new RegExp(`${escapeRegExp(TEST_SITE_URL)}/unsubscribe\\?token=([A-Za-z0-9_.%-]+)`);
const HEADER_LINK = new RegExp(`^<${escapeRegExp(TEST_SITE_URL)}${API_PATH}\\?token=([A-Za-z0-9_.%-]+)>$`);

/** The footer link and header of a sent message, checked for shape; answers the token. */
function unsubscribeTokenOf(message: ProviderMessage): string {
  const inText = PAGE_LINK.exec(message.text)?.[1];
  const inHtml = PAGE_LINK.exec(message.html)?.[1];
  const inHeader = HEADER_LINK.exec(message.headers['List-Unsubscribe'] ?? '')?.[1];
  expect(inText, `an unsubscribe link in the text of "${message.subject}"`).toBeDefined();
  expect(inHtml, `an unsubscribe link in the html of "${message.subject}"`).toBe(inText);
  expect(message.html).toContain('>Unsubscribe</a>');
  expect(inHeader, `a List-Unsubscribe header on "${message.subject}"`).toBe(inText);
  expect(message.headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
  return decodeURIComponent(inText ?? '');
}

describe.each(BACKENDS)('unsubscribe on %s', (backend) => {
  const suite = useEmailSuite(backend, 'unsubscribe');

  const newEstimate = (agentSlug?: string) => createEstimate(suite.api, agentSlug);

  /** As the estimate page asks: the visitor's lead for the estimate, then the e-mail. */
  const sendEstimate = async (estimateUuid: string, to: string) => {
    const lead = { name: 'Dana Lopez', email: to, consent_marketing: true, estimate_uuid: estimateUuid };
    await expectJson(await suite.api.postJson('/api/leads', lead), 201, leadResponse);
    const response = await suite.api.postJson('/api/email/send-estimate', {
      estimate_uuid: estimateUuid,
      recipient_email: to,
      recipient_name: 'Dana Lopez',
    });
    expect(response.status).toBe(202);
    await suite.settle();
  };

  /** A lead on `agentId`'s page: the agent gets a new-lead notice. */
  /** Each lead from a new visitor: a repeat of the same visitor within minutes is the same lead. */
  const postLead = async (agentId: number, visitor = `chris.${randomUUID()}@example.com`) => {
    const result = await expectJson(
      await suite.api.postJson('/api/leads', {
        agent_id: agentId,
        first_name: 'Chris',
        last_name: 'Nguyen',
        email: visitor,
        phone: '631-555-0199',
        consent_marketing: true,
      }),
      201,
      leadResponse,
    );
    await suite.settle();
    return result.lead.id;
  };

  /** A new agent and the token of the unsubscribe link in the first lead notice they got. */
  const agentWithToken = async () => {
    const recording = recordingProvider();
    suite.useProvider(recording);
    const agent = await createAgent(suite.db);
    await postLead(agent.id);
    const notice = recording.sent.find((message) => message.to.email === agent.email);
    if (!notice) throw new Error('no lead notice was sent');
    return { agent, token: unsubscribeTokenOf(notice), recording };
  };

  const suppressionOf = async (email: string) =>
    suite.db.query<{ email: string; method: string; created_at: Date }>(
      'SELECT email, method, created_at FROM email_suppressions WHERE email = $1',
      [email],
    );

  /** The one-click request a mail client sends: form body, no cookie, no Origin. */
  const oneClick = (token: string, body: BodyInit = ONE_CLICK_BODY, headers: Record<string, string> = {}) =>
    suite.api.fetch(`${API_PATH}?token=${encodeURIComponent(token)}`, {
      method: 'POST',
      headers: body instanceof FormData ? headers : { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body,
    });

  it('every kind of e-mail (estimate, new lead, verification, reset) carries its unsubscribe link in html and text and both List-Unsubscribe headers', async () => {
    const recording = recordingProvider();
    suite.useProvider(recording);
    const estimate = await newEstimate();
    await sendEstimate(estimate.uuid, 'dana.lopez@example.com');
    const agent = await createAgent(suite.db);
    await postLead(agent.id);
    const account = signupBody();
    expect((await suite.api.postJson('/api/auth/signup', account)).status).toBe(201);
    await suite.settle();
    expect((await suite.api.postJson('/api/auth/forgot-password', { email: account.email })).status).toBe(200);
    await suite.settle();

    const bySubject = (pattern: RegExp) => {
      const message = recording.sent.find((sent) => pattern.test(sent.subject));
      if (!message)
        throw new Error(`no e-mail matching ${pattern}: ${recording.sent.map((m) => m.subject).join(', ')}`);
      return message;
    };
    const kinds = [
      { message: bySubject(/^Your estimated net proceeds/), to: 'dana.lopez@example.com' },
      { message: bySubject(/^New lead: Chris Nguyen/), to: agent.email },
      { message: bySubject(/^Verify your email/), to: account.email },
      { message: bySubject(/^Reset your .* password/), to: account.email },
    ];
    for (const { message, to } of kinds) {
      expect(message.to.email).toBe(to);
      const token = unsubscribeTokenOf(message);
      // Each link is the recipient's own: it unsubscribes exactly that address.
      const answer = await expectJson(await suite.api.postJson(API_PATH, { token }), 200, unsubscribeAnswer);
      expect(answer.email).toBe(to.toLowerCase());
      expect(message.text).toMatch(/Unsubscribe: https:\/\/homes\.example\.com\/unsubscribe\?token=\S+\n$/);
      expect(message.html).toMatch(/Unsubscribe<\/a><\/p>\n<\/body><\/html>$/);
    }
  });

  it('the one-click POST of a mail client (form body, no Origin, no cookie) records the address, once', async () => {
    const { agent, token } = await agentWithToken();
    const before = Date.now();
    const first = await expectJson(await oneClick(token), 200, unsubscribeAnswer);
    expect(first).toEqual({ success: true, email: agent.email, subscribed: false });
    const again = await expectJson(await oneClick(token), 200, unsubscribeAnswer);
    expect(again).toEqual(first);
    const rows = await suppressionOf(agent.email);
    expect(rows.map(({ email, method }) => ({ email, method }))).toEqual([{ email: agent.email, method: 'one_click' }]);
    expect(rows[0]?.created_at.getTime()).toBeGreaterThan(before - 60_000);
  });

  it('the one-click POST may come as multipart/form-data, and a wrong body is refused', async () => {
    const { agent, token } = await agentWithToken();
    await expectError(
      await oneClick(token, 'List-Unsubscribe=Yes'),
      400,
      'Send List-Unsubscribe=One-Click as the form body',
    );
    expect(await suppressionOf(agent.email)).toEqual([]);
    const form = new FormData();
    form.set('List-Unsubscribe', 'One-Click');
    await expectJson(await oneClick(token, form), 200, unsubscribeAnswer);
    expect((await suppressionOf(agent.email)).map((row) => row.method)).toEqual(['one_click']);
  });

  it("the page's JSON POST records the address (how: page), and DELETE (Undo) subscribes it again", async () => {
    const { agent, token } = await agentWithToken();
    const answer = await expectJson(await suite.api.postJson(API_PATH, { token }), 200, unsubscribeAnswer);
    expect(answer).toEqual({ success: true, email: agent.email, subscribed: false });
    expect((await suppressionOf(agent.email)).map((row) => row.method)).toEqual(['page']);
    const undo = await suite.api.fetch(API_PATH, {
      method: 'DELETE',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token }),
    });
    expect(await expectJson(undo, 200, unsubscribeAnswer)).toEqual({
      success: true,
      email: agent.email,
      subscribed: true,
    });
    expect(await suppressionOf(agent.email)).toEqual([]);
  });

  it('a bad token answers 400 with a clear message and records nothing', async () => {
    const { agent, token } = await agentWithToken();
    const [payload = '', signature = ''] = token.split('.');
    const otherPayload = Buffer.from('someone.else@example.com').toString('base64url');
    const flipped = `${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`;
    for (const bad of [`${payload}.${flipped}`, `${otherPayload}.${signature}`, 'not-a-token', '']) {
      const body = await expectError(await suite.api.postJson(API_PATH, { token: bad }), 400, INVALID_UNSUBSCRIBE_LINK);
      expect(body.fields).toEqual({ token: INVALID_UNSUBSCRIBE_LINK });
      await expectError(await oneClick(bad), 400, INVALID_UNSUBSCRIBE_LINK);
    }
    await expectError(await suite.api.postJson(API_PATH, {}), 400, INVALID_UNSUBSCRIBE_LINK);
    const [count] = await suite.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM email_suppressions WHERE email IN ($1, 'someone.else@example.com')",
      [agent.email],
    );
    expect(count?.n).toBe(0);
  });

  it('GET (a link scanner, or a person opening the header URL) changes nothing and leads to the page', async () => {
    const { agent, token } = await agentWithToken();
    const response = await suite.api.fetch(`${API_PATH}?token=${encodeURIComponent(token)}`, { redirect: 'manual' });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(`/unsubscribe?token=${encodeURIComponent(token)}`);
    expect(await suppressionOf(agent.email)).toEqual([]);
  });

  it('after unsubscribing, a lead notice to the agent is not sent (suppressed, provider never called) but the lead is saved', async () => {
    const { agent, token, recording } = await agentWithToken();
    await expectJson(await oneClick(token), 200, unsubscribeAnswer);
    const sentBefore = recording.sent.length;
    const leadId = await postLead(agent.id, 'robin.baker@example.com');
    const rows = await deliveriesOfLead(suite.db, leadId);
    expect(rows).toEqual([
      expect.objectContaining<Partial<DeliveryRow>>({
        kind: 'new_lead',
        to_email: agent.email,
        status: 'suppressed',
        provider: null,
        attempts: 0,
        sent_at: null,
        lead_id: leadId,
      }),
    ]);
    expect(recording.sent.slice(sentBefore)).toEqual([]);
    const [lead] = await suite.db.query<{ id: number }>('SELECT id FROM leads WHERE id = $1', [leadId]);
    expect(lead).toEqual({ id: anyNumber() });
  });

  it('after unsubscribing, an estimate the person asks for is still sent', async () => {
    const recording = recordingProvider();
    suite.useProvider(recording);
    const estimate = await newEstimate();
    const visitor = 'Sam.Ortiz@Example.com';
    await sendEstimate(estimate.uuid, visitor);
    const first = recording.sent.find((message) => message.to.email === visitor);
    if (!first) throw new Error('the first estimate e-mail was not sent');
    await expectJson(await suite.api.postJson(API_PATH, { token: unsubscribeTokenOf(first) }), 200, unsubscribeAnswer);
    expect((await suppressionOf('sam.ortiz@example.com')).map((row) => row.method)).toEqual(['page']);

    await sendEstimate(estimate.uuid, visitor);
    expect(recording.sent.filter((message) => message.to.email === visitor)).toHaveLength(2);
  });

  it('an address unsubscribed in other letter case is still suppressed', async () => {
    const { agent, token, recording } = await agentWithToken();
    await expectJson(await suite.api.postJson(API_PATH, { token }), 200, unsubscribeAnswer);
    await suite.db.query('UPDATE agents SET email = upper(email) WHERE id = $1', [agent.id]);
    const sentBefore = recording.sent.length;
    const leadId = await postLead(agent.id);
    expect((await deliveriesOfLead(suite.db, leadId)).map((row) => [row.to_email, row.status])).toEqual([
      [agent.email.toUpperCase(), 'suppressed'],
    ]);
    expect(recording.sent.slice(sentBefore)).toEqual([]);
  });
});
