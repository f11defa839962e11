/**
 * GET and PATCH /api/agents/me/settings over real HTTP on both backends: the system defaults, each
 * bound and step of the four calculator defaults, bad bodies, the site-wide shapes refused to
 * agents, own data only, and a new estimate that uses the saved values while an old one keeps its own.
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import {
  calculatorSettingsSchema,
  settingsResponseSchema,
} from '../../src/features/net-sheet/public/agent-settings.ts';
import { expectError, expectJson } from '../support/api-suite.ts';
import { clientAs, useAuthSuite, type Client } from '../support/auth-suite.ts';
import { BACKENDS } from '../support/backends.ts';
import { createEstimate } from '../support/estimates.ts';
import { createAgent, setAgentSettings } from '../support/fixtures.ts';
import { estimateResponse } from '../support/schemas.ts';

const PATH = '/api/agents/me/settings';
const VALID = {
  default_attorney_fee: 900,
  default_recording_fee: 200,
  transfer_tax_rate_per_1000: 4.15,
  default_commission_percent: 5.25,
};
const savedResponse = z.strictObject({
  success: z.literal(true),
  message: z.literal('Calculator settings saved successfully!'),
  settings: calculatorSettingsSchema,
});
const SYSTEM = {
  default_attorney_fee: 750,
  default_recording_fee: 175,
  transfer_tax_rate_per_1000: 4,
  default_commission_percent: 6,
};

describe.each(BACKENDS)('the agent’s calculator settings on %s', (backend) => {
  const suite = useAuthSuite(backend, 'agentsettings');

  const patchRaw = (client: Client, body: string, headers: Record<string, string> = {}) =>
    client.request(PATH, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', origin: suite.api.origin, ...headers },
      body,
    });
  const patch = (client: Client, body: unknown) => patchRaw(client, JSON.stringify(body));
  const settingsOf = async (client: Client) =>
    (await expectJson(await client.get(PATH), 200, settingsResponseSchema)).settings;
  const newClient = async () => clientAs(suite, (await createAgent(suite.db)).id);

  it('answers the system defaults for an agent who has set none, in one round trip', async () => {
    const client = await newClient();
    const before = suite.db.roundTrips;
    const response = await client.get(PATH);
    expect(suite.db.roundTrips - before).toBe(1);
    expect(await expectJson(response, 200, settingsResponseSchema)).toEqual({ success: true, settings: SYSTEM });
  });

  it('saves the four values and answers them back; GET then has them', async () => {
    const client = await newClient();
    const before = suite.db.roundTrips;
    const response = await patch(client, VALID);
    expect(suite.db.roundTrips - before).toBe(1);
    const body = await expectJson(response, 200, savedResponse);
    expect(body.settings).toEqual(VALID);
    expect(await settingsOf(client)).toEqual(VALID);
    // Saving again replaces them (an upsert).
    await expectJson(await patch(client, { ...VALID, default_commission_percent: 0 }), 200, savedResponse);
    expect(await settingsOf(client)).toEqual({ ...VALID, default_commission_percent: 0 });
  });

  it.each([
    ['default_attorney_fee', 0, true],
    ['default_attorney_fee', 100_000, true],
    ['default_attorney_fee', 100_001, false],
    ['default_attorney_fee', -1, false],
    ['default_attorney_fee', 750.5, false],
    ['default_recording_fee', 175.25, false],
    ['default_recording_fee', -1, false],
    ['transfer_tax_rate_per_1000', 20, true],
    ['transfer_tax_rate_per_1000', 1.15, true],
    ['transfer_tax_rate_per_1000', 20.01, false],
    ['transfer_tax_rate_per_1000', 0.015, false],
    ['transfer_tax_rate_per_1000', -0.01, false],
    ['default_commission_percent', 0, true],
    ['default_commission_percent', 20, true],
    ['default_commission_percent', 0.01, true],
    ['default_commission_percent', 20.01, false],
    ['default_commission_percent', 0.015, false],
    ['default_commission_percent', -1, false],
  ])('%s = %s accepted: %s', async (field, value, accepted) => {
    const client = await newClient();
    const response = await patch(client, { ...VALID, [field]: value });
    if (accepted) {
      const body = await expectJson(response, 200, savedResponse);
      expect(body.settings).toEqual({ ...VALID, [field]: value });
      return;
    }
    const error = await expectError(response, 400);
    expect(Object.keys(error.fields)).toEqual([field]);
    expect(error.error).toBe(error.fields[field]);
    expect(await settingsOf(client)).toEqual(SYSTEM);
  });

  it('says which bound or step a value breaks, in words', async () => {
    const client = await newClient();
    const fieldsOf = async (body: unknown) => (await expectError(await patch(client, body), 400)).fields;
    expect(await fieldsOf({ ...VALID, default_commission_percent: 0.015 })).toEqual({
      default_commission_percent: 'Commission can have at most two decimals (steps of 0.01)',
    });
    expect(await fieldsOf({ ...VALID, default_commission_percent: 20.01 })).toEqual({
      default_commission_percent: 'Commission must be at most 20 %',
    });
    expect(await fieldsOf({ ...VALID, default_attorney_fee: -1 })).toEqual({
      default_attorney_fee: 'Attorney fee cannot be negative',
    });
    expect(await fieldsOf({ ...VALID, default_recording_fee: 1.5 })).toEqual({
      default_recording_fee: 'Recording fee must be in whole dollars',
    });
  });

  it('refuses wrong types, missing fields, malformed JSON and oversized bodies, saving nothing', async () => {
    const client = await newClient();
    expect((await expectError(await patch(client, { ...VALID, default_attorney_fee: '900' }), 400)).fields).toEqual({
      default_attorney_fee: 'Attorney fee must be a number',
    });
    const missing = { ...VALID, default_recording_fee: undefined };
    expect((await expectError(await patch(client, missing), 400)).fields).toEqual({
      default_recording_fee: 'Recording fee is required',
    });
    await expectError(await patch(client, { ...VALID, transfer_tax_rate_per_1000: null }), 400);
    await expectError(await patchRaw(client, '{"default_attorney_fee": 9'), 400, 'The request body is not valid JSON');
    await expectError(await patch(client, [VALID]), 400, 'The request body must be a JSON object');
    await expectError(await patchRaw(client, JSON.stringify({ ...VALID, pad: 'x'.repeat(70_000) })), 413);
    await expectError(await patchRaw(client, JSON.stringify(VALID), { 'content-type': 'text/plain' }), 415);
    expect(await settingsOf(client)).toEqual(SYSTEM);
  });

  it.each([
    ['website logo', { website_logo: '/logo.png', website_logo_type: 'png', website_logo_scale: 1.2 }],
    ['town page logo', { town_page_logo: '/town.png', town_page_logo_type: 'png', show_town_page_logo: true }],
  ])('refuses the %s shape to an agent with 403, changing nothing', async (_shape, body) => {
    const agent = await createAgent(suite.db);
    const client = await clientAs(suite, agent.id);
    await expectError(await patch(client, body), 403, 'Only admins can change site-wide settings');
    const [site] = await suite.db.query<{ website_logo: string | null; town_page_logo: string | null }>(
      'SELECT website_logo, town_page_logo FROM site_settings WHERE id = 1',
    );
    expect(site?.website_logo).not.toBe('/logo.png');
    expect(site?.town_page_logo).not.toBe('/town.png');
    expect(await settingsOf(client)).toEqual(SYSTEM);
    // An admin changes the scale and the toggle here (tests/integration/site-images.test.ts); the
    // images themselves only through their upload routes, which re-encode them.
    await suite.db.query('UPDATE agents SET is_admin = true WHERE id = $1', [agent.id]);
    await expectError(
      await patch(client, body),
      400,
      'The logo images are uploaded and deleted through their upload routes',
    );
    expect(await settingsOf(client)).toEqual(SYSTEM);
  });

  it('keeps each agent to their own settings; an admin gets and changes their own', async () => {
    const a = await createAgent(suite.db);
    const b = await createAgent(suite.db);
    await setAgentSettings(suite.db, a.id, {
      attorneyFeeCents: 1_000_00,
      recordingFeeCents: 250_00,
      transferTaxRatePer1000: 4.5,
      commissionPercent: 5,
    });
    const clientB = await clientAs(suite, b.id);
    expect(await settingsOf(clientB)).toEqual(SYSTEM);
    await expectJson(await patch(clientB, VALID), 200, savedResponse);
    // A's row is untouched by B's save; agent ids in the body or query change nothing.
    const clientA = await clientAs(suite, a.id);
    const expectedA = {
      default_attorney_fee: 1000,
      default_recording_fee: 250,
      transfer_tax_rate_per_1000: 4.5,
      default_commission_percent: 5,
    };
    expect(await settingsOf(clientA)).toEqual(expectedA);
    await expectJson(
      await patch(clientB, { ...VALID, agent_id: a.id, default_commission_percent: 1 }),
      200,
      savedResponse,
    );
    expect(await settingsOf(clientA)).toEqual(expectedA);
    expect(await settingsOf(clientB)).toEqual({ ...VALID, default_commission_percent: 1 });
    await expectJson(await patch(clientB, VALID), 200, savedResponse);
    expect(
      (await expectJson(await clientB.get(`${PATH}?agent_id=${a.id}`), 200, settingsResponseSchema)).settings,
    ).toEqual(VALID);

    const admin = await createAgent(suite.db, { is_admin: true });
    const adminClient = await clientAs(suite, admin.id);
    expect(await settingsOf(adminClient)).toEqual(SYSTEM);
    await expectJson(await patch(adminClient, { ...VALID, default_commission_percent: 3 }), 200, savedResponse);
    expect(await settingsOf(adminClient)).toEqual({ ...VALID, default_commission_percent: 3 });
    expect(await settingsOf(clientA)).toEqual(expectedA);
  });

  it('answers 401 signed out and for an inactive agent, saving nothing', async () => {
    await expectError(await suite.client().get(PATH), 401, 'Please log in');
    await expectError(await patch(suite.client(), VALID), 401, 'Please log in');
    const agent = await createAgent(suite.db);
    const client = await clientAs(suite, agent.id);
    await suite.db.query(`UPDATE agents SET status = 'inactive' WHERE id = $1`, [agent.id]);
    await expectError(await patch(client, VALID), 401, 'Please log in');
    const rows = await suite.db.query('SELECT 1 FROM agent_settings WHERE agent_id = $1', [agent.id]);
    expect(rows).toEqual([]);
  });

  it('gives a new estimate the saved commission at once; an earlier estimate keeps its own', async () => {
    const agent = await createAgent(suite.db);
    const client = await clientAs(suite, agent.id);
    const before = await createEstimate(suite.api, agent.slug);
    expect(before.commission_percent).toBe(6);
    await expectJson(await patch(client, { ...VALID, default_commission_percent: 4.5 }), 200, savedResponse);
    const after = await createEstimate(suite.api, agent.slug);
    expect(after.commission_percent).toBe(4.5);
    expect(after.commission).toBe(35109);
    expect(after.lawyer_fee).toBe(900);
    const old = await expectJson(await suite.api.fetch(`/api/estimates/${before.uuid}`), 200, estimateResponse);
    expect(old.estimate.commission_percent).toBe(6);
    expect(old.estimate.lawyer_fee).toBe(750);
  });
});
