/**
 * POST /api/templates over real HTTP, on both backends: follow-up messages built from an
 * estimate's figures, and the requests it refuses.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { BACKENDS } from '../support/backends.ts';
import { expectError, expectJson, useApiSuite } from '../support/api-suite.ts';
import { createAgent } from '../support/fixtures.ts';
import { estimateResponse } from '../support/schemas.ts';

const templatesResponse = z.strictObject({
  success: z.literal(true),
  templates: z.strictObject({
    email_subject: z.string().min(1),
    email_body: z.string().min(1),
    sms: z.string().min(1).max(320),
  }),
});

describe.each(BACKENDS)('templates on %s', (backend) => {
  const suite = useApiSuite(backend, 'templates');
  const send = (body: unknown) => suite.api.postJson('/api/templates', body);

  const newEstimate = async (body: Record<string, unknown> = {}) => {
    const result = await expectJson(
      await suite.api.postJson('/api/estimates', {
        agent_slug: 'alexmorgan',
        sale_price: '780,200',
        mortgage_payoff: 450000,
        ...body,
      }),
      201,
      estimateResponse,
    );
    return result.estimate;
  };

  it("builds the e-mail and SMS from the estimate's sale price, payoff and net", async () => {
    const estimate = await newEstimate();
    const { templates } = await expectJson(
      await send({ uuid: estimate.uuid, first_name: '  Dana ', sender_name: ' Alex Morgan ' }),
      200,
      templatesResponse,
    );
    expect(templates.email_subject).toBe('Dana, your estimated net proceeds: $279,341.00');
    const link = `${suite.api.origin}/estimate/${estimate.uuid}`;
    for (const text of [templates.email_body, templates.sms]) {
      for (const expected of ['Dana', 'Alex Morgan', '$780,200.00', '$450,000.00', '$279,341.00', link]) {
        expect(text).toContain(expected);
      }
    }
    expect(templates.email_body.startsWith('Hi Dana,')).toBe(true);
    expect(templates.sms.startsWith("Hi Dana, it's Alex Morgan.")).toBe(true);
  });

  it('tells a seller who is under water what they would bring to closing', async () => {
    const estimate = await newEstimate({ sale_price: 400000, mortgage_payoff: 420000 });
    const { templates } = await expectJson(
      await send({ uuid: estimate.uuid.toUpperCase(), first_name: 'Dana', sender_name: 'Alex' }),
      200,
      templatesResponse,
    );
    const amount = `$${(-estimate.net_to_seller).toLocaleString('en-US', { minimumFractionDigits: 2 })}`;
    expect(templates.email_body).toContain(`you would need to bring about ${amount} to closing`);
    expect(templates.sms).toContain(`you'd bring about ${amount} to closing`);
  });

  it("uses the estimate's own figures whoever the agent is", async () => {
    const agent = await createAgent(suite.db);
    const estimate = await newEstimate({ agent_slug: agent.slug, sale_price: 1_250_000, mortgage_payoff: 0 });
    const { templates } = await expectJson(
      await send({ uuid: estimate.uuid, first_name: 'Dana', sender_name: 'Jamie Rivera' }),
      200,
      templatesResponse,
    );
    expect(templates.email_body).toContain('$1,250,000.00');
    expect(templates.email_body).toContain('$0.00');
  });

  it('keeps the SMS within 320 characters with 100-character names', async () => {
    const estimate = await newEstimate({ sale_price: 100_000_000, mortgage_payoff: 99_999_999.99 });
    const { templates } = await expectJson(
      await send({ uuid: estimate.uuid, first_name: 'F'.repeat(100), sender_name: 'S'.repeat(100) }),
      200,
      templatesResponse,
    );
    expect(templates.sms.length).toBeLessThanOrEqual(320);
    expect(templates.email_body).toContain('F'.repeat(100));
  });

  it('answers 404 "Estimate not found" for an estimate nobody has', async () => {
    const body = await expectError(
      await send({ uuid: randomUUID(), first_name: 'Dana', sender_name: 'Alex' }),
      404,
      'Estimate not found',
    );
    expect(body.fields).toEqual({ uuid: 'Estimate not found' });
  });

  it.each([
    ['uuid is missing', { uuid: undefined }, 'uuid', 'Estimate id is required'],
    ['uuid is a number', { uuid: 12 }, 'uuid', 'Estimate id is required'],
    ['uuid is malformed', { uuid: 'not-a-uuid' }, 'uuid', 'Estimate id is not valid'],
    ['first_name is missing', { first_name: undefined }, 'first_name', 'First name is required'],
    ['first_name is blank', { first_name: '  ' }, 'first_name', 'First name is required'],
    ['first_name is not text', { first_name: { name: 'Dana' } }, 'first_name', 'First name is required'],
    [
      'first_name is too long',
      { first_name: 'F'.repeat(101) },
      'first_name',
      'First name must be at most 100 characters',
    ],
    ['sender_name is missing', { sender_name: undefined }, 'sender_name', 'Sender name is required'],
    ['sender_name is null', { sender_name: null }, 'sender_name', 'Sender name is required'],
    [
      'sender_name is too long',
      { sender_name: 'S'.repeat(101) },
      'sender_name',
      'Sender name must be at most 100 characters',
    ],
  ])('answers 400 when %s', async (_label, change, field, message) => {
    const estimate = await newEstimate();
    const body = await expectError(
      await send({ uuid: estimate.uuid, first_name: 'Dana', sender_name: 'Alex', ...change }),
      400,
      message,
    );
    expect(body.fields).toEqual({ [field]: message });
  });

  it('refuses bodies that are not a JSON object', async () => {
    const post = (body: string, contentType = 'application/json') =>
      suite.api.fetch('/api/templates', { method: 'POST', headers: { 'content-type': contentType }, body });
    await expectError(await post('{"uuid":'), 400, 'The request body is not valid JSON');
    await expectError(await post('null'), 400, 'The request body must be a JSON object');
    await expectError(
      await post('{}', 'text/plain'),
      415,
      'Send the request body as JSON (Content-Type: application/json)',
    );
  });

  it.each(['GET', 'PUT', 'DELETE'])('%s answers 405 with Allow: POST', async (method) => {
    const response = await suite.api.fetch('/api/templates', { method });
    expect(response.headers.get('allow')).toBe('POST');
    await expectError(response, 405, `${method} is not allowed here; use POST`);
  });

  it('makes one round trip, and none for a refused request', async () => {
    const estimate = await newEstimate();
    const before = suite.db.roundTrips;
    await expectJson(
      await send({ uuid: estimate.uuid, first_name: 'Dana', sender_name: 'Alex' }),
      200,
      templatesResponse,
    );
    expect(suite.db.roundTrips - before).toBe(1);
    const again = suite.db.roundTrips;
    await expectError(await send({ uuid: 'nope', first_name: 'Dana', sender_name: 'Alex' }), 400);
    expect(suite.db.roundTrips - again).toBe(0);
  });
});
