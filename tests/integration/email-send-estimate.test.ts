/**
 * POST /api/email/send-estimate over real HTTP, on both backends: the estimate queued and answered
 * 202 at once, then delivered through the outbox after the response (its warnings, its agent, no
 * typed name); what it refuses (an unknown estimate, each invalid field, a body that is not an
 * object, other methods) with nothing queued; its round trips; a 500 when it cannot be queued.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { createEstimate } from '../support/estimates.ts';
import { detailedEstimateAnswerSchema } from '../../src/features/net-sheet/public/sheet-answer.ts';
import { escapeHtml } from '../../src/features/email/public/html.ts';
import { BACKENDS } from '../support/backends.ts';
import { anyString, expectError, expectJson } from '../support/api-suite.ts';
import {
  countDeliveries,
  deliveryById,
  heldProvider,
  TEST_FROM,
  TEST_SITE_URL,
  useEmailSuite,
} from '../support/email-suite.ts';
import { createAgent } from '../support/fixtures.ts';
import { GENERIC_500, withRefusedAddress } from '../support/refused-delivery.ts';
import { leadResponse } from '../support/schemas.ts';

const SEND = '/api/email/send-estimate';

const sendEstimateResponse = z.strictObject({
  success: z.literal(true),
  message: z.literal('Your estimate has been sent to your email!'),
  delivery_id: z.number().int().positive(),
});
describe.each(BACKENDS)('e-mail on %s', (backend) => {
  const suite = useEmailSuite(backend, 'email-send-estimate');

  const newEstimate = (agentSlug?: string) => createEstimate(suite.api, agentSlug);

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
      await withRefusedAddress(suite.db, email, async () => {
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
});
