/**
 * E-mail over real HTTP, on both backends: POST /api/email/send-estimate, the e-mails a lead
 * queues, delivery after the response, and the delivery queue itself (retries, backoff, failure,
 * concurrent workers). The provider is the real outbox unless a test swaps in a fake of an outside
 * provider.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import {
  CLAIM_LEASE_MINUTES,
  MAX_ATTEMPTS,
  queueEmail,
  queueEmails,
  type OutgoingEmail,
} from '../../src/features/email/email.server.ts';
import { deliverQueued } from '../../src/features/email/email-delivery.server.ts';
import { createEstimate } from '../support/estimates.ts';
import { detailedEstimateAnswerSchema } from '../../src/features/net-sheet/sheet-answer.ts';
import { escapeHtml } from '../../src/features/email/html.ts';
import { BACKENDS } from '../support/backends.ts';
import { anyNumber, anyString, expectError, expectJson } from '../support/api-suite.ts';
import {
  countDeliveries,
  deliveriesOfLead,
  deliveryById,
  failingProvider,
  heldProvider,
  recordingProvider,
  TEST_DELIVERY,
  TEST_FROM,
  TEST_SITE_URL,
  useEmailSuite,
} from '../support/email-suite.ts';
import { countRows, createAgent, leadById } from '../support/fixtures.ts';
import { leadResponse } from '../support/schemas.ts';

const SEND = '/api/email/send-estimate';
const GENERIC_500 = 'Something went wrong on our side. Please try again.';

const sendEstimateResponse = z.strictObject({
  success: z.literal(true),
  message: z.literal('Your estimate has been sent to your email!'),
  delivery_id: z.number().int().positive(),
});

describe.each(BACKENDS)('e-mail on %s', (backend) => {
  const suite = useEmailSuite(backend, 'email');

  const newEstimate = (agentSlug?: string) => createEstimate(suite.api, agentSlug);

  /** Runs `work` with a CHECK on email_deliveries that refuses mail to `address`. */
  async function withRefusedAddress(address: string, work: () => Promise<void>): Promise<void> {
    await suite.db.query(
      `ALTER TABLE email_deliveries ADD CONSTRAINT test_refused_address CHECK (to_email <> '${address}')`,
    );
    try {
      await work();
    } finally {
      await suite.db.query('ALTER TABLE email_deliveries DROP CONSTRAINT test_refused_address');
    }
  }

  describe('POST /api/email/send-estimate', () => {
    let visitors = 0;
    /**
     * The estimate page's flow: the visitor leaves their details for the estimate (POST /api/leads)
     * before it is sent; answers the visitor's e-mail (one of its own, so no test shares a cap).
     * The lead's notice to the agent is delivered and its printed lines cleared.
     */
    const leaveDetails = async (estimateUuid: string) => {
      visitors += 1;
      const email = `dana.lopez+${visitors}@example.com`;
      const lead = { name: 'Dana Lopez', email, estimate_uuid: estimateUuid, consent_marketing: true };
      await expectJson(await suite.api.postJson('/api/leads', lead), 201, leadResponse);
      await suite.settle();
      suite.outbox.length = 0;
      return email;
    };

    // Issue 22, part F: a sheet's warnings were on the web page only; the mailed estimate and its
    // PDF carry them too (decision 0044).
    it("mails a detailed estimate's warnings above its lines, in html and text", async () => {
      const { estimate } = await expectJson(
        await suite.api.postJson('/api/estimates', {
          agent_slug: 'alexmorgan',
          sale_price: 600000,
          mortgage_payoff: 250000,
          details: { county: 'Nassau', seller_concessions: 72000 },
        }),
        201,
        detailedEstimateAnswerSchema,
      );
      const warning = estimate.sheet?.warnings[0]?.text ?? 'missing';
      expect(warning).toContain('Seller concessions are 12% of the price');
      const email = await leaveDetails(estimate.uuid);
      const body = await expectJson(
        await suite.api.postJson(SEND, {
          estimate_uuid: estimate.uuid,
          recipient_email: email,
          recipient_name: 'Dana',
        }),
        202,
        sendEstimateResponse,
      );
      await suite.settle();
      const row = await deliveryById(suite.db, body.delivery_id);
      expect(row?.text).toContain(`Please check:\n- ${warning}`);
      expect(row?.html).toContain(escapeHtml(warning));
      expect((row?.text ?? '').indexOf(warning)).toBeLessThan((row?.text ?? '').indexOf('Sale price'));
    });

    it('queues the estimate, answers 202 at once and sends it through the outbox after the response', async () => {
      const estimate = await newEstimate();
      const email = await leaveDetails(estimate.uuid);
      const response = await suite.api.postJson(SEND, {
        estimate_uuid: estimate.uuid,
        recipient_email: ` ${email} `,
        recipient_name: '  Dana Lopez ',
      });
      const body = await expectJson(response, 202, sendEstimateResponse);
      await suite.settle();
      const row = await deliveryById(suite.db, body.delivery_id);
      expect(row).toMatchObject({
        kind: 'estimate',
        to_email: email,
        // The typed name is checked but not mailed: the product's words only (finding 2).
        to_name: null,
        subject: 'Your estimated net proceeds: $279,341.00',
        status: 'sent',
        provider: 'outbox',
        attempts: 1,
        last_error: null,
        provider_message_id: anyString(),
        lead_id: null,
        estimate_uuid: estimate.uuid,
      });
      expect(row?.sent_at).toBeInstanceOf(Date);
      for (const part of [row?.html ?? '', row?.text ?? '']) {
        expect(part).not.toContain('Dana Lopez');
        for (const expected of [
          '$780,200.00',
          '$450,000.00',
          'Commission (6%)',
          '$46,812.00',
          '$3,122.00',
          '$750.00',
          '$175.00',
          '$279,341.00',
          `${TEST_SITE_URL}/estimate/${estimate.uuid}`,
          'Alex Morgan',
          '(631) 555-0142',
          'alex.morgan@example.com',
        ]) {
          expect(part).toContain(expected);
        }
      }
      expect(suite.outbox).toHaveLength(1);
      const printed = suite.outbox[0] ?? '';
      expect(printed).not.toContain('Dana Lopez');
      expect(printed).toContain(`to ${email}`);
      expect(printed).toContain(`from "${TEST_FROM.name}" <${TEST_FROM.email}>`);
      expect(printed).toContain('Subject: Your estimated net proceeds: $279,341.00');
      expect(printed).toContain(row?.text ?? 'missing');
    });

    it('answers before the provider has sent anything', async () => {
      const held = heldProvider();
      const estimate = await newEstimate();
      const email = await leaveDetails(estimate.uuid);
      suite.useProvider(held);
      const body = await expectJson(
        await suite.api.postJson(SEND, {
          estimate_uuid: estimate.uuid,
          recipient_email: email,
          recipient_name: 'Dana',
        }),
        202,
        sendEstimateResponse,
      );
      expect((await deliveryById(suite.db, body.delivery_id))?.kind).toBe('estimate');
      held.release();
      await suite.settle();
      expect(held.started).toBe(1);
      expect(await deliveryById(suite.db, body.delivery_id)).toMatchObject({ status: 'sent', provider: 'held-fake' });
    });

    it('puts the typed name nowhere in the e-mail (finding 2)', async () => {
      const estimate = await newEstimate();
      const email = await leaveDetails(estimate.uuid);
      const name = `Dana O'Neil-Lopez`;
      const body = await expectJson(
        await suite.api.postJson(SEND, { estimate_uuid: estimate.uuid, recipient_email: email, recipient_name: name }),
        202,
        sendEstimateResponse,
      );
      const row = await deliveryById(suite.db, body.delivery_id);
      expect(row?.html).not.toContain(name);
      expect(row?.html).not.toContain('Dana O&#39;Neil-Lopez');
      expect(row?.text).not.toContain(name);
      expect(row?.text).toContain("Hello, here's your estimated net proceeds:");
      expect(row?.to_name).toBeNull();
    });

    it("uses the estimate's own agent in the e-mail", async () => {
      const agent = await createAgent(suite.db, { first_name: 'Jamie', last_name: 'Rivera', phone: '5165550100' });
      const estimate = await newEstimate(agent.slug);
      const email = await leaveDetails(estimate.uuid);
      const body = await expectJson(
        await suite.api.postJson(SEND, {
          estimate_uuid: estimate.uuid.toUpperCase(),
          recipient_email: email,
          recipient_name: 'Dana',
        }),
        202,
        sendEstimateResponse,
      );
      const row = await deliveryById(suite.db, body.delivery_id);
      expect(row?.estimate_uuid).toBe(estimate.uuid);
      expect(row?.text).toContain('Jamie Rivera');
      expect(row?.text).toContain('(516) 555-0100');
      expect(row?.text).toContain(agent.email);
      expect(row?.text).not.toContain('Alex Morgan');
    });

    it('answers 404 "Estimate not found" for an estimate nobody has, and queues nothing', async () => {
      const before = await countDeliveries(suite.db);
      const body = await expectError(
        await suite.api.postJson(SEND, {
          estimate_uuid: randomUUID(),
          recipient_email: 'dana@example.com',
          recipient_name: 'Dana',
        }),
        404,
        'Estimate not found',
      );
      expect(body.fields).toEqual({ estimate_uuid: 'Estimate not found' });
      expect(await countDeliveries(suite.db)).toBe(before);
    });

    const valid = { estimate_uuid: '', recipient_email: 'dana@example.com', recipient_name: 'Dana Lopez' };
    it.each([
      ['estimate_uuid is missing', { estimate_uuid: undefined }, 'estimate_uuid', 'Estimate id is required'],
      ['estimate_uuid is a number', { estimate_uuid: 5 }, 'estimate_uuid', 'Estimate id is required'],
      ['estimate_uuid is malformed', { estimate_uuid: 'not-a-uuid' }, 'estimate_uuid', 'Estimate id is not valid'],
      [
        'estimate_uuid has extra characters',
        { estimate_uuid: `${randomUUID()}x` },
        'estimate_uuid',
        'Estimate id is not valid',
      ],
      ['recipient_email is missing', { recipient_email: undefined }, 'recipient_email', 'Email is required'],
      ['recipient_email is blank', { recipient_email: '  ' }, 'recipient_email', 'Email is required'],
      ['recipient_email is a list', { recipient_email: ['a@example.com'] }, 'recipient_email', 'Email is required'],
      [
        'recipient_email is invalid',
        { recipient_email: 'dana.example.com' },
        'recipient_email',
        'Please enter a valid email address',
      ],
      [
        'recipient_email has no domain',
        { recipient_email: 'dana@' },
        'recipient_email',
        'Please enter a valid email address',
      ],
      [
        'recipient_email is too long',
        { recipient_email: `${'e'.repeat(243)}@example.com` },
        'recipient_email',
        'Email is too long',
      ],
      ['recipient_name is missing', { recipient_name: undefined }, 'recipient_name', 'Name is required'],
      ['recipient_name is blank', { recipient_name: '   ' }, 'recipient_name', 'Name is required'],
      ['recipient_name is null', { recipient_name: null }, 'recipient_name', 'Name is required'],
      ['recipient_name is a number', { recipient_name: 42 }, 'recipient_name', 'Name is required'],
      [
        'recipient_name is too long',
        { recipient_name: 'N'.repeat(101) },
        'recipient_name',
        'Name must be at most 100 characters',
      ],
    ])('answers 400 when %s, and queues nothing', async (_label, change, field, message) => {
      const estimate = await newEstimate();
      const before = await countDeliveries(suite.db);
      const body = await expectError(
        await suite.api.postJson(SEND, { ...valid, estimate_uuid: estimate.uuid, ...change }),
        400,
        message,
      );
      expect(body.fields).toEqual({ [field]: message });
      expect(await countDeliveries(suite.db)).toBe(before);
    });

    it('accepts a name of exactly 100 characters', async () => {
      const estimate = await newEstimate();
      const email = await leaveDetails(estimate.uuid);
      const body = await expectJson(
        await suite.api.postJson(SEND, {
          estimate_uuid: estimate.uuid,
          recipient_email: email,
          recipient_name: 'N'.repeat(100),
        }),
        202,
        sendEstimateResponse,
      );
      expect((await deliveryById(suite.db, body.delivery_id))?.kind).toBe('estimate');
    });

    it('refuses bodies that are not a JSON object, and queues nothing', async () => {
      const before = await countDeliveries(suite.db);
      const post = (body: string, contentType = 'application/json') =>
        suite.api.fetch(SEND, { method: 'POST', headers: { 'content-type': contentType }, body });
      await expectError(await post('{"estimate_uuid":'), 400, 'The request body is not valid JSON');
      await expectError(await post('[]'), 400, 'The request body must be a JSON object');
      await expectError(await post('"text"'), 400, 'The request body must be a JSON object');
      await expectError(
        await post('{}', 'text/plain'),
        415,
        'Send the request body as JSON (Content-Type: application/json)',
      );
      await expectError(await post('x'.repeat(70 * 1024)), 413, 'The request body is larger than 64 KB');
      expect(await countDeliveries(suite.db)).toBe(before);
    });

    it.each(['GET', 'PUT', 'DELETE', 'PATCH'])('%s answers 405 with Allow: POST', async (method) => {
      const response = await suite.api.fetch(SEND, { method });
      expect(response.headers.get('allow')).toBe('POST');
      await expectError(response, 405, `${method} is not allowed here; use POST`);
    });

    it('makes 3 round trips to queue (estimate and lead, counters, delivery row) and 4 to deliver the first copy', async () => {
      const estimate = await newEstimate();
      const email = await leaveDetails(estimate.uuid);
      const before = suite.db.roundTrips;
      await expectJson(
        await suite.api.postJson(SEND, { ...valid, estimate_uuid: estimate.uuid, recipient_email: email }),
        202,
        sendEstimateResponse,
      );
      await suite.settle();
      // The third to deliver reads the estimate, its agent, the disclaimer and any stored PDF; this
      // estimate's first PDF is made then and stored by a fourth (decision 0036), later copies reuse it.
      expect(suite.db.roundTrips - before).toBe(7);
    });

    it('answers 500 when the e-mail cannot be queued, since sending it is the point', async () => {
      const estimate = await newEstimate();
      const email = await leaveDetails(estimate.uuid);
      const before = await countDeliveries(suite.db);
      await withRefusedAddress(email, async () => {
        const response = await suite.api.postJson(SEND, {
          ...valid,
          estimate_uuid: estimate.uuid,
          recipient_email: email,
        });
        const body = await expectError(response, 500, GENERIC_500);
        expect(body.fields).toEqual({});
      });
      expect(suite.logged.splice(0)).toHaveLength(1);
      expect(await countDeliveries(suite.db)).toBe(before);
    });
  });

  describe('POST /api/leads', () => {
    const postLead = async (body: Record<string, unknown>) => {
      const result = await expectJson(await suite.api.postJson('/api/leads', body), 201, leadResponse);
      expect(result).toMatchObject({
        success: true,
        lead: { id: anyNumber(), created_at: anyString() },
        fub_sync_status: 'no_integration',
      });
      return result.lead.id;
    };

    const contactForm = {
      agent_slug: 'alexmorgan',
      firstName: 'Dana',
      lastName: 'Lopez',
      phone: '(516) 555-0123',
      email: 'dana.lopez@example.com',
      address: '12 Elm Street, Garden City, NY 11530',
      source: 'nassau_county_page',
      consent_marketing: true,
    };

    const agentPageForm = (agentId: number, estimateUuid?: string) => ({
      agent_id: agentId,
      first_name: 'Chris',
      last_name: 'Nguyen',
      email: 'chris.nguyen@example.com',
      phone: '631-555-0199',
      address: '7 Bay Road, Huntington, NY 11743',
      consent_marketing: true,
      ...(estimateUuid ? { estimate_uuid: estimateUuid } : {}),
    });

    it('a contact-form lead sends the agent a new-lead notice', async () => {
      const leadId = await postLead(contactForm);
      await suite.settle();
      const rows = await deliveriesOfLead(suite.db, leadId);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        kind: 'new_lead',
        to_email: 'alex.morgan@example.com',
        to_name: 'Alex Morgan',
        subject: 'New lead: Dana Lopez',
        status: 'sent',
        provider: 'outbox',
        attempts: 1,
        lead_id: leadId,
        estimate_uuid: null,
      });
      for (const expected of [
        'Dana Lopez',
        'dana.lopez@example.com',
        '(516) 555-0123',
        '12 Elm Street, Garden City, NY 11530',
        'Nassau County page',
      ]) {
        expect(rows[0]?.html).toContain(expected);
        expect(rows[0]?.text).toContain(expected);
      }
      expect(suite.outbox).toHaveLength(1);
      expect(suite.outbox[0]).toContain('to "Alex Morgan" <alex.morgan@example.com>');
    });

    it("an agent-page lead with an estimate e-mails the visitor the estimate and notifies the estimate's agent", async () => {
      const agent = await createAgent(suite.db, { first_name: 'Jamie', last_name: 'Rivera' });
      const estimate = await newEstimate(agent.slug);
      const leadId = await postLead(agentPageForm(suite.test.featuredAgent.id, estimate.uuid));
      await suite.settle();
      const rows = await deliveriesOfLead(suite.db, leadId);
      expect(rows.map((row) => [row.kind, row.to_email, row.to_name, row.status, row.estimate_uuid])).toEqual([
        ['new_lead', agent.email, 'Jamie Rivera', 'sent', estimate.uuid],
        ['estimate', 'chris.nguyen@example.com', null, 'sent', estimate.uuid],
      ]);
      const [notice, toVisitor] = rows;
      expect(notice?.text).toContain('Chris Nguyen');
      expect(notice?.text).toContain('$279,341.00');
      expect(notice?.text).toContain(`${TEST_SITE_URL}/estimate/${estimate.uuid}`);
      expect(toVisitor?.subject).toBe('Your estimated net proceeds: $279,341.00');
      expect(toVisitor?.html).toContain('$279,341.00');
      expect(toVisitor?.text).not.toContain('Chris Nguyen');
      expect(toVisitor?.text).toContain('Jamie Rivera');
      expect(suite.outbox).toHaveLength(2);
    });

    it('an agent-page lead without an estimate only notifies the agent', async () => {
      const agent = await createAgent(suite.db);
      const leadId = await postLead(agentPageForm(agent.id));
      await suite.settle();
      const rows = await deliveriesOfLead(suite.db, leadId);
      expect(rows.map((row) => [row.kind, row.to_email, row.status])).toEqual([['new_lead', agent.email, 'sent']]);
    });

    it("an estimate-page lead notifies the estimate's agent with the message and the estimate", async () => {
      const estimate = await newEstimate();
      const leadId = await postLead({
        name: 'Robin Q Baker',
        email: 'robin@example.com',
        message: 'Please call me after 5pm.',
        estimate_uuid: estimate.uuid,
        consent_marketing: true,
      });
      await suite.settle();
      const rows = await deliveriesOfLead(suite.db, leadId);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        kind: 'new_lead',
        to_email: 'alex.morgan@example.com',
        status: 'sent',
        estimate_uuid: estimate.uuid,
      });
      expect(rows[0]?.text).toContain('Please call me after 5pm.');
      expect(rows[0]?.text).toContain('$279,341.00');
    });

    it('a failing provider leaves the lead saved, the delivery queued for a retry, and still answers 201', async () => {
      const failing = failingProvider('Provider unavailable (503)');
      suite.useProvider(failing);
      const estimate = await newEstimate();
      const leadId = await postLead(agentPageForm(suite.test.featuredAgent.id, estimate.uuid));
      await suite.settle();
      expect(failing.calls).toBe(2);
      expect(await leadById(suite.db, leadId)).toMatchObject({ first_name: 'Chris', estimate_uuid: estimate.uuid });
      const rows = await deliveriesOfLead(suite.db, leadId);
      expect(rows).toHaveLength(2);
      for (const row of rows) {
        expect(row).toMatchObject({
          status: 'queued',
          attempts: 1,
          last_error: 'Provider unavailable (503)',
          provider: 'failing-fake',
          provider_message_id: null,
          sent_at: null,
        });
        // Retried a minute later (1 minute × 2^0), by the database's clock.
        expect(row.due_in_seconds).toBeGreaterThan(45);
        expect(row.due_in_seconds).toBeLessThanOrEqual(60);
      }
    });

    it('answers before the provider has sent anything', async () => {
      const held = heldProvider();
      suite.useProvider(held);
      const leadId = await postLead({ ...contactForm, email: 'dana.held@example.com' });
      expect((await leadById(suite.db, leadId))?.first_name).toBe('Dana');
      expect((await deliveriesOfLead(suite.db, leadId)).map((row) => row.status)).toEqual(['queued']);
      held.release();
      await suite.settle();
      expect((await deliveriesOfLead(suite.db, leadId)).map((row) => row.status)).toEqual(['sent']);
    });

    it('writes the lead and its e-mails together or not at all', async () => {
      const estimate = await newEstimate();
      const leadsBefore = await countRows(suite.db, 'leads');
      const deliveriesBefore = await countDeliveries(suite.db);
      await withRefusedAddress('refused@example.com', async () => {
        const form = { ...agentPageForm(suite.test.featuredAgent.id, estimate.uuid), email: 'refused@example.com' };
        await expectError(await suite.api.postJson('/api/leads', form), 500, GENERIC_500);
      });
      expect(suite.logged.splice(0)).toHaveLength(1);
      expect(await countRows(suite.db, 'leads')).toBe(leadsBefore);
      expect(await countDeliveries(suite.db)).toBe(deliveriesBefore);
    });

    it('queues nothing for a refused or unknown lead', async () => {
      const before = await countDeliveries(suite.db);
      await expectError(await suite.api.postJson('/api/leads', { ...contactForm, email: 'nope' }), 400);
      await expectError(
        await suite.api.postJson('/api/leads', { ...contactForm, agent_slug: 'nosuchagent999' }),
        404,
        'Agent not found',
      );
      await expectError(
        await suite.api.postJson('/api/leads', agentPageForm(suite.test.featuredAgent.id, randomUUID())),
        404,
        'Estimate not found',
      );
      expect(await countDeliveries(suite.db)).toBe(before);
    });
  });

  describe('deliverQueued', () => {
    const message = (to: string): OutgoingEmail => ({
      kind: 'estimate',
      to: { email: to, name: 'Test Recipient' },
      subject: `Subject for ${to}`,
      html: `<p>${to}</p>`,
      text: to,
    });
    const minutesFromNow = (minutes: number) => new Date(Date.now() + minutes * 60_000);

    it('retries with exponential backoff and marks the delivery failed after 5 attempts', async () => {
      const id = await queueEmail(suite.db, message('retry@example.com'));
      const failing = failingProvider('Mailbox unavailable');
      let now = new Date(Date.now() + 1000);
      for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) {
        const report = await deliverQueued(suite.db, failing, { ...TEST_DELIVERY, ids: [id], now });
        const [row] = await suite.db.query<{ status: string; attempts: number; next_attempt_at: Date }>(
          'SELECT status, attempts, next_attempt_at FROM email_deliveries WHERE id = $1',
          [id],
        );
        expect(row?.attempts).toBe(attempt);
        if (attempt < MAX_ATTEMPTS) {
          expect(report).toEqual({ sent: [], retrying: [id], failed: [], suppressed: [] });
          expect(row?.status).toBe('queued');
          // 1, 2, 4, 8 minutes after this attempt.
          expect((row?.next_attempt_at.getTime() ?? 0) - now.getTime()).toBe(2 ** (attempt - 1) * 60_000);
          // Not due again before then.
          const early = new Date(now.getTime() + 2 ** (attempt - 1) * 60_000 - 1000);
          expect(await deliverQueued(suite.db, failing, { ...TEST_DELIVERY, ids: [id], now: early })).toEqual({
            sent: [],
            retrying: [],
            failed: [],
            suppressed: [],
          });
          now = row?.next_attempt_at ?? now;
        } else {
          expect(report).toEqual({ sent: [], retrying: [], failed: [id], suppressed: [] });
          expect(row?.status).toBe('failed');
        }
      }
      expect(failing.calls).toBe(MAX_ATTEMPTS);
      expect(await deliveryById(suite.db, id)).toMatchObject({ status: 'failed', last_error: 'Mailbox unavailable' });
      // A failed delivery is never picked up again.
      const later = await deliverQueued(suite.db, recordingProvider(), {
        ...TEST_DELIVERY,
        ids: [id],
        now: minutesFromNow(24 * 60),
      });
      expect(later).toEqual({ sent: [], retrying: [], failed: [], suppressed: [] });
    });

    it('sends a retried delivery once the provider recovers', async () => {
      const id = await queueEmail(suite.db, message('recovers@example.com'));
      await deliverQueued(suite.db, failingProvider(), { ...TEST_DELIVERY, ids: [id] });
      const recording = recordingProvider();
      const report = await deliverQueued(suite.db, recording, { ...TEST_DELIVERY, ids: [id], now: minutesFromNow(2) });
      expect(report).toEqual({ sent: [id], retrying: [], failed: [], suppressed: [] });
      expect(recording.sent.map((sent) => [sent.deliveryId, sent.to.email, sent.from])).toEqual([
        [id, 'recovers@example.com', TEST_FROM],
      ]);
      expect(await deliveryById(suite.db, id)).toMatchObject({
        status: 'sent',
        attempts: 2,
        provider: 'recording-fake',
        provider_message_id: `rec-${id}-1`,
        last_error: 'Provider unavailable (503)',
      });
    });

    it('never sends a row twice when workers run concurrently', async () => {
      const ids = await queueEmails(
        suite.db,
        Array.from({ length: 30 }, (_, index) => message(`concurrent${index}@example.com`)),
      );
      const recording = recordingProvider(5);
      const reports = await Promise.all(
        Array.from({ length: 6 }, () => deliverQueued(suite.db, recording, { ...TEST_DELIVERY, ids, limit: 10 })),
      );
      // Six workers of 10 share 30 rows: some may claim fewer, none claims a row another claimed.
      const sentByReports = reports.flatMap((report) => report.sent);
      expect(sentByReports.toSorted((a, b) => a - b)).toEqual(ids.toSorted((a, b) => a - b));
      const sentIds = recording.sent.map((sent) => sent.deliveryId);
      expect(new Set(sentIds).size).toBe(sentIds.length);
      const [counts] = await suite.db.query<{ sent: number; single: number }>(
        `SELECT count(*) FILTER (WHERE status = 'sent')::int AS sent, count(*) FILTER (WHERE attempts = 1)::int AS single
           FROM email_deliveries WHERE id = ANY ($1::integer[])`,
        [ids],
      );
      expect(counts).toEqual({ sent: 30, single: 30 });
      // And again later: nothing left to send.
      expect(await deliverQueued(suite.db, recording, { ...TEST_DELIVERY, ids })).toEqual({
        sent: [],
        retrying: [],
        failed: [],
        suppressed: [],
      });
      expect(recording.sent).toHaveLength(30);
    });

    it('leaves a row that is being sent to its worker until the lease runs out', async () => {
      const id = await queueEmail(suite.db, message('lease@example.com'));
      const held = heldProvider();
      const first = deliverQueued(suite.db, held, { ...TEST_DELIVERY, ids: [id] });
      while (held.started === 0) await new Promise((resolve) => setTimeout(resolve, 5));
      const recording = recordingProvider();
      expect(await deliverQueued(suite.db, recording, { ...TEST_DELIVERY, ids: [id] })).toEqual({
        sent: [],
        retrying: [],
        failed: [],
        suppressed: [],
      });
      held.release();
      expect(await first).toEqual({ sent: [id], retrying: [], failed: [], suppressed: [] });
      // Had the worker died, the row would be due again once the lease ran out; it did not, so it is sent.
      expect(
        await deliverQueued(suite.db, recording, {
          ...TEST_DELIVERY,
          ids: [id],
          now: minutesFromNow(CLAIM_LEASE_MINUTES + 1),
        }),
      ).toEqual({ sent: [], retrying: [], failed: [], suppressed: [] });
      expect(recording.sent).toHaveLength(0);
    });

    it('rolls a queued e-mail back with the transaction that queued it', async () => {
      const before = await countDeliveries(suite.db);
      await expect(
        suite.db.transaction(async (tx) => {
          await queueEmail(tx, message('rolled-back@example.com'));
          throw new Error('the write that caused it failed');
        }),
      ).rejects.toThrow('the write that caused it failed');
      expect(await countDeliveries(suite.db)).toBe(before);
    });
  });
});
