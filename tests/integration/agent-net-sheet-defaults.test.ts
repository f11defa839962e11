/**
 * The agent's defaults for the net sheet's lines through GET and PATCH /api/agents/me/settings, on
 * both backends: the system defaults, the split commission saved whole (shape 4) with the commission
 * as its sum for the quick estimate, the four-field shape keeping or clearing the split, and
 * refusals that write nothing.
 */
import { describe, expect, it } from 'vitest';
import {
  agentSettingsResponseSchema,
  agentSettingsSavedSchema,
  type AgentDefaults,
} from '../../src/features/net-sheet/public/agent-settings.ts';
import { expectError, expectFieldError, expectJson } from '../support/api-suite.ts';
import { clientAs, useAuthSuite, type Client } from '../support/auth-suite.ts';
import { BACKENDS } from '../support/backends.ts';
import { createEstimate } from '../support/estimates.ts';
import { createAgent, setAgentSettings } from '../support/fixtures.ts';

const PATH = '/api/agents/me/settings';
const SPLIT: AgentDefaults = {
  default_attorney_fee: 900,
  default_recording_fee: 200,
  transfer_tax_rate_per_1000: 4,
  default_listing_percent: 3.1,
  default_buyer_agent_percent: 2.9,
  default_days_to_closing: 60,
  default_title_closer_pickup: false,
  default_payoff_bank_attorney: true,
  default_rp5217_on_seller: true,
};

describe.each(BACKENDS)('the agent’s net sheet defaults on %s', (backend) => {
  const suite = useAuthSuite(backend, 'netsheetdefaults');

  const patch = (client: Client, body: unknown) =>
    client.request(PATH, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', origin: suite.api.origin },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const settingsOf = async (client: Client) =>
    (await expectJson(await client.get(PATH), 200, agentSettingsResponseSchema)).settings;
  const newAgent = async () => {
    const agent = await createAgent(suite.db);
    return { agent, client: await clientAs(suite, agent.id) };
  };
  const storedRow = async (agentId: number) =>
    suite.db.query('SELECT * FROM agent_settings WHERE agent_id = $1', [agentId]);

  it('answers the defaults of the new lines for an agent who has set none', async () => {
    const { client } = await newAgent();
    expect(await settingsOf(client)).toEqual({
      default_attorney_fee: 750,
      default_recording_fee: 175,
      transfer_tax_rate_per_1000: 4,
      default_commission_percent: 6,
      default_listing_percent: 3,
      default_buyer_agent_percent: 3,
      default_days_to_closing: 45,
      default_title_closer_pickup: true,
      default_payoff_bank_attorney: false,
      default_rp5217_on_seller: false,
    });
  });

  it('splits an existing commission in half, the odd hundredth to the listing side', async () => {
    const { agent, client } = await newAgent();
    await setAgentSettings(suite.db, agent.id, {
      attorneyFeeCents: 750_00,
      recordingFeeCents: 175_00,
      transferTaxRatePer1000: 4,
      commissionPercent: 5.25,
    });
    const settings = await settingsOf(client);
    expect(settings.default_listing_percent).toBe(2.63);
    expect(settings.default_buyer_agent_percent).toBe(2.62);
    expect(settings.default_commission_percent).toBe(5.25);
  });

  it('saves a 3.1 + 2.9 split with the new lines; the commission is 6 and a new estimate uses it', async () => {
    const { agent, client } = await newAgent();
    const saved = await expectJson(await patch(client, SPLIT), 200, agentSettingsSavedSchema);
    expect(saved.message).toBe('Calculator settings saved successfully!');
    const expected = { ...SPLIT, default_commission_percent: 6 };
    expect(saved.settings).toEqual(expected);
    expect(await settingsOf(client)).toEqual(expected);
    const estimate = await createEstimate(suite.api, agent.slug);
    expect(estimate.commission_percent).toBe(6);
    expect(estimate.lawyer_fee).toBe(900);
  });

  it('keeps the split when the four-field shape saves the same commission, and clears it for another', async () => {
    const { client } = await newAgent();
    await expectJson(await patch(client, SPLIT), 200, agentSettingsSavedSchema);
    const four = { default_attorney_fee: 800, default_recording_fee: 200, transfer_tax_rate_per_1000: 4 };
    const same = await expectJson(
      await patch(client, { ...four, default_commission_percent: 6 }),
      200,
      agentSettingsSavedSchema,
    );
    expect(same.settings).toMatchObject({ default_listing_percent: 3.1, default_buyer_agent_percent: 2.9 });
    const other = await expectJson(
      await patch(client, { ...four, default_commission_percent: 5 }),
      200,
      agentSettingsSavedSchema,
    );
    expect(other.settings).toMatchObject({
      default_commission_percent: 5,
      default_listing_percent: 2.5,
      default_buyer_agent_percent: 2.5,
      // The new lines are not part of the four-field shape: they stay as saved.
      default_days_to_closing: 60,
      default_payoff_bank_attorney: true,
    });
  });

  const refusals: [string, Record<string, unknown>, string, string][] = [
    [
      'a 25 % commission',
      { default_listing_percent: 12.5, default_buyer_agent_percent: 12.5 },
      'default_commission_percent',
      'Commission must be at most 20 %',
    ],
    [
      'a negative side',
      { default_buyer_agent_percent: -1 },
      'default_buyer_agent_percent',
      'Buyer’s agent side cannot be negative',
    ],
    [
      'a side in thousandths',
      { default_listing_percent: 3.105 },
      'default_listing_percent',
      'Listing side can have at most two decimals (steps of 0.01)',
    ],
    [
      'a side as a string',
      { default_listing_percent: '3.1' },
      'default_listing_percent',
      'Listing side must be a number',
    ],
    [
      'a missing side',
      { default_buyer_agent_percent: undefined },
      'default_buyer_agent_percent',
      'Buyer’s agent side is required',
    ],
    [
      'days to closing of zero',
      { default_days_to_closing: 0 },
      'default_days_to_closing',
      'Days to closing must be at least 1',
    ],
    [
      'days to closing over a year',
      { default_days_to_closing: 366 },
      'default_days_to_closing',
      'Days to closing must be at most 365',
    ],
    [
      'a switch as a string',
      { default_title_closer_pickup: 'yes' },
      'default_title_closer_pickup',
      'Title closer pick-up must be true or false',
    ],
    [
      'a missing switch',
      { default_rp5217_on_seller: undefined },
      'default_rp5217_on_seller',
      'RP-5217 on the seller is required',
    ],
    ['a missing fee', { default_attorney_fee: undefined }, 'default_attorney_fee', 'Attorney fee is required'],
  ];

  it.each(refusals)('refuses %s with its field, writing nothing', async (_name, change, field, message) => {
    const { agent, client } = await newAgent();
    await expectFieldError(await patch(client, { ...SPLIT, ...change }), field, message);
    expect(await storedRow(agent.id)).toEqual([]);
  });

  it('tells the commission’s limit along with another field’s error, writing nothing', async () => {
    const { agent, client } = await newAgent();
    const body = {
      ...SPLIT,
      default_listing_percent: 15,
      default_buyer_agent_percent: 10,
      default_attorney_fee: 750.5,
    };
    const refused = await expectError(await patch(client, body), 400);
    expect(refused.fields).toEqual({
      default_attorney_fee: 'Attorney fee must be in whole dollars',
      default_commission_percent: 'Commission must be at most 20 %',
    });
    expect(await storedRow(agent.id)).toEqual([]);
  });

  it('refuses malformed JSON and answers 401 signed out, writing nothing', async () => {
    const { agent, client } = await newAgent();
    await expectError(await patch(client, '{"default_listing_percent":'), 400);
    await expectError(await patch(suite.client(), SPLIT), 401, 'Please log in');
    expect(await storedRow(agent.id)).toEqual([]);
  });
});
